package appointments

import (
	"context"
	"fmt"
	"net/http"
	"time"

	"github.com/google/uuid"

	"github.com/venueplatform/venue/ent"
	entappointment "github.com/venueplatform/venue/ent/appointment"
	"github.com/venueplatform/venue/ent/appointmentpolicy"
	"github.com/venueplatform/venue/ent/payment"
	"github.com/venueplatform/venue/ent/paymentattempt"
	"github.com/venueplatform/venue/ent/predicate"
	entvisit "github.com/venueplatform/venue/ent/visit"
	"github.com/venueplatform/venue/internal/apperr"
	"github.com/venueplatform/venue/internal/events"
	"github.com/venueplatform/venue/internal/payments"
	"github.com/venueplatform/venue/internal/system"
)

// HoldFor is how long an online checkout holds its time while the payment
// completes.
const HoldFor = 15 * time.Minute

// Payment attempt purposes of appointment and visit charges.
const (
	PurposeAppointment = paymentattempt.PurposeAppointmentCharge
	PurposeVisit       = paymentattempt.PurposeVisitCharge
)

// Checkout outcomes of a confirm that is not final (202).
const (
	ConfirmBooked        = "booked"
	ConfirmFinalizing    = "finalizing"
	ConfirmRefundPending = "refund_pending"
)

// CancelReasonUnpaid is the cancel_reason of a hold released unpaid.
const CancelReasonUnpaid = "payment_not_completed"

func init() {
	payments.RegisterSubject(PurposeAppointment, appointmentSubject{})
	payments.RegisterSubject(PurposeVisit, visitSubject{})
}

// hold makes a booking an online checkout's.
type hold struct {
	expires time.Time
	key     string
	// expected is the amount due the member saw (nil: checked by the
	// caller, as a visit checks its total).
	expected *int64
	// visit: one service of a held visit, which may itself owe nothing
	// online (a free service); the visit checks its totals.
	visit bool
}

// check decides the payment of a held booking of svc at price: online,
// with the deposit (capped at the price) or the price due now.
func (h *hold) check(v *Venue, svc *ent.Service, deposit *int64, price int64, r Request) (entappointment.Payment, int64, error) {
	pay, _, due := dueOf(v, deposit, price, r.PaymentChoice)
	if h.visit && pay != entappointment.PaymentVenue {
		return pay, due, nil
	}
	if pay != entappointment.PaymentOnline || due == 0 {
		return "", 0, nothingDue()
	}
	if h.expected != nil && *h.expected != due {
		return "", 0, quoteStale().With("due_minor", due).With("currency", svc.Currency)
	}
	return pay, due, nil
}

func nothingDue() *apperr.Error {
	return unprocessable("VALIDATION_FAILED", "nothing is due online for this booking; book it without checkout").
		With("reason", "nothing_due_online")
}

func quoteStale() *apperr.Error {
	return &apperr.Error{Status: http.StatusConflict, Code: "QUOTE_STALE",
		Message: "the amounts differ from the expected ones"}
}

// online reports whether the venue takes payment at booking for a member
// choosing choice.
func online(v *Venue, choice string) bool {
	return v.Policy.PaymentMode == appointmentpolicy.PaymentAtBookingModeOnline ||
		(v.Policy.PaymentMode == appointmentpolicy.PaymentAtBookingModeClientChoice && choice == "online")
}

// depositOf is the deposit of a booking of svc (as variant, when one is
// named) at price: the variant's own, else the service's fixed amount, else
// the service's percentage of price, rounded half up (nil: none).
func depositOf(svc *ent.Service, variant *ent.ServiceVariant, price int64) *int64 {
	if variant != nil && variant.DepositMinor != nil {
		return variant.DepositMinor
	}
	if svc.DepositMinor != nil {
		return svc.DepositMinor
	}
	if svc.DepositPercentBp != nil {
		d := percentOf(price, *svc.DepositPercentBp)
		return &d
	}
	return nil
}

