package appointments

import (
	"context"
	"fmt"
	"time"

	"entgo.io/ent/dialect/sql"
	"github.com/google/uuid"

	"github.com/venueplatform/venue/ent"
	entappointment "github.com/venueplatform/venue/ent/appointment"
	"github.com/venueplatform/venue/ent/member"
	"github.com/venueplatform/venue/internal/apperr"
	"github.com/venueplatform/venue/internal/concurrency"
	"github.com/venueplatform/venue/internal/events"
	"github.com/venueplatform/venue/internal/payments"
	"github.com/venueplatform/venue/internal/payments/refunds"
)

// Book limits of the staff appointment book.
const (
	DefaultBookLimit = 100
	MaxBookLimit     = 200
)

// BookFilter narrows the staff appointment book.
type BookFilter struct {
	// From and To bound the starts, [From, To); zero is open.
	From, To   time.Time
	Past       bool // newest first
	Status     *entappointment.Status
	ProviderID *uuid.UUID
	LocationID *uuid.UUID
	// Limit rows are returned; one more is read to learn has_more.
	Limit int
}

// StaffBook lists the viewer's venue's appointments (with service and member).
func StaffBook(ctx context.Context, c *ent.Client, f BookFilter) ([]*ent.Appointment, bool, error) {
	q := c.Appointment.Query()
	if !f.From.IsZero() {
		q.Where(entappointment.StartsAtGTE(f.From))
	}
	if !f.To.IsZero() {
		q.Where(entappointment.StartsAtLT(f.To))
	}
	if f.Status != nil {
		q.Where(entappointment.StatusEQ(*f.Status))
	}
	if f.ProviderID != nil {
		q.Where(entappointment.ProviderID(*f.ProviderID))
	}
	if f.LocationID != nil {
		q.Where(entappointment.LocationID(*f.LocationID))
	}
	if f.Past {
		q.Order(entappointment.ByStartsAt(sql.OrderDesc()), entappointment.ByID(sql.OrderDesc()))
	} else {
		q.Order(entappointment.ByStartsAt(), entappointment.ByID())
	}
	rows, err := q.Limit(f.Limit + 1).WithService().All(ctx)
	if err != nil {
		return nil, false, fmt.Errorf("appointments: book: %w", err)
	}
	more := len(rows) > f.Limit
	if more {
		rows = rows[:f.Limit]
	}
	return rows, more, nil
}

// MemberOf reads member id of the viewer's venue for a staff booking (an
// unknown, foreign or inactive member is 404 CLIENT_NOT_FOUND).
func MemberOf(ctx context.Context, c *ent.Client, id uuid.UUID) (*ent.Member, error) {
	m, err := c.Member.Query().Where(member.ID(id)).Only(ctx)
	if ent.IsNotFound(err) || (err == nil && m.Status != member.StatusActive) {
		return nil, &apperr.Error{Status: 404, Code: "CLIENT_NOT_FOUND", Message: "client not found"}
	}
	if err != nil {
		return nil, fmt.Errorf("appointments: member: %w", err)
	}
	return m, nil
}

// Actions staff take on an appointment.
const (
	ActionCheckIn    = "check_in"
	ActionStart      = "start"
	ActionComplete   = "complete"
	ActionNoShow     = "no_show"
	ActionCancel     = "cancel"
	ActionReschedule = "reschedule"
)

// from lists the statuses each action applies to.
var from = map[string][]entappointment.Status{
	ActionCheckIn:    {entappointment.StatusBooked},
	ActionStart:      {entappointment.StatusBooked, entappointment.StatusCheckedIn},
	ActionComplete:   {entappointment.StatusBooked, entappointment.StatusCheckedIn, entappointment.StatusInProgress},
	ActionNoShow:     {entappointment.StatusBooked},
	ActionCancel:     {entappointment.StatusBooked, entappointment.StatusCheckedIn},
	ActionReschedule: {entappointment.StatusBooked},
}

// ActRequest is one staff action on an appointment.
type ActRequest struct {
	Action   string
	Expected concurrency.Token
	Reason   string
	// Reschedule: the new start and, optionally, another provider.
	Start      time.Time
	ProviderID *uuid.UUID
	// Cancel: RefundPayment gives the whole online payment back through Pay
	// (the staff member's refund permission applies).
	RefundPayment bool
	Pay           *payments.Service
}

