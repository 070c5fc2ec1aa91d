package handlers

import (
	"context"

	"github.com/venueplatform/venue/internal/appointments"
	"github.com/venueplatform/venue/internal/concurrency"
	api "github.com/venueplatform/venue/internal/gen/api"
)

// CorrectAdminAppointmentHistory implements correctAdminAppointmentHistory:
// a silent correction of an appointment that has ended.
func (h *Handler) CorrectAdminAppointmentHistory(ctx context.Context, req *api.AdminAppointmentHistoryRequest, p api.CorrectAdminAppointmentHistoryParams) (*api.AppointmentResponse, error) {
	if err := appointments.AuthorizeHistory(ctx); err != nil {
		return nil, err
	}
	tok, err := concurrency.ParseParam("expected_updated_at", req.ExpectedUpdatedAt)
	if err != nil {
		return nil, err
	}
	ap, err := appointments.Correct(ctx, h.client, p.ID, appointments.HistoryParams{
		Operation: string(req.Operation), Expected: tok, ExpectedStatus: string(req.ExpectedStatus),
		Reason: req.HistoryReason, EffectiveAt: req.EffectiveAt,
	}, h.now())
	if err != nil {
		if ferr := appointments.HistoryFailure(err); ferr != err {
			h.log.ErrorContext(ctx, "appointment history correction failed", "appointment_id", p.ID, "error", err)
			return nil, ferr
		}
		return nil, err
	}
	return &api.AppointmentResponse{Data: appointmentOut(ap)}, nil
}
