package appointments

import (
	"context"
	"fmt"
	"time"

	"github.com/google/uuid"

	"github.com/venueplatform/venue/ent"
	entappointment "github.com/venueplatform/venue/ent/appointment"
	"github.com/venueplatform/venue/ent/member"
	"github.com/venueplatform/venue/ent/pass"
	"github.com/venueplatform/venue/internal/concurrency"
	"github.com/venueplatform/venue/internal/events"
	"github.com/venueplatform/venue/internal/payments"
	"github.com/venueplatform/venue/internal/system"
)

// Get reads appointment id of the viewer's venue (a member viewer: its own
// only, by the member wall).
func Get(ctx context.Context, client *ent.Client, id uuid.UUID) (*ent.Appointment, error) {
	ap, err := client.Appointment.Query().Where(entappointment.ID(id)).WithService().Only(ctx)
	if ent.IsNotFound(err) {
		return nil, ErrNotFound
	}
	if err != nil {
		return nil, fmt.Errorf("appointments: get: %w", err)
	}
	return ap, nil
}

// GetOwn reads the signed-in user uid's own appointment id in any venue they
// are related to.
func GetOwn(ctx context.Context, client *ent.Client, uid, id uuid.UUID) (*ent.Appointment, error) {
	// System call site: bound to the user's own member ids.
	ap, err := client.Appointment.Query().Where(entappointment.ID(id), entappointment.HasMemberWith(member.UserID(uid))).
		WithService().Only(system.Allow(ctx, "appointments.own"))
	if ent.IsNotFound(err) {
		return nil, ErrNotFound
	}
	if err != nil {
		return nil, fmt.Errorf("appointments: own: %w", err)
	}
	return ap, nil
}

// Preview is what cancelling an appointment would do now.
type Preview struct {
	CanCancel     bool
	BlockedReason string
	FeeMinor      int64
	Currency      string
	WindowHours   int
	InsideWindow  bool
	VisitID       *uuid.UUID
	// PackageLinked: the appointment belongs to a combo package's visit.
	PackageLinked bool
}

// paidOnline reports whether money was taken online for a booking (its
// deposit or price), which a member's cancel cannot give back by itself.
func paidOnline(paidAt *time.Time, paidMinor int64) bool {
	return paidAt != nil && paidMinor > 0
}

// PreviewCancelOf is PreviewCancel with what the appointment's visit adds:
// a member may not cancel any part of a combo package paid online
// (package_requires_staff: its one price is shared over its services and
// giving it back is the venue's).
func PreviewCancelOf(ctx context.Context, c *ent.Client, v *Venue, ap *ent.Appointment, self bool, now time.Time) (Preview, error) {
	p := PreviewCancel(v, ap, self, now)
	if ap.VisitID == nil {
		return p, nil
	}
	visit, err := c.Visit.Get(ctx, *ap.VisitID)
	if err != nil {
		return Preview{}, fmt.Errorf("appointments: preview visit: %w", err)
	}
	p.PackageLinked = visit.BundleID != nil
	if self && p.PackageLinked && p.BlockedReason == BlockedGroupedVisit && paidOnline(visit.PaidAt, visit.PaidMinor) {
		p.BlockedReason = BlockedPackageStaff
	}
	return p, nil
}

// PreviewCancel says whether the member may cancel ap at now and what it
// would owe: the service's fee (default 0) inside its window (default 24
// hours).
func PreviewCancel(v *Venue, ap *ent.Appointment, self bool, now time.Time) Preview {
	svc := ap.Edges.Service
	p := Preview{Currency: ap.Currency, VisitID: ap.VisitID}
	if svc != nil {
		p.WindowHours = svc.CancelWindowHours
		if ap.StartsAt.Sub(now) < time.Duration(svc.CancelWindowHours)*time.Hour {
			p.InsideWindow = true
			p.FeeMinor = svc.CancelFeeMinor
		}
	}
	switch {
	case ap.Status != entappointment.StatusBooked || !now.Before(ap.StartsAt):
		p.BlockedReason = BlockedNotCancellable
	case self && ap.VisitID != nil:
		p.BlockedReason = BlockedGroupedVisit
	case self && v.Policy.SelfServiceCutoff != nil && ap.StartsAt.Sub(now) < *v.Policy.SelfServiceCutoff:
		p.BlockedReason = BlockedSelfService
	case self && paidOnline(ap.PaidAt, ap.PaidMinor):
		// Cancellable only by accepting the refund the venue's terms give
		// (CancelOptions.AcceptRefundTerms).
		p.BlockedReason = BlockedRefundRequired
	}
	p.CanCancel = p.BlockedReason == ""
	if !p.CanCancel {
		p.FeeMinor = 0
	}
	return p
}

// CancelOptions say what a cancel does with an online payment.
type CancelOptions struct {
	// AcceptRefundTerms: the member accepts the refund the venue's terms
	// give (the cancel preview's refund); without it a member's cancel of
	// what was paid online is 422 REFUND_REQUIRED.
	AcceptRefundTerms bool
	// Refund: staff give the whole online payment back (their refund
	// permission applies); without it a staff cancel keeps the payment.
	Refund bool
	// Pay is the payments service refunds go through.
	Pay *payments.Service
}

