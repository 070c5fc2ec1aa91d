package handlers

import (
	"context"

	"github.com/venueplatform/venue/ent"
	"github.com/venueplatform/venue/internal/accounts"
	api "github.com/venueplatform/venue/internal/gen/api"
	"github.com/venueplatform/venue/internal/limits"
	"github.com/venueplatform/venue/internal/members"
)

// WithAccounts sets the account and session service (NewServer makes a
// default one, with per-process keys, when none is set).
func (h *Handler) WithAccounts(a *accounts.Service) *Handler {
	h.acct = a
	return h
}

// AuthSignup implements api.Handler.
func (h *Handler) AuthSignup(ctx context.Context, req *api.SignupRequest) (*api.SessionResponse, error) {
	s, err := h.acct.Signup(ctx, accounts.SignupParams{
		Email: req.Email, Password: req.Password,
		FirstName: req.FirstName.Or(""), LastName: req.LastName.Or(""),
		Country: req.Country.Or(""), City: req.City.Or(""),
	})
	if err != nil {
		return nil, err
	}
	return sessionResponse(s), nil
}

// AuthLogin implements api.Handler. The email's own window is charged
// before any password work.
func (h *Handler) AuthLogin(ctx context.Context, req *api.LoginRequest) (*api.SessionResponse, error) {
	if err := limits.ChargeAccount(ctx, normalizedOrRaw(req.Email)); err != nil {
		return nil, err
	}
	s, err := h.acct.Login(ctx, req.Email, req.Password)
	if err != nil {
		return nil, err
	}
	return sessionResponse(s), nil
}

// AuthRefresh implements api.Handler.
func (h *Handler) AuthRefresh(ctx context.Context, req *api.RefreshRequest) (*api.SessionResponse, error) {
	s, err := h.acct.Refresh(ctx, req.RefreshToken)
	if err != nil {
		return nil, err
	}
	return sessionResponse(s), nil
}

// AuthLogout implements api.Handler.
func (h *Handler) AuthLogout(ctx context.Context) (*api.OkResponse, error) {
	if err := h.acct.Logout(ctx); err != nil {
		return nil, err
	}
	return &api.OkResponse{Data: api.Ok{Ok: true}}, nil
}

// AuthPasswordForgot implements api.Handler.
func (h *Handler) AuthPasswordForgot(ctx context.Context, req *api.EmailRequest) (*api.AcceptedResponse, error) {
	if err := h.acct.Forgot(ctx, req.Email); err != nil {
		return nil, err
	}
	return &api.AcceptedResponse{Data: api.Accepted{Accepted: true}}, nil
}

// AuthPasswordReset implements api.Handler.
func (h *Handler) AuthPasswordReset(ctx context.Context, req *api.PasswordResetRequest) (*api.OkResponse, error) {
	if err := limits.ChargeAccount(ctx, normalizedOrRaw(req.Email)); err != nil {
		return nil, err
	}
	if err := h.acct.Reset(ctx, req.Email, req.Code, req.NewPassword); err != nil {
		return nil, err
	}
	return &api.OkResponse{Data: api.Ok{Ok: true}}, nil
}

// AuthPasswordChangeCode implements api.Handler.
func (h *Handler) AuthPasswordChangeCode(ctx context.Context) (*api.AcceptedResponse, error) {
	if err := h.acct.RequestChangeCode(ctx); err != nil {
		return nil, err
	}
	return &api.AcceptedResponse{Data: api.Accepted{Accepted: true}}, nil
}

// AuthPasswordChange implements api.Handler.
func (h *Handler) AuthPasswordChange(ctx context.Context, req *api.PasswordChangeRequest) (*api.OkResponse, error) {
	if err := h.acct.ChangePassword(ctx, req.Code, req.NewPassword); err != nil {
		return nil, err
	}
	return &api.OkResponse{Data: api.Ok{Ok: true}}, nil
}

// AuthAccountState implements api.Handler.
func (h *Handler) AuthAccountState(ctx context.Context, req *api.EmailRequest) (*api.AccountStateResponse, error) {
	st, err := h.acct.AccountState(ctx, req.Email)
	if err != nil {
		return nil, err
	}
	return &api.AccountStateResponse{Data: api.AccountState{State: api.AccountStateState(st)}}, nil
}

func sessionResponse(s *accounts.Session) *api.SessionResponse {
	return &api.SessionResponse{Data: api.Session{
		AccessToken:  s.AccessToken,
		TokenType:    "Bearer",
		ExpiresIn:    s.ExpiresIn,
		RefreshToken: s.RefreshToken,
		SessionID:    s.SessionID,
		User:         sessionUser(s.User),
		MfaRequired:  s.MFARequired,
	}}
}

func sessionUser(u *ent.User) api.SessionUser {
	su := api.SessionUser{
		ID: u.ID, Email: u.Email, FirstName: u.FirstName, LastName: u.LastName,
		AccountState: string(u.AccountState),
	}
	if u.Country != "" {
		su.Country = api.NewOptString(u.Country)
	}
	if u.City != "" {
		su.City = api.NewOptString(u.City)
	}
	return su
}

// normalizedOrRaw is the rate-limit identity of a typed email: its
// normalised form, or the raw text when it is malformed.
func normalizedOrRaw(email string) string {
	if e, err := members.NormalizeEmail(email); err == nil {
		return e
	}
	return email
}