// Act applies a staff action to appointment id, guarded by the expected
// updated_at (409 STALE_TARGET when it moved on). An action that does not
// apply to the appointment's status (every action on a completed, no-show,
// cancelled or rescheduled one) is 422 INVALID_TRANSITION; a no-show before
// the start is 422 INVALID_TRANSITION too. Reschedule books the new time as a
// new appointment (same member, service and variant; checked against
// availability like any booking, the old time counting as free), marks the
// old one rescheduled with rescheduled_to_id, and records
// appointment.rescheduled. It returns the appointment the action leaves
// current (the new one for a reschedule).
func Act(ctx context.Context, client *ent.Client, id uuid.UUID, r ActRequest, now time.Time) (*ent.Appointment, error) {
	ap, _, err := ActWith(ctx, client, id, r, now)
	return ap, err
}

// ActWith is Act, with the refund a cancel with RefundPayment made: the
// whole of what the appointment's online payment has left, to the card,
// exactly once (cancel_refund.go). Such a cancel of an appointment not paid
// online is 422 VALIDATION_FAILED (reason not_paid_online), and of one
// whose payment cannot go back to its card 422 CARD_PAYMENTS_UNAVAILABLE
// (reason card_refund_unavailable); a staff member without the refund
// permission is 403; each changes nothing.
func ActWith(ctx context.Context, client *ent.Client, id uuid.UUID, r ActRequest, now time.Time) (*ent.Appointment, *CancelRefund, error) {
	if r.Expected.IsZero() {
		return nil, nil, concurrency.Missing("expected_updated_at")
	}
	allowed, ok := from[r.Action]
	if !ok {
		return nil, nil, apperr.Validation("action", "unknown action")
	}
	if r.RefundPayment && r.Action != ActionCancel {
		return nil, nil, apperr.Validation("refund_payment", "refund_payment goes with the cancel action")
	}
	v, err := LoadVenue(ctx, client)
	if err != nil {
		return nil, nil, err
	}
	var (
		out  *ent.Appointment
		q    *RefundQuote
		args *CancelRefundArgs
	)
	err = events.WithTx(ctx, client, func(ctx context.Context, tx *ent.Tx) error {
		c := tx.Client()
		ap, err := Get(ctx, c, id)
		if err != nil {
			return err
		}
		if !r.Expected.Matches(ap.UpdatedAt) {
			return concurrency.Stale(ap.UpdatedAt)
		}
		okFrom := false
		for _, s := range allowed {
			okFrom = okFrom || ap.Status == s
		}
		if !okFrom {
			return invalidTransition(string(ap.Status), r.Action)
		}
		guard := c.Appointment.UpdateOneID(ap.ID).Where(entappointment.UpdatedAt(r.Expected.Time()), entappointment.StatusEQ(ap.Status))
		switch r.Action {
		case ActionCheckIn:
			guard.SetStatus(entappointment.StatusCheckedIn).SetCheckedInAt(now)
		case ActionStart:
			guard.SetStatus(entappointment.StatusInProgress).SetStartedAt(now)
		case ActionComplete:
			guard.SetStatus(entappointment.StatusCompleted).SetCompletedAt(now)
		case ActionNoShow:
			if now.Before(ap.StartsAt) {
				return invalidTransition(string(ap.Status), r.Action).With("reason", "not_started")
			}
			guard.SetStatus(entappointment.StatusNoShow)
		case ActionCancel:
			if r.RefundPayment {
				if q, err = staffRefundQuote(ctx, c, r.Pay, v, ap, now); err != nil {
					return err
				}
			}
			if out, err = setCancelled(ctx, c, ap, r.Expected, 0, orText(r.Reason, "staff"), now, refundDetails(q)); err != nil {
				return err
			}
			args, err = decideRefund(ctx, ap.OrganizationID, q, ap.ID, StaffCancelRefundReason, now)
			return err
		case ActionReschedule:
			out, err = reschedule(ctx, c, v, ap, r, now)
			return err
		}
		out, err = guard.Save(ctx)
		if ent.IsNotFound(err) {
			return concurrency.Stale(ap.UpdatedAt)
		}
		if err != nil {
			return err
		}
		out.Edges.Service = ap.Edges.Service
		if r.Action == ActionNoShow {
			if _, err := events.Record(ctx, c, events.AppointmentNoShow, map[string]any{
				"appointment_id": out.ID.String(), "status": string(out.Status), "member_id": out.MemberID.String(),
			}); err != nil {
				return err
			}
		}
		return auditEntry(ctx, c, "appointment."+r.Action, out, nil)
	})
	if err != nil {
		if IsOverlap(err) {
			return nil, nil, slotUnavailable(ReasonSlotTaken)
		}
		return nil, nil, err
	}
	return out, refundNow(ctx, r.Pay, args, q), nil
}

