package handlers

import (
	"context"

	"github.com/google/uuid"

	api "github.com/venueplatform/venue/internal/gen/api"
	"github.com/venueplatform/venue/internal/notify"
)

// RegisterMyPushToken implements registerMyPushToken.
func (h *Handler) RegisterMyPushToken(ctx context.Context, req *api.MePushTokenRequest, p api.RegisterMyPushTokenParams) (*api.MePushTokenResponse, error) {
	res, err := notify.RegisterDevice(ctx, h.client, notify.DeviceParams{Token: req.Token, Platform: string(req.Platform),
		DeviceID: req.DeviceID, Variant: string(req.AppVariant), Org: p.XOrganizationID.Or(uuid.Nil)})
	if err != nil {
		return nil, err
	}
	return &api.MePushTokenResponse{Data: api.MePushToken{DeviceID: req.DeviceID, Platform: string(req.Platform),
		AppVariant: string(req.AppVariant), Venues: len(res.Orgs), OrganizationIds: res.Orgs}}, nil
}

// RemoveMyPushToken implements removeMyPushToken.
func (h *Handler) RemoveMyPushToken(ctx context.Context, req *api.MePushTokenRemoveRequest, p api.RemoveMyPushTokenParams) (*api.MePushTokenRemoveResponse, error) {
	n, err := notify.RemoveDevices(ctx, h.client, p.XOrganizationID.Or(uuid.Nil), req.Token.Or(""), req.DeviceID.Or(""))
	if err != nil {
		return nil, err
	}
	return &api.MePushTokenRemoveResponse{Data: api.MePushTokenRemoveResponseData{Removed: n}}, nil
}
