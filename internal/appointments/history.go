package appointments

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/google/uuid"

	"github.com/venueplatform/venue/ent"
	entappointment "github.com/venueplatform/venue/ent/appointment"
	"github.com/venueplatform/venue/ent/pass"
	"github.com/venueplatform/venue/internal/apperr"
	"github.com/venueplatform/venue/internal/concurrency"
	"github.com/venueplatform/venue/internal/events"
)

// PermManageHistory admits historical corrections of appointments (with
// bookings.manage).
const PermManageHistory = "appointments.manage_history"

// Historical correction operations of an appointment.
const (
	HistoryComplete = "COMPLETE"
	HistoryNoShow   = "NO_SHOW"
	HistoryCancel   = "CANCEL"
)

// historyFrom lists the statuses each historical operation applies to.
var historyFrom = map[string][]entappointment.Status{
	HistoryComplete: {entappointment.StatusBooked, entappointment.StatusCheckedIn, entappointment.StatusInProgress},
	HistoryNoShow:   {entappointment.StatusBooked, entappointment.StatusCheckedIn},
	HistoryCancel: {entappointment.StatusBooked, entappointment.StatusCheckedIn, entappointment.StatusInProgress,
		entappointment.StatusCompleted, entappointment.StatusNoShow},
}

// HistoryParams is a historical correction of one appointment.
type HistoryParams struct {
	Operation      string
	Expected       concurrency.Token
	ExpectedStatus string
	Reason         string
	EffectiveAt    time.Time
}

// AuthorizeHistory admits staff holding appointments.manage_history and
// bookings.manage (and the operator).
func AuthorizeHistory(ctx context.Context) error {
	if err := Authorize(ctx, PermManageHistory); err != nil {
		return err
	}
	return Authorize(ctx, PermBookingsManage)
}

// Correct applies a historical correction to appointment id: one that has
// ended, whose token and status the caller states. It is silent: no event,
// no message; the audit entry appointment.history.<operation> records it.
// The caller authorized it.
func Correct(ctx context.Context, client *ent.Client, id uuid.UUID, p HistoryParams, now time.Time) (*ent.Appointment, error) {
	if p.Expected.IsZero() {
		return nil, concurrency.Missing("expected_updated_at")
	}
	allowed, ok := historyFrom[p.Operation]
	if !ok {
		return nil, apperr.Validation("operation", "unknown operation")
	}
	reason := strings.TrimSpace(p.Reason)
	if len(reason) < 3 {
		return nil, apperr.Validation("history_reason", "history_reason must say why the record changes")
	}
	if p.EffectiveAt.IsZero() || p.EffectiveAt.After(now) {
		return nil, apperr.Validation("effective_at", "effective_at may not be in the future")
	}
	var out *ent.Appointment
	err := events.WithTx(ctx, client, func(ctx context.Context, tx *ent.Tx) error {
		c := tx.Client()
		ap, err := c.Appointment.Query().Where(entappointment.ID(id)).WithService().ForUpdate().Only(ctx)
		if ent.IsNotFound(err) {
			return ErrNotFound
		}
		if err != nil {
			return fmt.Errorf("appointments: history: %w", err)
		}
		if !p.Expected.Matches(ap.UpdatedAt) {
			return concurrency.Stale(ap.UpdatedAt)
		}
		if string(ap.Status) != p.ExpectedStatus {
			return concurrency.Stale(ap.UpdatedAt).With("current_status", string(ap.Status))
		}
		if ap.EndsAt.After(now) {
			return invalidTransition(string(ap.Status), strings.ToLower(p.Operation)).With("reason", "not_ended")
		}
		if p.EffectiveAt.Before(ap.StartsAt) {
			return apperr.Validation("effective_at", "effective_at may not be before the appointment's start")
		}
		okFrom := false
		for _, s := range allowed {
			okFrom = okFrom || ap.Status == s
		}
		if !okFrom {
			return invalidTransition(string(ap.Status), strings.ToLower(p.Operation))
		}
		upd := c.Appointment.UpdateOneID(ap.ID).Where(entappointment.UpdatedAt(ap.UpdatedAt), entappointment.StatusEQ(ap.Status))
		switch p.Operation {
		case HistoryComplete:
			upd.SetStatus(entappointment.StatusCompleted).SetCompletedAt(p.EffectiveAt)
		case HistoryNoShow:
			upd.SetStatus(entappointment.StatusNoShow)
		case HistoryCancel:
			upd.SetStatus(entappointment.StatusCancelled).SetCancelledAt(p.EffectiveAt).SetCancelReason(reason)
		}
		out, err = upd.Save(ctx)
		if ent.IsNotFound(err) {
			return concurrency.Stale(ap.UpdatedAt)
		}
		if err != nil {
			return fmt.Errorf("appointments: history: %w", err)
		}
		if p.Operation == HistoryCancel && ap.PassID != nil {
			if err := c.Pass.Update().Where(pass.ID(*ap.PassID), pass.ClipsRemainingNotNil()).AddClipsRemaining(1).Exec(ctx); err != nil {
				return fmt.Errorf("appointments: restore clip: %w", err)
			}
		}
		out.Edges.Service = ap.Edges.Service
		return auditEntry(ctx, c, "appointment.history."+strings.ToLower(p.Operation), out, map[string]any{
			"historical": true, "history_reason": reason, "operation": p.Operation,
			"effective_at":  p.EffectiveAt.UTC().Format(time.RFC3339),
			"status_before": string(ap.Status), "status_after": string(out.Status),
		})
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// CodeHistoryUnavailable is the contract's answer when the historical
// command could not be carried out.
const CodeHistoryUnavailable = "HISTORICAL_EXECUTOR_UNAVAILABLE"

// HistoryFailure is how the historical command answers err: the rule
// refusals as they are, and a failure of the correction itself (the
// database refused or lost it; its transaction is rolled back or, if the
// commit's answer was lost, may have landed) as 503
// HISTORICAL_EXECUTOR_UNAVAILABLE with next_step refresh. A 503 leaves the
// Idempotency-Key free, and a retry is safe: the correction is guarded by
// expected_updated_at and expected_status, so one that landed answers 409
// STALE_TARGET.
func HistoryFailure(err error) error {
	var ae *apperr.Error
	if err == nil || errors.As(err, &ae) {
		return err
	}
	return (&apperr.Error{Status: http.StatusServiceUnavailable, Code: CodeHistoryUnavailable,
		Message: "the correction could not be carried out; reload the appointment and retry"}).
		With("next_step", "refresh")
}