// Cancel cancels appointment id for the actor, guarded by the exact
// updated_at token tok (missing: 400 VALIDATION_ERROR; another: 409
// STALE_TARGET). A member (Self) is refused past the self-service cutoff
// (remaining time strictly below it: 422 SELF_SERVICE_CUTOFF) and for an
// appointment of a visit (422 GROUPED_VISIT_REQUIRES_VISIT_ACTION); nobody
// cancels a started, attended or cancelled appointment (422
// NOT_CANCELLABLE). A clip the appointment took goes back to its pass;
// inside the service's window its fee is recorded on the appointment.
func Cancel(ctx context.Context, client *ent.Client, a Actor, id uuid.UUID, tok concurrency.Token, reason string, now time.Time) (*ent.Appointment, error) {
	ap, _, err := CancelWith(ctx, client, a, id, tok, reason, now, CancelOptions{})
	return ap, err
}

// CancelWith is Cancel with what to do with an online payment: a member's
// cancel of an appointment paid online is 422 REFUND_REQUIRED unless o
// accepts the refund terms, and then also when the refund cannot go back
// to the card (details.reason card_refund_unavailable); accepted, the
// appointment is cancelled with its fee withheld from the payment and the
// rest refunded (see cancel_refund.go), exactly once.
func CancelWith(ctx context.Context, client *ent.Client, a Actor, id uuid.UUID, tok concurrency.Token, reason string, now time.Time, o CancelOptions) (*ent.Appointment, *CancelRefund, error) {
	if tok.IsZero() {
		return nil, nil, concurrency.Missing("updated_at")
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
		if a.Self && ap.MemberID != a.Member.ID {
			return ErrNotFound
		}
		if !tok.Matches(ap.UpdatedAt) {
			return concurrency.Stale(ap.UpdatedAt)
		}
		p, err := PreviewCancelOf(ctx, c, v, ap, a.Self, now)
		if err != nil {
			return err
		}
		fee := p.FeeMinor
		switch p.BlockedReason {
		case BlockedPackageStaff:
			return packageRequiresStaff(ap.VisitID.String())
		case BlockedNotCancellable:
			return notCancellable(string(ap.Status))
		case BlockedGroupedVisit:
			return unprocessable(CodeGroupedVisit, "cancel the whole visit instead").With("visit_id", ap.VisitID.String())
		case BlockedRefundRequired:
			if !o.AcceptRefundTerms {
				return refundRequired(ap.PaidMinor, ap.Currency)
			}
			if q, err = AppointmentRefundQuote(ctx, c, o.Pay, v, ap, true, now); err != nil {
				return err
			}
			if q.Unavailable != "" {
				return refundUnavailable(q)
			}
			fee = feeOf(ap, now)
		case BlockedSelfService:
			return unprocessable(CodeSelfServiceCutoff, "the appointment is too close to cancel online; contact the venue").
				With("cutoff_hours", int(*v.Policy.SelfServiceCutoff/time.Hour))
		}
		out, err = setCancelled(ctx, c, ap, tok, fee, reason, now, refundDetails(q))
		if err != nil {
			return err
		}
		args, err = decideRefund(ctx, ap.OrganizationID, q, ap.ID, CancelRefundReason, now)
		return err
	})
	if err != nil {
		return nil, nil, err
	}
	return out, refundNow(ctx, o.Pay, args, q), nil
}

// refundDetails are what a cancel's event and audit entry say of its
// refund.
func refundDetails(q *RefundQuote) map[string]any {
	if q == nil {
		return nil
	}
	return map[string]any{"refund_minor": q.AmountMinor, "refund_fee_withheld_minor": q.FeeWithheldMinor,
		"refund_currency": q.Currency}
}

// setCancelled cancels ap (guarded by tok), restores its clip and records
// the event and the audit entry.
func setCancelled(ctx context.Context, c *ent.Client, ap *ent.Appointment, tok concurrency.Token, fee int64, reason string, now time.Time, extra map[string]any) (*ent.Appointment, error) {
	upd := c.Appointment.UpdateOneID(ap.ID).Where(entappointment.UpdatedAt(tok.Time()), entappointment.StatusEQ(ap.Status)).
		SetStatus(entappointment.StatusCancelled).SetCancelledAt(now).SetCancelReason(reason)
	if fee > 0 {
		upd.SetCancelFeeMinor(fee)
	}
	out, err := upd.Save(ctx)
	if ent.IsNotFound(err) {
		return nil, concurrency.Stale(ap.UpdatedAt)
	}
	if err != nil {
		return nil, err
	}
	if ap.PassID != nil {
		if err := c.Pass.Update().Where(pass.ID(*ap.PassID), pass.ClipsRemainingNotNil()).AddClipsRemaining(1).Exec(ctx); err != nil {
			return nil, fmt.Errorf("appointments: restore clip: %w", err)
		}
	}
	data := map[string]any{
		"appointment_id": out.ID.String(), "status": string(out.Status), "member_id": out.MemberID.String(), "reason": reason,
	}
	details := map[string]any{"reason": reason, "fee_minor": fee}
	for k, v := range extra {
		data[k], details[k] = v, v
	}
	if _, err := events.Record(ctx, c, events.AppointmentCancelled, data); err != nil {
		return nil, err
	}
	if err := auditEntry(ctx, c, "appointment.cancelled", out, details); err != nil {
		return nil, err
	}
	out.Edges.Service = ap.Edges.Service
	return out, nil
}
