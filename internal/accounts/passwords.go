package accounts

import (
	"context"
	"fmt"
	"time"

	"github.com/google/uuid"

	"github.com/venueplatform/venue/ent"
	"github.com/venueplatform/venue/ent/authcode"
	"github.com/venueplatform/venue/ent/session"
	"github.com/venueplatform/venue/ent/user"
	"github.com/venueplatform/venue/internal/apperr"
	"github.com/venueplatform/venue/internal/identity/codes"
	"github.com/venueplatform/venue/internal/identity/password"
	"github.com/venueplatform/venue/internal/identity/timing"
	"github.com/venueplatform/venue/internal/members"
	"github.com/venueplatform/venue/internal/system"
	"github.com/venueplatform/venue/internal/viewer"
)

// ForgotFloor is the minimum response time of the forgotten-password
// request, so sending a code or not takes as long.
const ForgotFloor = 250 * time.Millisecond

// Forgot sends a password-reset code when email has an account. Its answer
// and timing do not depend on that.
func (s *Service) Forgot(ctx context.Context, email string) error {
	if _, err := members.NormalizeEmail(email); err != nil {
		return apperr.Validation("email", "a valid email address is required")
	}
	defer timing.Floor(ctx, time.Now(), ForgotFloor)
	u, err := s.userByEmail(system.Allow(ctx, "accounts.password_code"), email)
	if err != nil || u == nil {
		if err != nil {
			s.log.ErrorContext(ctx, "forgot password: lookup", "error", err)
		}
		return nil
	}
	if err := s.sendCode(system.Allow(ctx, "accounts.password_code"), u, PurposePasswordReset); err != nil {
		s.log.ErrorContext(ctx, "forgot password: send code", "user_id", u.ID, "error", err)
	}
	return nil
}

// sendCode replaces the user's pending code of purpose with a new one and
// sends it.
func (s *Service) sendCode(ctx context.Context, u *ent.User, purpose string) error {
	code := codes.NewNumericCode()
	now := s.now()
	exp := now.Add(CodeTTL)
	tx, err := s.client.Tx(ctx)
	if err != nil {
		return err
	}
	defer func() { _ = tx.Rollback() }()
	p := authcode.Purpose(purpose)
	if err := tx.AuthCode.Update().Where(authcode.UserID(u.ID), authcode.PurposeEQ(p), authcode.UsedAtIsNil()).
		SetUsedAt(now).Exec(ctx); err != nil {
		return err
	}
	if err := tx.AuthCode.Create().SetUserID(u.ID).SetPurpose(p).
		SetHash(s.codes.Sum(codes.Purpose(purpose), u.ID.String(), code)).SetExpiresAt(exp).Exec(ctx); err != nil {
		return err
	}
	if err := tx.Commit(); err != nil {
		return err
	}
	return s.sink.SendCode(ctx, Delivery{UserID: u.ID, Email: u.Email, Purpose: purpose, Code: code, ExpiresAt: exp})
}

// consumeCode spends the user's pending code of purpose if code matches it.
// Wrong guesses count against the code; every refusal is ErrInvalidCode.
func (s *Service) consumeCode(ctx context.Context, userID uuid.UUID, purpose, code string) error {
	norm, err := codes.NormalizeNumericCode(code)
	if err != nil {
		return ErrInvalidCode
	}
	now := s.now()
	p := authcode.Purpose(purpose)
	row, err := s.client.AuthCode.Query().
		Where(authcode.UserID(userID), authcode.PurposeEQ(p), authcode.UsedAtIsNil(), authcode.ExpiresAtGT(now)).
		Order(ent.Desc(authcode.FieldCreatedAt)).First(ctx)
	if ent.IsNotFound(err) {
		return ErrInvalidCode
	}
	if err != nil {
		return err
	}
	if row.Attempts >= MaxCodeAttempts {
		return ErrInvalidCode
	}
	if !codes.Equal(s.codes.Sum(codes.Purpose(purpose), userID.String(), norm), row.Hash) {
		if err := s.client.AuthCode.UpdateOneID(row.ID).AddAttempts(1).Exec(ctx); err != nil {
			return err
		}
		return ErrInvalidCode
	}
	// Conditional, so two requests with the right code cannot both win.
	n, err := s.client.AuthCode.Update().
		Where(authcode.ID(row.ID), authcode.UsedAtIsNil(), authcode.AttemptsLT(MaxCodeAttempts)).
		SetUsedAt(now).Save(ctx)
	if err != nil {
		return err
	}
	if n == 0 {
		return ErrInvalidCode
	}
	return nil
}

// Reset sets a new password with a reset code, claims an imported or
// enrolled account, and revokes every session of the account.
func (s *Service) Reset(ctx context.Context, email, code, newPassword string) error {
	if err := password.CheckPolicy("new_password", newPassword); err != nil {
		return apperr.Validation("new_password", err.Error())
	}
	u, err := s.userByEmail(system.Allow(ctx, "accounts.password_reset"), email)
	if err != nil {
		return err
	}
	if u == nil {
		return ErrInvalidCode
	}
	sctx := system.Allow(ctx, "accounts.password_reset")
	if err := s.consumeCode(sctx, u.ID, PurposePasswordReset, code); err != nil {
		return err
	}
	return s.setPassword(sctx, u.ID, newPassword, uuid.Nil)
}

// setPassword stores a new password, activates the account and revokes its
// sessions except keep.
func (s *Service) setPassword(ctx context.Context, userID uuid.UUID, pw string, keep uuid.UUID) error {
	hash, err := s.hasher.Hash(ctx, pw)
	if err != nil {
		return err
	}
	if err := s.client.User.UpdateOneID(userID).SetPasswordHash(hash).
		SetAccountState(user.AccountStateActive).Exec(ctx); err != nil {
		return fmt.Errorf("set password: %w", err)
	}
	_, err = s.client.Session.Update().
		Where(session.UserID(userID), session.RevokedAtIsNil(), session.IDNEQ(keep)).
		SetRevokedAt(s.now()).SetRevokedReason("password_changed").Save(ctx)
	return err
}

// RequestChangeCode sends the signed-in user a fresh code for a password
// change.
func (s *Service) RequestChangeCode(ctx context.Context) error {
	v, ok := viewer.UserFromContext(ctx)
	if !ok {
		return apperr.Unauthorized("a user session is required")
	}
	sctx := system.Allow(ctx, "accounts.password_code")
	u, err := s.client.User.Get(sctx, v.UserID)
	if err != nil {
		return err
	}
	return s.sendCode(sctx, u, PurposePasswordChange)
}

// ChangePassword sets the signed-in user's password with a fresh code; the
// user's other sessions are revoked, the current one stays.
func (s *Service) ChangePassword(ctx context.Context, code, newPassword string) error {
	v, ok := viewer.UserFromContext(ctx)
	if !ok {
		return apperr.Unauthorized("a user session is required")
	}
	if err := password.CheckPolicy("new_password", newPassword); err != nil {
		return apperr.Validation("new_password", err.Error())
	}
	if err := s.consumeCode(ctx, v.UserID, PurposePasswordChange, code); err != nil {
		return err
	}
	return s.setPassword(system.Allow(ctx, "accounts.password_change"), v.UserID, newPassword, v.SessionID)
}
