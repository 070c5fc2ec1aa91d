package handlers

import (
	"context"

	api "github.com/venueplatform/venue/internal/gen/api"
)

// CancelMyMembership implements api.Handler.
func (h *Handler) CancelMyMembership(ctx context.Context, p api.CancelMyMembershipParams) (*api.MembershipCancelResponse, error) {
	mctx, _, _, err := h.asMember(ctx, p.XOrganizationID)
	if err != nil {
		return nil, err
	}
	c, err := h.billing().CancelAtPeriodEnd(mctx, p.ID)
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