// staffRefundQuote is the refund of ap's whole online payment that staff
// asked for with a cancel, refused (nothing changed) when ap was not paid
// online, when the payment cannot go back to its card, or when the staff
// member may not refund it.
func staffRefundQuote(ctx context.Context, c *ent.Client, pay *payments.Service, v *Venue, ap *ent.Appointment, now time.Time) (*RefundQuote, error) {
	q, err := AppointmentRefundQuote(ctx, c, pay, v, ap, false, now)
	if err != nil {
		return nil, err
	}
	if q == nil && ap.VisitID != nil && paidOnline(ap.PaidAt, ap.PaidMinor) {
		return nil, unprocessable("VALIDATION_FAILED", "the visit was paid as a whole; cancel the whole visit with its refund").
			With("reason", "visit_payment").With("visit_id", ap.VisitID.String())
	}
	return staffRefundChecks(ctx, c, pay, q)
}

// staffRefundChecks refuses a staff refund that cannot be made, before
// anything changes.
func staffRefundChecks(ctx context.Context, c *ent.Client, pay *payments.Service, q *RefundQuote) (*RefundQuote, error) {
	if q == nil {
		return nil, unprocessable("VALIDATION_FAILED", "nothing was paid online; cancel without refund_payment").
			With("reason", "not_paid_online")
	}
	if q.Unavailable != "" {
		return nil, unprocessable("CARD_PAYMENTS_UNAVAILABLE", "the payment cannot go back to its card; cancel without refund_payment and refund it outside").
			With("reason", RefundCardUnavailable)
	}
	if q.AmountMinor > 0 {
		if err := refunds.New(c, pay.Port(), pay.Logger()).MayRefund(ctx, q.PaymentID); err != nil {
			return nil, err
		}
	}
	return q, nil
}

func orText(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

// reschedule moves ap to r.Start in the transaction of c.
func reschedule(ctx context.Context, c *ent.Client, v *Venue, ap *ent.Appointment, r ActRequest, now time.Time) (*ent.Appointment, error) {
	if r.Start.IsZero() {
		return nil, apperr.Validation("start_time", "reschedule needs start_time")
	}
	n, err := c.Appointment.Update().Where(entappointment.ID(ap.ID), entappointment.UpdatedAt(r.Expected.Time()),
		entappointment.StatusEQ(ap.Status)).SetStatus(entappointment.StatusRescheduled).Save(ctx)
	if err != nil {
		return nil, err
	}
	if n == 0 {
		return nil, concurrency.Stale(ap.UpdatedAt)
	}
	m, err := c.Member.Get(ctx, ap.MemberID)
	if err != nil {
		return nil, err
	}
	provider := r.ProviderID
	if provider == nil {
		provider = &ap.ProviderID
	}
	req := Request{ServiceID: ap.ServiceID, VariantID: ap.VariantID, ProviderID: provider, LocationID: ap.LocationID,
		RoomID: ap.RoomID, Start: r.Start, Notes: ap.Notes}
	if ap.Payment == entappointment.PaymentOnline {
		req.carry = ap // what was paid online moves with it
	}
	if ap.PassID != nil {
		// The pass keeps paying: the clip moves with the appointment.
		if err := c.Pass.UpdateOneID(*ap.PassID).AddClipsRemaining(1).Exec(ctx); err != nil && !ent.IsNotFound(err) {
			return nil, err
		}
		req.PassID = ap.PassID
	}
	next, err := book(ctx, c, v, Actor{Member: m, Via: entappointment.BookedViaStaff}, req, now, ap.VisitID, false)
	if err != nil {
		return nil, err
	}
	if err := c.Appointment.UpdateOneID(ap.ID).SetRescheduledToID(next.ID).Exec(ctx); err != nil {
		return nil, err
	}
	if _, err := events.Record(ctx, c, events.AppointmentRescheduled, map[string]any{
		"appointment_id": ap.ID.String(), "rescheduled_to_id": next.ID.String(), "member_id": ap.MemberID.String(),
		"starts_at": next.StartsAt.UTC().Format(time.RFC3339),
	}); err != nil {
		return nil, err
	}
	if err := auditEntry(ctx, c, "appointment.rescheduled", ap, map[string]any{"rescheduled_to_id": next.ID.String()}); err != nil {
		return nil, err
	}
	next.Edges.Service = ap.Edges.Service
	return next, nil
}
