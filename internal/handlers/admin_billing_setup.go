package handlers

import (
	"context"
	"net/http"

	"github.com/google/uuid"

	"github.com/venueplatform/venue/internal/apperr"
	"github.com/venueplatform/venue/internal/billing"
	"github.com/venueplatform/venue/internal/concurrency"
	api "github.com/venueplatform/venue/internal/gen/api"
)

// codeIdempotencyKeyInvalid is the contract's 400 of a key that must be a
// UUID and is not (dead setup removal).
const codeIdempotencyKeyInvalid = "IDEMPOTENCY_KEY_INVALID"

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
func (h *Handler) RemoveAdminMembershipSetup(ctx context.Context, req *api.RemoveMembershipSetupRequest, p api.RemoveAdminMembershipSetupParams) (*api.RemoveMembershipSetupResponse, error) {
	if _, err := uuid.Parse(p.IdempotencyKey); err != nil || len(p.IdempotencyKey) != 36 {
		return nil, (&apperr.Error{Status: http.StatusBadRequest, Code: codeIdempotencyKeyInvalid,
			Message: "Idempotency-Key must be a UUID"}).With("parameter", "Idempotency-Key")
	}
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
