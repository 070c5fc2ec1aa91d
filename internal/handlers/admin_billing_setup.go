package handlers

import (
	"context"
	"github.com/venueplatform/venue/internal/billing"
	"github.com/venueplatform/venue/internal/concurrency"
	api "github.com/venueplatform/venue/internal/gen/api"
)

// GetAdminMembershipSetup implements api.Handler.
func (h *Handler) GetAdminMembershipSetup(ctx context.Context, p api.GetAdminMembershipSetupParams) (*api.MembershipSetupResponse, error) {
	if err := billing.Authorize(ctx, billing.PermCleanupFailedSetup); err != nil {
		return nil, err
	}
	ps, sub, err := h.billing().MembershipSetup(ctx, p.ID)
	if err != nil {
		return nil, err
	}
	out := api.MembershipSetupResponseData{PassID: ps.ID, MemberID: ps.MemberID,
		PassStatus: api.MembershipSetupResponseDataPassStatus(ps.Status), UpdatedAt: concurrency.Format(ps.UpdatedAt),
		IsRecurring: ps.Edges.PassType != nil && ps.Edges.PassType.IsRecurring}
	out.Subscription.SetToNull()
	if sub != nil {
		row := api.MembershipSetupResponseDataSubscription{ID: sub.ID, ProcessorStatus: sub.ProcessorStatus}
		row.ProcessorSubscriptionID = nilStringPtr(sub.ProcessorSubscriptionID)
		out.Subscription.SetTo(row)
	}
	return &api.MembershipSetupResponse{Data: out}, nil
}

// RemoveAdminMembershipSetup implements api.Handler.
// The key's form (a UUID, else 400 IDEMPOTENCY_KEY_INVALID) is the
// idempotency policy's (internal/server/billing_late_fees.go).
func (h *Handler) RemoveAdminMembershipSetup(ctx context.Context, req *api.RemoveMembershipSetupRequest, p api.RemoveAdminMembershipSetupParams) (*api.RemoveMembershipSetupResponse, error) {
	if err := billing.Authorize(ctx, billing.PermCleanupFailedSetup); err != nil {
		return nil, err
	}
	tok, err := concurrency.Parse(req.ExpectedUpdatedAt)
	if err != nil {
		return nil, err
	}
	res, err := h.billing().RemoveDeadSetup(ctx, p.ID, tok.Time())
	if err != nil {
		return nil, err
	}
	out := api.RemoveMembershipSetupResponseData{PassID: res.PassID, MemberID: res.MemberID, Removed: true,
		ProcessorStatus: res.ProcessorStatus, CheckoutsDetached: res.CheckoutsDetached}
	out.SubscriptionID = nilUUIDOf(res.SubscriptionID)
	return &api.RemoveMembershipSetupResponse{Data: out}, nil
}
