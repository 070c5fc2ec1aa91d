package accounts

import (
	"context"
	"time"

	"github.com/google/uuid"

	"github.com/venueplatform/venue/ent"
	"github.com/venueplatform/venue/ent/otprequest"
	"github.com/venueplatform/venue/internal/apperr"
	"github.com/venueplatform/venue/internal/identity/codes"
	"github.com/venueplatform/venue/internal/identity/timing"
	"github.com/venueplatform/venue/internal/members"
	"github.com/venueplatform/venue/internal/system"
)

// Settings of the mobile email sign-in.
const (
	// PurposeEmailOTP is the purpose of a mobile sign-in delivery.
	PurposeEmailOTP = "email_otp"
	// OTPTTL is how long a mobile sign-in request can be exchanged.
	OTPTTL = 10 * time.Minute
	// AMREmail is the amr of a session opened with an emailed code or link.
	AMREmail = "email"
)

// OTPExchange is one of the two exchange forms: Code, or TokenHash with
// CodeVerifier.
type OTPExchange struct {
	RequestID    uuid.UUID
	Code         string
	TokenHash    string
	CodeVerifier string
}

// RequestOTP sends a sign-in code (and, with a PKCE S256 challenge, a token
// hash) to email when it has an account, and answers a request id either
// way, after the same minimum time.
func (s *Service) RequestOTP(ctx context.Context, email, challenge, method string) (uuid.UUID, error) {
	if _, err := members.NormalizeEmail(email); err != nil {
		return uuid.Nil, apperr.Validation("email", "a valid email address is required")
	}
	if challenge != "" || method != "" {
		if err := codes.ValidatePKCEChallenge(method, challenge); err != nil {
			return uuid.Nil, apperr.Validation("code_challenge", "code_challenge must be an S256 challenge (code_challenge_method S256)")
		}
	}
	defer timing.Floor(ctx, time.Now(), ForgotFloor)
	id := uuid.New()
	u, err := s.userByEmail(system.Allow(ctx, "otp.request"), email)
	if err != nil || u == nil {
		if err != nil {
			s.log.ErrorContext(ctx, "otp request: lookup", "error", err)
		}
		return id, nil
	}
	code := codes.NewNumericCode()
	exp := s.now().Add(OTPTTL)
	create := s.client.OTPRequest.Create().SetID(id).SetUserID(u.ID).
		SetCodeHash(s.codes.Sum(codes.PurposeEmailOTP, id.String(), code)).SetExpiresAt(exp)
	var tokenHash string
	if challenge != "" {
		tokenHash = codes.NewHandoffCode() // a 256-bit opaque token, like a hand-off code
		h, err := codes.HashOpaque(tokenHash)
		if err != nil {
			return uuid.Nil, err
		}
		create.SetTokenHash(h).SetCodeChallenge(challenge)
	}
	sctx := system.Allow(ctx, "otp.request")
	if err := create.Exec(sctx); err != nil {
		s.log.ErrorContext(ctx, "otp request: store", "error", err)
		return id, nil
	}
	if err := s.sink.SendCode(sctx, Delivery{UserID: u.ID, Email: u.Email, Purpose: PurposeEmailOTP,
		Code: code, TokenHash: tokenHash, ExpiresAt: exp}); err != nil {
		s.log.ErrorContext(ctx, "otp request: send", "user_id", u.ID, "error", err)
	}
	return id, nil
}

// ExchangeOTP spends a mobile sign-in request with its code, or its token
// hash and PKCE verifier, and opens a session. Wrong guesses count against
// the request; every refusal is ErrInvalidCode.
func (s *Service) ExchangeOTP(ctx context.Context, p OTPExchange) (*Session, error) {
	ctx = system.Allow(ctx, "otp.exchange")
	now := s.now()
	tx, err := s.client.Tx(ctx)
	if err != nil {
		return nil, err
	}
	defer func() { _ = tx.Rollback() }()
	r, err := tx.OTPRequest.Query().Where(otprequest.ID(p.RequestID)).ForUpdate().Only(ctx)
	if err != nil {
		return nil, notFoundAsInvalid(err)
	}
	if r.UsedAt != nil || !now.Before(r.ExpiresAt) || r.Attempts >= MaxCodeAttempts {
		return nil, ErrInvalidCode
	}
	if !s.otpMatches(r, p) {
		if err := tx.OTPRequest.UpdateOne(r).AddAttempts(1).Exec(ctx); err != nil {
			return nil, err
		}
		if err := tx.Commit(); err != nil {
			return nil, err
		}
		return nil, ErrInvalidCode
	}
	if err := tx.OTPRequest.UpdateOne(r).SetUsedAt(now).Exec(ctx); err != nil {
		return nil, err
	}
	u, err := tx.User.Get(ctx, r.UserID)
	if err != nil {
		return nil, err
	}
	sess, refresh, err := s.openSession(ctx, tx, u, []string{AMREmail})
	if err != nil {
		return nil, err
	}
	if err := tx.Commit(); err != nil {
		return nil, err
	}
	out, err := s.answer(sess, u, refresh)
	return s.flagMFA(ctx, out, err)
}

// otpMatches checks the code form or the token-hash form against r.
func (s *Service) otpMatches(r *ent.OTPRequest, p OTPExchange) bool {
	if p.TokenHash == "" {
		norm, err := codes.NormalizeNumericCode(p.Code)
		return err == nil && codes.Equal(s.codes.Sum(codes.PurposeEmailOTP, r.ID.String(), norm), r.CodeHash)
	}
	h, err := codes.HashOpaque(p.TokenHash)
	if err != nil || len(r.TokenHash) == 0 || !codes.Equal(h, r.TokenHash) {
		return false
	}
	return codes.VerifyPKCE(p.CodeVerifier, r.CodeChallenge) == nil
}
