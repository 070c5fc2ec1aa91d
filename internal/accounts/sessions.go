package accounts

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/venueplatform/venue/ent"
	"github.com/venueplatform/venue/ent/refreshtoken"
	"github.com/venueplatform/venue/ent/session"
	"github.com/venueplatform/venue/ent/user"
	"github.com/venueplatform/venue/internal/apperr"
	"github.com/venueplatform/venue/internal/identity/password"
	"github.com/venueplatform/venue/internal/identity/token"
	"github.com/venueplatform/venue/internal/members"
	"github.com/venueplatform/venue/internal/system"
	"github.com/venueplatform/venue/internal/viewer"
)

// SignupParams are the fields of a sign-up.
type SignupParams struct {
	Email, Password     string
	FirstName, LastName string
	Country, City       string
}

// Signup creates an account with a password and signs it in.
func (s *Service) Signup(ctx context.Context, p SignupParams) (*Session, error) {
	email, err := members.NormalizeEmail(p.Email)
	if err != nil {
		return nil, apperr.Validation("email", "a valid email address is required")
	}
	if err := password.CheckPolicy("password", p.Password); err != nil {
		return nil, apperr.Validation("password", err.Error())
	}
	// Country and city as PATCH /me takes them: an ISO 3166-1 alpha-2 code
	// in any case (stored upper case), a trimmed city.
	p.Country, p.City = strings.ToUpper(strings.TrimSpace(p.Country)), strings.TrimSpace(p.City)
	if c := p.Country; c != "" && (len(c) != 2 || c[0] < 'A' || c[0] > 'Z' || c[1] < 'A' || c[1] > 'Z') {
		return nil, apperr.Validation("country", "country is an ISO 3166-1 alpha-2 code")
	}
	hash, err := s.hasher.Hash(ctx, p.Password)
	if err != nil {
		return nil, err
	}
	sctx := system.Allow(ctx, "accounts.signup")
	create := s.client.User.Create().SetEmail(email).SetPasswordHash(hash).
		SetFirstName(p.FirstName).SetLastName(p.LastName).SetAccountState(user.AccountStateActive)
	if p.Country != "" {
		create.SetCountry(p.Country)
	}
	if p.City != "" {
		create.SetCity(p.City)
	}
	u, err := create.Save(sctx)
	if ent.IsConstraintError(err) {
		return nil, ErrAccountExists
	}
	if err != nil {
		return nil, fmt.Errorf("create user: %w", err)
	}
	return s.issue(ctx, u, []string{token.AMRPassword})
}

// Login checks an email and password and opens a session. Every failure is
// ErrInvalidCredentials after the same argon2id work.
func (s *Service) Login(ctx context.Context, email, pw string) (*Session, error) {
	u, err := s.userByEmail(system.Allow(ctx, "accounts.login"), email)
	if err != nil {
		return nil, err
	}
	if u == nil || u.PasswordHash == "" {
		_ = s.hasher.DummyVerify(ctx, pw)
		return nil, ErrInvalidCredentials
	}
	if err := s.hasher.Verify(ctx, pw, u.PasswordHash); err != nil {
		if errors.Is(err, password.ErrMismatch) {
			return nil, ErrInvalidCredentials
		}
		return nil, err
	}
	if s.hasher.NeedsRehash(u.PasswordHash) {
		if h, err := s.hasher.Hash(ctx, pw); err == nil {
			_ = s.client.User.UpdateOneID(u.ID).SetPasswordHash(h).Exec(system.Allow(ctx, "accounts.login"))
		}
	}
	sess, err := s.issue(ctx, u, []string{token.AMRPassword})
	return s.flagMFA(ctx, sess, err)
}

// userByEmail returns the account of email, nil when there is none or the
// email is malformed. ctx comes from the caller's system site (system.Allow),
// which names why it may read an account before anyone is signed in.
func (s *Service) userByEmail(ctx context.Context, email string) (*ent.User, error) {
	e, err := members.NormalizeEmail(email)
	if err != nil {
		return nil, nil
	}
	u, err := s.client.User.Query().Where(user.Email(e)).Only(ctx)
	if ent.IsNotFound(err) {
		return nil, nil
	}
	return u, err
}

// Refresh exchanges a refresh token for new tokens (rotation). A spent token
// presented again revokes its session.
func (s *Service) Refresh(ctx context.Context, presented string) (*Session, error) {
	lookup, hash, err := token.ParseRefreshToken(presented)
	if err != nil {
		return nil, ErrInvalidRefresh
	}
	ctx = system.Allow(ctx, "sessions.refresh")
	now := s.now()
	tx, err := s.client.Tx(ctx)
	if err != nil {
		return nil, err
	}
	defer func() { _ = tx.Rollback() }()
	rt, err := tx.RefreshToken.Query().Where(refreshtoken.Lookup(lookup)).ForUpdate().Only(ctx)
	if ent.IsNotFound(err) {
		return nil, ErrInvalidRefresh
	}
	if err != nil {
		return nil, err
	}
	if !token.RefreshHashEqual(hash, rt.Hash) {
		return nil, ErrInvalidRefresh
	}
	sess, err := tx.Session.Get(ctx, rt.SessionID)
	if err != nil {
		return nil, err
	}
	if rt.UsedAt != nil {
		if sess.RevokedAt == nil {
			if err := tx.Session.UpdateOne(sess).SetRevokedAt(now).SetRevokedReason("refresh_token_reuse").Exec(ctx); err != nil {
				return nil, err
			}
			if err := tx.Commit(); err != nil {
				return nil, err
			}
			s.log.WarnContext(ctx, "refresh token reused; session revoked", "session_id", sess.ID, "lookup", lookup)
		}
		return nil, ErrInvalidRefresh
	}
	if sess.RevokedAt != nil || !now.Before(sess.ExpiresAt) || !now.Before(rt.ExpiresAt) {
		return nil, ErrInvalidRefresh
	}
	next := token.NewRefreshToken()
	if err := tx.RefreshToken.UpdateOne(rt).SetUsedAt(now).Exec(ctx); err != nil {
		return nil, err
	}
	if err := tx.RefreshToken.Create().SetSessionID(sess.ID).SetUserID(sess.UserID).SetLookup(next.Lookup).
		SetHash(next.Hash).SetParentID(rt.ID).SetExpiresAt(sess.ExpiresAt).Exec(ctx); err != nil {
		return nil, err
	}
	if sess, err = tx.Session.UpdateOne(sess).SetLastUsedAt(now).Save(ctx); err != nil {
		return nil, err
	}
	u, err := tx.User.Get(ctx, sess.UserID)
	if err != nil {
		return nil, err
	}
	if err := tx.Commit(); err != nil {
		return nil, err
	}
	return s.answer(sess, u, next.Token)
}

// Logout revokes the session of the user viewer in ctx. Its access tokens
// stay valid until they expire.
func (s *Service) Logout(ctx context.Context) error {
	u, ok := viewer.UserFromContext(ctx)
	if !ok {
		return apperr.Unauthorized("a user session is required")
	}
	_, err := s.client.Session.Update().
		Where(session.ID(u.SessionID), session.RevokedAtIsNil()).
		SetRevokedAt(s.now()).SetRevokedReason("logout").Save(ctx)
	return err
}
