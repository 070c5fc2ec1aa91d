package appointments

import (
	"context"
	"fmt"
	"time"

	"github.com/google/uuid"

	"github.com/venueplatform/venue/ent"
	entappointment "github.com/venueplatform/venue/ent/appointment"
	entvisit "github.com/venueplatform/venue/ent/visit"
	"github.com/venueplatform/venue/internal/apperr"
	"github.com/venueplatform/venue/internal/payments"
)

// VisitCheckoutParams are a member's online checkout of a visit.
type VisitCheckoutParams struct {
	VisitRequest
	PaymentMethodID string
	RequestKey      string
}

// VisitCheckoutResult is a held (or booked) visit and its charge.
type VisitCheckoutResult struct {
	Visit  *ent.Visit
	Items  []*ent.Appointment
	Charge payments.ChargeResult
}

// CheckoutVisit books p's services as BookVisit does, all or nothing, holds
// the visit and its appointments in pending_payment for HoldFor, and charges
// the sum of their amounts due at booking (deposits or prices) through pay.
// The visit is booked once the payment succeeds (visitSubject).
func CheckoutVisit(ctx context.Context, client *ent.Client, pay *payments.Service, a Actor, p VisitCheckoutParams, now time.Time) (*VisitCheckoutResult, error) {
	return checkoutVisit(ctx, client, pay, a, p.RequestKey, p.PaymentMethodID, now, func() (VisitRequest, error) {
		return p.VisitRequest, nil
	})
}

// checkoutVisit is the visit checkout of the request build makes (called
// only when no visit of the member holds key yet, so a retry finds its visit
// even after the offer behind the request changed).
func checkoutVisit(ctx context.Context, client *ent.Client, pay *payments.Service, a Actor, key, method string, now time.Time, build func() (VisitRequest, error)) (*VisitCheckoutResult, error) {
	if key == "" {
		return nil, apperr.Validation("Idempotency-Key", "required")
	}
	visit, err := client.Visit.Query().
		Where(entvisit.MemberID(a.Member.ID), entvisit.CheckoutKey(key)).Only(ctx)
	switch {
	case ent.IsNotFound(err):
		r, err := build()
		if err != nil {
			return nil, err
		}
		if err := cardsReady(ctx, pay); err != nil {
			return nil, err
		}
		v, err := LoadVenue(ctx, client)
		if err != nil {
			return nil, err
		}
		r.PaymentChoice = "online"
		if visit, _, err = bookVisit(ctx, client, v, a, r, now, &hold{expires: now.Add(HoldFor), key: key}); err != nil {
			return nil, err
		}
	case err != nil:
		return nil, fmt.Errorf("appointments: visit checkout: %w", err)
	}
	res := payments.ChargeResult{Status: payments.StatusPaid, IntentID: deref(visit.PaymentIntentID, "")}
	if visit.PaidAt == nil {
		if visit.Status != entvisit.StatusPendingPayment {
			return nil, holdGone(string(visit.Status))
		}
		r, err := pay.ChargeSubject(ctx, payments.ChargeParams{Purpose: PurposeVisit, SubjectID: visit.ID, PaymentMethodID: method})
		if err != nil {
			return nil, err
		}
		res = *r
	}
	visit, items, err := GetVisit(ctx, client, visit.ID)
	if err != nil {
		return nil, err
	}
	return &VisitCheckoutResult{Visit: visit, Items: items, Charge: res}, nil
}

// ConfirmVisitCheckout settles the member's online checkout of visit id
// after the app finished its payment, as ConfirmCheckout does.
func ConfirmVisitCheckout(ctx context.Context, client *ent.Client, pay *payments.Service, id uuid.UUID) (*ConfirmResult, error) {
	visit, err := client.Visit.Query().Where(entvisit.ID(id)).Only(ctx)
	if ent.IsNotFound(err) || (err == nil && visit.CheckoutKey == nil) {
		return nil, apperr.NotFound("visit")
	}
	if err != nil {
		return nil, err
	}
	if visit.PaidAt == nil {
		if err := pay.RefreshSubject(ctx, visit.ID); err != nil {
			return nil, err
		}
	}
	visit, items, err := GetVisit(ctx, client, id)
	if err != nil {
		return nil, err
	}
	out := &ConfirmResult{Visit: visit, Items: items, Status: ConfirmBooked}
	switch {
	case visit.PaidAt != nil && visit.Status == entvisit.StatusCancelled:
		out.Status = ConfirmRefundPending
		if out.Refund, err = lateRefundOf(ctx, pay, visit.OrganizationID, deref(visit.PaymentIntentID, "")); err != nil {
			return nil, err
		}
	case visit.PaidAt != nil:
	default:
		if out.Status, err = attemptOutcome(ctx, client, visit.ID); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// visitSubject lets package payments charge and book held visits.
type visitSubject struct{}

func (visitSubject) Lock(ctx context.Context, tx *ent.Tx, id uuid.UUID) (payments.SubjectCharge, error) {
	v, err := tx.Visit.Query().Where(entvisit.ID(id)).ForUpdate().Only(ctx)
	if err != nil {
		return payments.SubjectCharge{}, err
	}
	return payments.SubjectCharge{AmountMinor: v.DueMinor, Currency: v.Currency, Description: "Visit",
		MemberID: v.MemberID, Paid: v.PaidAt != nil}, nil
}

// Settle books the paid visit and its held appointments, once, under the
// visit's lock. A visit whose hold was released meanwhile stays cancelled
// with the payment recorded, and its refund is queued (late_refund.go).
func (visitSubject) Settle(ctx context.Context, tx *ent.Tx, id uuid.UUID, intentID string, now time.Time) error {
	v, err := tx.Visit.Get(ctx, id)
	if err != nil || v.PaidAt != nil {
		return err
	}
	aps, err := tx.Appointment.Query().Where(entappointment.VisitID(id)).Order(entappointment.ByStartsAt()).All(ctx)
	if err != nil {
		return err
	}
	held := aps[:0:0]
	for _, ap := range aps {
		if ap.Status == entappointment.StatusPendingPayment || v.Status == entvisit.StatusCancelled {
			held = append(held, ap)
		}
	}
	pay, err := settleAppointments(ctx, tx.Client(), held, v.MemberID, v.DueMinor, v.Currency, intentID, now,
		map[string]any{"visit_id": v.ID.String()})
	if err != nil {
		return err
	}
	upd := tx.Visit.UpdateOne(v).SetPaidAt(now).SetPaidMinor(v.DueMinor).SetPaymentIntentID(intentID)
	if v.Status == entvisit.StatusPendingPayment {
		upd.SetStatus(entvisit.StatusBooked).ClearHoldExpiresAt()
	}
	if err := upd.Exec(ctx); err != nil || v.Status != entvisit.StatusCancelled {
		return err
	}
	return enqueueLateRefund(ctx, pay)
}