// percentOf is bp basis points of price in minor units, rounded half up.
func percentOf(price int64, bp int) int64 {
	return (price*int64(bp) + 5000) / 10000
}

// dueOf is how a booking at price with deposit (nil: none) is paid, its
// deposit and what is due at booking.
func dueOf(v *Venue, deposit *int64, price int64, choice string) (entappointment.Payment, *int64, int64) {
	if price == 0 {
		return entappointment.PaymentFree, nil, 0
	}
	if !online(v, choice) {
		return entappointment.PaymentVenue, deposit, 0
	}
	if deposit != nil && *deposit < price {
		return entappointment.PaymentOnline, deposit, *deposit
	}
	return entappointment.PaymentOnline, deposit, price
}

// Quote is what booking one appointment would cost now.
type Quote struct {
	Service        *ent.Service
	Variant        *ent.ServiceVariant
	ProviderID     uuid.UUID
	Start, End     time.Time
	Currency       string
	PriceMinor     int64
	DepositMinor   *int64
	DueMinor       int64
	RemainingMinor int64
	Mode           appointmentpolicy.PaymentAtBookingMode
	Payment        entappointment.Payment
}

// QuoteOf answers the checkout quote of r for the member actor: the
// concrete provider booking would take, the price, the deposit, what is due
// at booking and the remaining balance. The start must be offered (409
// SLOT_UNAVAILABLE). Nothing is held.
func QuoteOf(ctx context.Context, client *ent.Client, a Actor, r Request, now time.Time) (*Quote, error) {
	v, err := LoadVenue(ctx, client)
	if err != nil {
		return nil, err
	}
	av, err := Compute(ctx, client, v, Query{ServiceID: r.ServiceID, VariantID: r.VariantID, ProviderID: r.ProviderID,
		LocationID: r.LocationID, From: r.Start, To: r.Start, Now: now, SelfService: a.Self})
	if err != nil {
		return nil, err
	}
	slot, ok := av.Find(r.Start)
	if !ok {
		return nil, slotUnavailable(ReasonSlotNotOffered)
	}
	cand, _ := av.Candidate(slot.Providers[0])
	pay, deposit, due := dueOf(v, depositOf(av.Service, av.Variant, cand.PriceMinor), cand.PriceMinor, r.PaymentChoice)
	if deposit != nil && *deposit > cand.PriceMinor {
		capped := cand.PriceMinor
		deposit = &capped
	}
	return &Quote{Service: av.Service, Variant: av.Variant, ProviderID: cand.Provider.ID, Start: r.Start,
		End: r.Start.Add(cand.Duration), Currency: av.Service.Currency, PriceMinor: cand.PriceMinor,
		DepositMinor: deposit, DueMinor: due, RemainingMinor: cand.PriceMinor - due,
		Mode: v.Policy.PaymentMode, Payment: pay}, nil
}

