package handlers

import (
	"context"

	"github.com/google/uuid"

	"github.com/venueplatform/venue/internal/billing"
	api "github.com/venueplatform/venue/internal/gen/api"
)

// CancelMyMembership implements api.Handler.
func (h *Handler) CancelMyMembership(ctx context.Context, p api.CancelMyMembershipParams) (*api.MembershipCancelResponse, error) {
	mctx, _, _, err := h.asMember(ctx, p.XOrganizationID)
	if err != nil {
		return nil, err
	}
	return h.cancelMembership(mctx, p.ID)
}

// CancelAdminMembership implements api.Handler.
func (h *Handler) CancelAdminMembership(ctx context.Context, p api.CancelAdminMembershipParams) (*api.MembershipCancelResponse, error) {
	if err := billing.Authorize(ctx, billing.PermPassesManage); err != nil {
		return nil, err
	}
	return h.cancelMembership(ctx, p.ID)
}

func (h *Handler) cancelMembership(ctx context.Context, id uuid.UUID) (*api.MembershipCancelResponse, error) {
	c, err := h.billing().CancelAtPeriodEnd(ctx, id)
	if err != nil {
		return nil, err
	}
	out := api.MembershipCancel{PassID: c.PassID, EndsOn: c.EndsOn}
	if c.BindingEndsOn != nil {
		out.BindingEndsOn = api.NewNilDate(*c.BindingEndsOn)
	} else {
		out.BindingEndsOn.SetToNull()
	}
	return &api.MembershipCancelResponse{Data: out}, nil
}
