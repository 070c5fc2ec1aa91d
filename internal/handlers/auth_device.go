package handlers

import (
	"context"

	api "github.com/venueplatform/venue/internal/gen/api"
)

// AuthDeviceCode implements api.Handler.
func (h *Handler) AuthDeviceCode(ctx context.Context) (*api.DeviceCodeResponse, error) {
	d, err := h.acct.StartDevice(ctx)
	if err != nil {
		return nil, err
	}
	return &api.DeviceCodeResponse{Data: api.DeviceCode{
		DeviceCode: d.DeviceCode, UserCode: d.UserCode, VerificationURI: d.VerificationURI,
		ExpiresIn: d.ExpiresIn, Interval: d.Interval,
	}}, nil
}

// AuthDeviceApprove implements api.Handler.
func (h *Handler) AuthDeviceApprove(ctx context.Context, req *api.DeviceApproveRequest) (*api.DeviceApproveResponse, error) {
	deny := req.Deny.Or(false)
	if err := h.acct.DecideDevice(ctx, req.UserCode, deny); err != nil {
		return nil, err
	}
	return &api.DeviceApproveResponse{Data: api.DeviceApprove{Approved: !deny}}, nil
}

// AuthDeviceToken implements api.Handler.
func (h *Handler) AuthDeviceToken(ctx context.Context, req *api.DeviceTokenRequest) (*api.SessionResponse, error) {
	s, err := h.acct.DeviceToken(ctx, req.DeviceCode)
	if err != nil {
		return nil, err
	}
	return sessionResponse(s), nil
}
