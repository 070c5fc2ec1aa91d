package handlers

import (
	"context"

	"github.com/venueplatform/venue/internal/accounts"
	"github.com/venueplatform/venue/internal/apperr"
	api "github.com/venueplatform/venue/internal/gen/api"
)

// AuthMfaTotpEnroll implements api.Handler.
func (h *Handler) AuthMfaTotpEnroll(ctx context.Context) (*api.TotpEnrollmentResponse, error) {
	e, err := h.acct.EnrollTOTP(ctx)
	if err != nil {
		return nil, err
	}
	return &api.TotpEnrollmentResponse{Data: api.TotpEnrollment{
		FactorID: e.FactorID, Secret: e.Secret, OtpauthURL: e.OTPAuthURL,
	}}, nil
}

// AuthMfaTotpConfirm implements api.Handler.
func (h *Handler) AuthMfaTotpConfirm(ctx context.Context, req *api.MfaConfirmRequest) (*api.SessionResponse, error) {
	s, err := h.acct.ConfirmTOTP(ctx, req.FactorID, req.Code)
	if err != nil {
		return nil, err
	}
	return sessionResponse(s), nil
}

// AuthMfaChallenge implements api.Handler.
func (h *Handler) AuthMfaChallenge(ctx context.Context) (*api.MfaChallengeResponse, error) {
	c, err := h.acct.Challenge(ctx)
	if err != nil {
		return nil, err
	}
	return &api.MfaChallengeResponse{Data: api.MfaChallenge{ID: c.ID, ExpiresAt: c.ExpiresAt}}, nil
}

// AuthMfaVerify implements api.Handler: it tells the three body forms apart.
func (h *Handler) AuthMfaVerify(ctx context.Context, req *api.MfaVerifyRequest) (*api.SessionResponse, error) {
	p := accounts.VerifyParams{Code: req.Code}
	typ, hasType := req.Type.Get()
	switch {
	case req.ChallengeID.Set && !hasType && !req.FactorID.Set:
		p.ChallengeID = req.ChallengeID.Value
	case hasType && typ == api.MfaVerifyRequestTypeTotp && req.FactorID.Set && !req.ChallengeID.Set:
		p.FactorID = req.FactorID.Value
	case hasType && typ == api.MfaVerifyRequestTypeBackupCode && !req.FactorID.Set && !req.ChallengeID.Set:
		p.Backup = true
	default:
		return nil, apperr.Validation("body", "send {type: totp, factor_id, code}, {type: backup_code, code} or {challenge_id, code}")
	}
	s, err := h.acct.VerifyMFA(ctx, p)
	if err != nil {
		return nil, err
	}
	return sessionResponse(s), nil
}

// AuthMfaBackupCodes implements api.Handler.
func (h *Handler) AuthMfaBackupCodes(ctx context.Context) (*api.BackupCodesResponse, error) {
	set, err := h.acct.BackupCodes(ctx)
	if err != nil {
		return nil, err
	}
	return &api.BackupCodesResponse{Data: api.BackupCodes{
		BackupCodes: set, Warning: accounts.BackupCodesWarning, Count: len(set),
	}}, nil
}

// AuthMfaReset implements api.Handler.
func (h *Handler) AuthMfaReset(ctx context.Context, req *api.MfaResetRequest) (*api.OkResponse, error) {
	if err := h.acct.ResetMFA(ctx, req.UserID); err != nil {
		return nil, err
	}
	return &api.OkResponse{Data: api.Ok{Ok: true}}, nil
}