// releaseExpiredHolds cancels the expired holds (pending_payment past
// hold_expires_at) whose busy spans meet [from, until) for the provider (and
// the room), with the other held appointments of their visits, so that a
// booking can take the time. Members site appointments.release_holds: the
// holds may be other members'.
func releaseExpiredHolds(ctx context.Context, c *ent.Client, provider uuid.UUID, room *uuid.UUID, from, until, now time.Time) error {
	who := entappointment.ProviderID(provider)
	if room != nil {
		who = entappointment.Or(who, entappointment.RoomID(*room))
	}
	sctx := system.CrossMembers(ctx, "appointments.release_holds")
	expired := []predicate.Appointment{entappointment.StatusEQ(entappointment.StatusPendingPayment),
		entappointment.HoldExpiresAtLTE(now), who,
		entappointment.BusyFromLT(until), entappointment.BusyUntilGT(from)}
	rows, err := c.Appointment.Query().Where(expired...).
		Select(entappointment.FieldID, entappointment.FieldVisitID).All(sctx)
	if err != nil || len(rows) == 0 {
		return err
	}
	ids := make([]uuid.UUID, 0, len(rows))
	var visits []uuid.UUID
	for _, r := range rows {
		ids = append(ids, r.ID)
		if r.VisitID != nil {
			visits = append(visits, *r.VisitID)
		}
	}
	release := c.Appointment.Update().Where(entappointment.StatusEQ(entappointment.StatusPendingPayment),
		entappointment.HoldExpiresAtLTE(now))
	if len(visits) > 0 {
		release.Where(entappointment.Or(entappointment.IDIn(ids...), entappointment.VisitIDIn(visits...)))
	} else {
		release.Where(entappointment.IDIn(ids...))
	}
	if _, err := release.SetStatus(entappointment.StatusCancelled).SetCancelledAt(now).
		SetCancelReason(CancelReasonUnpaid).Save(sctx); err != nil {
		return fmt.Errorf("appointments: release holds: %w", err)
	}
	if len(visits) > 0 {
		if _, err := c.Visit.Update().Where(entvisit.IDIn(visits...), entvisit.StatusEQ(entvisit.StatusPendingPayment)).
			SetStatus(entvisit.StatusCancelled).Save(sctx); err != nil {
			return fmt.Errorf("appointments: release visit holds: %w", err)
		}
	}
	return nil
}

// CheckoutParams are a member's online checkout of one appointment.
type CheckoutParams struct {
	Request
	// ExpectedDueMinor is the amount due at booking the member saw.
	ExpectedDueMinor int64
	// PaymentMethodID (a saved card) confirms the charge at once.
	PaymentMethodID string
	// RequestKey is the digest of the request's Idempotency-Key: a retry of
	// the same request finds its appointment.
	RequestKey string
}

// CheckoutResult is a held (or booked) appointment and its charge.
type CheckoutResult struct {
	Appointment *ent.Appointment
	Charge      payments.ChargeResult
}

// cardsReady refuses a checkout at a venue that cannot take card payments
// before anything is held (422 CARD_PAYMENTS_UNAVAILABLE).
func cardsReady(ctx context.Context, pay *payments.Service) error {
	_, ok, reason, err := pay.StatusWithAvailability(ctx)
	if err != nil {
		return err
	}
	if !ok {
		return (&apperr.Error{Status: http.StatusUnprocessableEntity, Code: payments.CodeUnavailable,
			Message: "card payments are not available at this venue"}).With("reason", reason).With("next_step", nil)
	}
	return nil
}

// Checkout books p for the member actor in status pending_payment, holding
// the time for HoldFor, and charges what is due at booking through pay.
// The appointment is booked once the payment succeeds (appointmentSubject).
func Checkout(ctx context.Context, client *ent.Client, pay *payments.Service, a Actor, p CheckoutParams, now time.Time) (*CheckoutResult, error) {
	if p.RequestKey == "" {
		return nil, apperr.Validation("Idempotency-Key", "required")
	}
	ap, err := client.Appointment.Query().
		Where(entappointment.MemberID(a.Member.ID), entappointment.CheckoutKey(p.RequestKey)).WithService().Only(ctx)
	switch {
	case ent.IsNotFound(err):
		if err := cardsReady(ctx, pay); err != nil {
			return nil, err
		}
		v, err := LoadVenue(ctx, client)
		if err != nil {
			return nil, err
		}
		r := p.Request
		r.PassID = nil
		r.hold = &hold{expires: now.Add(HoldFor), key: p.RequestKey, expected: &p.ExpectedDueMinor}
		err = events.WithTx(ctx, client, func(ctx context.Context, tx *ent.Tx) error {
			var err error
			ap, err = book(ctx, tx.Client(), v, a, r, now, nil, false)
			return err
		})
		if IsOverlap(err) {
			return nil, slotUnavailable(ReasonSlotTaken)
		}
		if err != nil {
			return nil, err
		}
	case err != nil:
		return nil, fmt.Errorf("appointments: checkout: %w", err)
	}
	if ap.PaidAt != nil {
		return checkoutResult(ctx, client, ap.ID, payments.ChargeResult{Status: payments.StatusPaid, IntentID: deref(ap.PaymentIntentID, "")})
	}
	if ap.Status != entappointment.StatusPendingPayment {
		return nil, holdGone(string(ap.Status))
	}
	res, err := pay.ChargeSubject(ctx, payments.ChargeParams{Purpose: PurposeAppointment, SubjectID: ap.ID, PaymentMethodID: p.PaymentMethodID})
	if err != nil {
		return nil, err
	}
	return checkoutResult(ctx, client, ap.ID, *res)
}

