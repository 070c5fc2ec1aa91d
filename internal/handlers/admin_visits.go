package handlers

import (
	"context"

	entappointment "github.com/venueplatform/venue/ent/appointment"
	"github.com/venueplatform/venue/internal/appointments"
	"github.com/venueplatform/venue/internal/concurrency"
	api "github.com/venueplatform/venue/internal/gen/api"
)

// staffVisitActor is staff acting on a member's visit: no self-service
// cutoff, no cancellation fee.
var staffVisitActor = appointments.Actor{Via: entappointment.BookedViaStaff}

// CancelAdminVisit implements cancelAdminVisit.
func (h *Handler) CancelAdminVisit(ctx context.Context, p api.CancelAdminVisitParams) (*api.VisitResponse, error) {
	if err := appointments.Authorize(ctx, appointments.PermBookingsManage); err != nil {
		return nil, err
	}
	tok, err := concurrency.ParseParam("expected_updated_at", p.ExpectedUpdatedAt.Or(""))
	if err != nil {
		return nil, err
	}
	_, _, rf, err := appointments.CancelVisitWith(ctx, h.client, staffVisitActor, p.VisitId, tok, h.now(),
		appointments.CancelOptions{Refund: p.RefundPayment.Or(false), Pay: h.payments()})
	if err != nil {
		return nil, err
	}
	visit, aps, err := appointments.GetVisit(ctx, h.client, p.VisitId)
	if err != nil {
		return nil, err
	}
	out := visitOut(visit, aps)
	out.Refund = cancelRefundOut(rf)
	return &api.VisitResponse{Data: out}, nil
}

// RescheduleAdminVisit implements rescheduleAdminVisit.
func (h *Handler) RescheduleAdminVisit(ctx context.Context, req *api.VisitRescheduleRequest, p api.RescheduleAdminVisitParams) (*api.VisitResponse, error) {
	if err := appointments.Authorize(ctx, appointments.PermBookingsManage); err != nil {
		return nil, err
	}
	tok, err := concurrency.ParseParam("expected_updated_at", req.ExpectedUpdatedAt)
	if err != nil {
		return nil, err
	}
	pv, set := req.ProviderID.Get()
	provider, err := providerParam("provider_id", pv)
	if err != nil {
		return nil, err
	}
	visit, aps, err := appointments.RescheduleVisit(ctx, h.client, staffVisitActor, p.VisitId, tok, req.StartTime, provider,
		set && provider == nil, h.now())
	if err != nil {
		return nil, err
	}
	return &api.VisitResponse{Data: visitOut(visit, aps)}, nil
}
