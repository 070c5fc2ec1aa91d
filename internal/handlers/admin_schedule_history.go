package handlers

import (
	"context"

	"github.com/google/uuid"

	"github.com/venueplatform/venue/internal/concurrency"
	api "github.com/venueplatform/venue/internal/gen/api"
	"github.com/venueplatform/venue/internal/schedule"
)

// CorrectAdminScheduleHistory implements correctAdminScheduleHistory. The
// body's notify, if any, is ignored: historical corrections are silent.
func (h *Handler) CorrectAdminScheduleHistory(ctx context.Context, req *api.AdminScheduleHistoryRequest, p api.CorrectAdminScheduleHistoryParams) (*api.AdminScheduleHistoryResponse, error) {
	if err := schedule.Authorize(ctx, schedule.AccessHistory); err != nil {
		return nil, err
	}
	tok, err := concurrency.Parse(req.ExpectedUpdatedAt)
	if err != nil {
		return nil, err
	}
	hp := schedule.HistoryParams{
		Operation: string(req.Operation), Expected: tok, ExpectedStatus: string(req.ExpectedStatus),
		Reason: req.HistoryReason, Token: req.HistoryConfirmationToken.Value, EffectiveAt: req.EffectiveAt,
		Intent:      string(req.Intent.Or(api.AdminScheduleHistoryRequestIntentApply)),
		TokenSecret: h.tokenSecret(),
	}
	if rw, ok := req.Rewrite.Get(); ok {
		if rw.StartTime.Set {
			hp.Rewrite.StartTime = &rw.StartTime.Value
		}
		if rw.EndTime.Set {
			hp.Rewrite.EndTime = &rw.EndTime.Value
		}
		if rw.InstructorID.Set {
			hp.Rewrite.InstructorID = &rw.InstructorID.Value
		}
		if rw.RoomID.Set {
			hp.Rewrite.RoomID = &rw.RoomID.Value
		}
	}
	res, err := schedule.Correct(ctx, h.client, p.ID, hp, h.now())
	if err != nil {
		return nil, err
	}
	out := api.AdminScheduleHistory{Operation: hp.Operation, Applied: res.Applied, Class: adminRow(res.Row),
		Notifications: api.AdminScheduleNotifyResult{}}
	if res.Token != "" {
		out.HistoryConfirmationToken.SetTo(res.Token)
		out.TokenExpiresAt.SetTo(res.TokenExpiresAt.UTC())
	} else {
		out.HistoryConfirmationToken.SetToNull()
		out.TokenExpiresAt.SetToNull()
	}
	if hp.Operation == schedule.OpCancel {
		out.CancelledBookings.SetTo(res.CancelledBookings)
	}
	if hp.Operation == schedule.OpRestore {
		r := res.Restore
		out.ReinstatedBookingIds = append([]uuid.UUID{}, r.Reinstated...)
		out.UnchargedBookingIds = append([]uuid.UUID{}, r.Uncharged...)
		out.LeftCancelled = make([]api.AdminScheduleHistoryLeftCancelled, len(r.LeftCancelled))
		for i, l := range r.LeftCancelled {
			out.LeftCancelled[i] = api.AdminScheduleHistoryLeftCancelled{BookingID: l.BookingID,
				Reason: api.AdminScheduleHistoryLeftCancelledReason(l.Reason)}
		}
	}
	return &api.AdminScheduleHistoryResponse{Data: out}, nil
}