func checkoutResult(ctx context.Context, client *ent.Client, id uuid.UUID, res payments.ChargeResult) (*CheckoutResult, error) {
	ap, err := Get(ctx, client, id)
	if err != nil {
		return nil, err
	}
	return &CheckoutResult{Appointment: ap, Charge: res}, nil
}

func holdGone(status string) *apperr.Error {
	return (&apperr.Error{Status: http.StatusConflict, Code: "OFFER_HOLD_EXPIRED",
		Message: "the checkout's hold was released; check out again"}).With("status", status)
}

// ConfirmResult is a confirm's answer: Status booked, or finalizing or
// refund_pending (not final; 202).
type ConfirmResult struct {
	Status      string
	Appointment *ent.Appointment
	Visit       *ent.Visit
	Items       []*ent.Appointment
	// Refund is where the automatic refund of a late payment stands
	// (refund_pending only).
	Refund *LateRefund
}

func requiresAction(status string) *apperr.Error {
	return (&apperr.Error{Status: http.StatusConflict, Code: "PAYMENT_REQUIRES_ACTION",
		Message: "the payment needs the member: finish it in the app, then confirm again"}).
		With("payment_status", status).With("next_step", "update_card")
}

func declinedCharge(code, decline string) *apperr.Error {
	return (&apperr.Error{Status: http.StatusPaymentRequired, Code: "CHARGE_DECLINED",
		Message: "the card was declined"}).With("failure_code", code).With("decline_code", decline).With("next_step", "update_card")
}

// attemptOutcome answers a confirm of a subject not paid yet from its
// latest attempt.
func attemptOutcome(ctx context.Context, client *ent.Client, subject uuid.UUID) (string, error) {
	at, err := client.PaymentAttempt.Query().Where(paymentattempt.SubjectID(subject)).
		Order(ent.Desc(paymentattempt.FieldNumber)).First(ctx)
	if ent.IsNotFound(err) {
		return "", requiresAction("requires_payment_method")
	}
	if err != nil {
		return "", err
	}
	switch at.State {
	case paymentattempt.StateProcessing, paymentattempt.StateUnknown, paymentattempt.StateCreated, paymentattempt.StateInFlight:
		return ConfirmFinalizing, nil
	case paymentattempt.StateFailed, paymentattempt.StateCanceled:
		return "", declinedCharge(deref(at.FailureCode, ""), deref(at.DeclineCode, ""))
	default:
		return "", requiresAction(string(at.State))
	}
}

