package handlers

import (
	"context"

	"github.com/venueplatform/venue/internal/accounts"
	"github.com/venueplatform/venue/internal/apperr"
	api "github.com/venueplatform/venue/internal/gen/api"
)

// AuthHandoffMint implements api.Handler.
func (h *Handler) AuthHandoffMint(ctx context.Context, req *api.HandoffMintRequest) (*api.HandoffCodeResponse, error) {
	ho, err := h.acct.MintHandoff(ctx, req.Destination)
	if err != nil {
		return nil, err
	}
	return &api.HandoffCodeResponse{Data: api.HandoffCode{
		Code: ho.Code, ExpiresAt: ho.ExpiresAt, Destination: ho.Destination,
	}}, nil
}

// AuthHandoffExchange implements api.Handler.
func (h *Handler) AuthHandoffExchange(ctx context.Context, req *api.HandoffExchangeRequest) (*api.SessionResponse, error) {
	s, err := h.acct.ExchangeHandoff(ctx, req.Code, req.Destination)
	if err != nil {
		return nil, err
	}
	return sessionResponse(s), nil
}

// AuthOtpRequest implements api.Handler.
func (h *Handler) AuthOtpRequest(ctx context.Context, req *api.OtpRequest) (*api.OtpRequestResponse, error) {
	id, err := h.acct.RequestOTP(ctx, req.Email, req.CodeChallenge.Or(""), req.CodeChallengeMethod.Or(""))
	if err != nil {
		return nil, err
	}
	return &api.OtpRequestResponse{Data: api.OtpRequestAccepted{RequestID: id}}, nil
}

// AuthOtpExchange implements api.Handler: it tells the two forms apart.
func (h *Handler) AuthOtpExchange(ctx context.Context, req *api.OtpExchangeRequest) (*api.SessionResponse, error) {
	p := accounts.OTPExchange{RequestID: req.RequestID}
	switch {
	case req.Code.Set && !req.TokenHash.Set && !req.CodeVerifier.Set:
		p.Code = req.Code.Value
	case !req.Code.Set && req.TokenHash.Set && req.CodeVerifier.Set && req.TokenHash.Value != "":
		p.TokenHash, p.CodeVerifier = req.TokenHash.Value, req.CodeVerifier.Value
	default:
		return nil, apperr.Validation("body", "send {request_id, code} or {request_id, token_hash, code_verifier}")
	}
	s, err := h.acct.ExchangeOTP(ctx, p)
	if err != nil {
		return nil, err
	}
	return sessionResponse(s), nil
}