// ConfirmCheckout settles the member's online checkout of appointment id
// after the app finished its payment: the payment is read from Stripe (read
// only) and books the appointment once on success.
func ConfirmCheckout(ctx context.Context, client *ent.Client, pay *payments.Service, id uuid.UUID) (*ConfirmResult, error) {
	ap, err := Get(ctx, client, id)
	if err != nil {
		return nil, err
	}
	if ap.Payment != entappointment.PaymentOnline {
		return nil, ErrNotFound
	}
	if ap.PaidAt == nil {
		if err := pay.RefreshSubject(ctx, ap.ID); err != nil {
			return nil, err
		}
		if ap, err = Get(ctx, client, id); err != nil {
			return nil, err
		}
	}
	out := &ConfirmResult{Appointment: ap, Status: ConfirmBooked}
	switch {
	case ap.PaidAt != nil && ap.Status == entappointment.StatusCancelled && deref(ap.CancelReason, "") == CancelReasonUnpaid:
		out.Status = ConfirmRefundPending
		if out.Refund, err = lateRefundOf(ctx, pay, ap.OrganizationID, deref(ap.PaymentIntentID, "")); err != nil {
			return nil, err
		}
	case ap.PaidAt != nil:
	default:
		if out.Status, err = attemptOutcome(ctx, client, ap.ID); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// appointmentSubject lets package payments charge and book held
// appointments.
type appointmentSubject struct{}

func (appointmentSubject) Lock(ctx context.Context, tx *ent.Tx, id uuid.UUID) (payments.SubjectCharge, error) {
	ap, err := tx.Appointment.Query().Where(entappointment.ID(id)).ForUpdate().Only(ctx)
	if err != nil {
		return payments.SubjectCharge{}, err
	}
	return payments.SubjectCharge{AmountMinor: ap.DueMinor, Currency: ap.Currency, Description: "Appointment",
		MemberID: ap.MemberID, Paid: ap.PaidAt != nil}, nil
}

// Settle books the paid appointment, once, under its lock: the payment row,
// the status booked, appointment.created and payment.succeeded. A hold that
// was released meanwhile stays cancelled with the payment recorded, and its
// refund is queued (late_refund.go).
func (appointmentSubject) Settle(ctx context.Context, tx *ent.Tx, id uuid.UUID, intentID string, now time.Time) error {
	ap, err := tx.Appointment.Get(ctx, id)
	if err != nil || ap.PaidAt != nil {
		return err
	}
	pay, err := settleAppointments(ctx, tx.Client(), []*ent.Appointment{ap}, ap.MemberID, ap.DueMinor, ap.Currency, intentID, now,
		map[string]any{"appointment_id": ap.ID.String()})
	if err != nil || ap.Status != entappointment.StatusCancelled {
		return err
	}
	return enqueueLateRefund(ctx, pay)
}

// settleAppointments records the payment of aps (one appointment, or a
// visit's) and books the ones still held.
func settleAppointments(ctx context.Context, c *ent.Client, aps []*ent.Appointment, member uuid.UUID, amount int64, currency, intentID string, now time.Time, data map[string]any) (*ent.Payment, error) {
	pay, err := c.Payment.Create().SetMemberID(member).SetAmountMinor(amount).SetCurrency(currency).
		SetStatus(payment.StatusSucceeded).SetKind(payment.KindAppointment).SetPaidAt(now).
		SetProcessorPaymentID(intentID).Save(ctx)
	if err != nil {
		return nil, err
	}
	for _, ap := range aps {
		upd := c.Appointment.UpdateOne(ap).SetPaidAt(now).SetPaidMinor(ap.DueMinor).SetPaymentIntentID(intentID)
		held := ap.Status == entappointment.StatusPendingPayment
		if held {
			upd.SetStatus(entappointment.StatusBooked).ClearHoldExpiresAt()
		}
		done, err := upd.Save(ctx)
		if err != nil {
			return nil, err
		}
		if !held {
			continue
		}
		if _, err := events.Record(ctx, c, events.AppointmentCreated, map[string]any{
			"appointment_id": done.ID.String(), "status": string(done.Status), "member_id": done.MemberID.String(),
			"provider_id": done.ProviderID.String(), "service_id": done.ServiceID.String(),
			"starts_at": done.StartsAt.UTC().Format(time.RFC3339),
		}); err != nil {
			return nil, err
		}
		if err := auditEntry(ctx, c, "appointment.created", done, map[string]any{"via": string(done.BookedVia), "paid_online": true}); err != nil {
			return nil, err
		}
	}
	ev := map[string]any{"payment_id": pay.ID.String(), "member_id": member.String(), "payment_intent_id": intentID,
		"amount_minor": amount, "currency": currency, "vat_minor": 0}
	for k, v := range data {
		ev[k] = v
	}
	_, err = events.Record(ctx, c, events.PaymentSucceeded, ev)
	return pay, err
}
