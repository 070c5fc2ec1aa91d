package appointments

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/google/uuid"
	"github.com/riverqueue/river"

	"github.com/venueplatform/venue/ent"
	entappointment "github.com/venueplatform/venue/ent/appointment"
	"github.com/venueplatform/venue/ent/payment"
	"github.com/venueplatform/venue/ent/refund"
	"github.com/venueplatform/venue/internal/apperr"
	"github.com/venueplatform/venue/internal/events"
	"github.com/venueplatform/venue/internal/money"
	"github.com/venueplatform/venue/internal/payments"
	"github.com/venueplatform/venue/internal/payments/refunds"
	"github.com/venueplatform/venue/internal/system"
	"github.com/venueplatform/venue/internal/viewer"
)

// A cancel that gives back an online payment (a member accepting the
// venue's refund terms, or staff choosing to refund) decides the refund in
// its transaction and queues a CancelRefundArgs job there; right after the
// commit the same refund is made at once. Both go through package refunds
// (a review and the refund to the card, as staff would) under one request
// key per cancelled appointment or visit, which the refunds table holds
// unique per venue: however often either runs, the money goes back once.

// Refund scopes of a quote.
const (
	RefundScopeAppointment = "appointment"
	RefundScopeVisit       = "visit"
)

// Why a cancel accepting the refund terms cannot refund now.
const (
	RefundNoTerms         = "no_refund_terms"
	RefundCardUnavailable = "card_refund_unavailable"
	RefundPackage         = "package_requires_staff"
)

// Reasons recorded on the refunds of cancels.
const (
	CancelRefundReason      = "cancelled under the venue's refund terms"
	StaffCancelRefundReason = "cancelled by the venue"
)

// RefundQuote is the refund a cancel of an appointment or visit paid online
// would make now.
type RefundQuote struct {
	Scope     string
	PaymentID uuid.UUID
	PaidMinor int64
	// FeeWithheldMinor is the cancellation fee kept from the payment (at
	// most what was paid); 0 for staff.
	FeeWithheldMinor int64
	AmountMinor      int64
	Currency         string
	// Terms are the venue's confirmed refund terms a member accepts (the
	// grouped-visit terms; nil for a single appointment, whose terms are
	// its service's cancellation fee).
	Terms *string
	// Unavailable says why the refund cannot be made by the cancel now
	// (RefundNoTerms, RefundCardUnavailable, RefundPackage); empty when it
	// can.
	Unavailable string
}

// RefundStatusNone: the cancel gave nothing back (the fee withheld kept
// the whole payment, or it was refunded before).
const RefundStatusNone = "none"

// CancelRefund is where the refund of a cancel stands.
type CancelRefund struct {
	// Status is queued (decided, not made yet: the job makes it), the
	// refund's own (pending, succeeded, failed), or none.
	Status           string
	AmountMinor      int64
	FeeWithheldMinor int64
	Currency         string
	RefundID         *uuid.UUID
}

// CancelRefundArgs is the job that makes the refund a cancel decided.
type CancelRefundArgs struct {
	OrganizationID string `json:"organization_id"`
	PaymentID      string `json:"payment_id"`
	AmountMinor    int64  `json:"amount_minor"`
	Key            string `json:"key"`
	Reason         string `json:"reason"`
}

// Kind implements river.JobArgs.
func (CancelRefundArgs) Kind() string { return "appointments.cancel_refund" }

// cancelRefundDelay is how long the job waits before it runs: the request
// that cancelled refunds at once, and the job only finishes what a crash
// or an error left undone.
const cancelRefundDelay = 2 * time.Minute

func init() {
	payments.RegisterWorkers(func(w *river.Workers, s *payments.Service) error {
		return river.AddWorkerSafely(w, river.WorkFunc(func(ctx context.Context, job *river.Job[CancelRefundArgs]) error {
			_, err := RefundCancelled(ctx, s, job.Args)
			if errors.Is(err, errBadArgs) {
				return river.JobCancel(err)
			}
			return lateRefundOutcome(err)
		}))
	})
}

var errBadArgs = errors.New("appointments: cancel refund: bad job arguments")

// cancelRefundKey is the refund's request key: one refund per cancelled
// appointment or visit.
func cancelRefundKey(scope string, id uuid.UUID) string {
	return "appointments:cancel:" + scope + ":" + id.String()
}

// asCancelRefunder is the context of a cancel's refund in venue org.
// Elevation site: the member who cancels (or the job holding only ids)
// reads whether the venue can refund the payment to its card and makes the
// refund the cancel decided, as an operator of the venue, as staff
// refunding would.
func asCancelRefunder(ctx context.Context, org uuid.UUID) context.Context {
	return system.Elevate(ctx, "appointments.cancel_refund", viewer.Operator{Org: org, Name: "appointments"})
}

// paymentOfIntent reads the appointment payment made with intentID.
func paymentOfIntent(ctx context.Context, c *ent.Client, intentID string) (*ent.Payment, error) {
	pay, err := c.Payment.Query().Where(payment.ProcessorPaymentID(intentID), payment.KindEQ(payment.KindAppointment)).
		Order(ent.Asc(payment.FieldCreatedAt)).First(ctx)
	if ent.IsNotFound(err) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("appointments: payment: %w", err)
	}
	return pay, nil
}

// quoteRefund fills q's payment, amount and availability: paid less the
// fee withheld, at most what the payment has left to refund, to the card
// that paid it. c is the caller's (transaction) client.
func quoteRefund(ctx context.Context, c *ent.Client, pay *payments.Service, org uuid.UUID, intentID string, q *RefundQuote) error {
	q.FeeWithheldMinor = min(q.FeeWithheldMinor, q.PaidMinor)
	q.AmountMinor = q.PaidMinor - q.FeeWithheldMinor
	ectx := asCancelRefunder(ctx, org)
	p, err := paymentOfIntent(ectx, c, intentID)
	if err != nil {
		return err
	}
	if p == nil || pay == nil {
		q.Unavailable = RefundCardUnavailable
		return nil
	}
	q.PaymentID = p.ID
	rb, err := refunds.New(c, pay.Port(), pay.Logger()).Refundable(ectx, p.ID)
	if err != nil {
		return err
	}
	q.AmountMinor = max(0, min(q.AmountMinor, rb.RestMinor))
	if rb.Unavailable != "" && q.Unavailable == "" && q.AmountMinor > 0 {
		q.Unavailable = RefundCardUnavailable
	}
	return nil
}

// AppointmentRefundQuote is the refund a cancel of ap (paid online, not
// part of a visit) would make now: for a member (self) its service's fee
// inside the window is withheld, for staff nothing. Nil when nothing was
// paid online.
func AppointmentRefundQuote(ctx context.Context, c *ent.Client, pay *payments.Service, v *Venue, ap *ent.Appointment, self bool, now time.Time) (*RefundQuote, error) {
	if !paidOnline(ap.PaidAt, ap.PaidMinor) || ap.VisitID != nil {
		return nil, nil
	}
	q := &RefundQuote{Scope: RefundScopeAppointment, PaidMinor: ap.PaidMinor, Currency: ap.Currency}
	if self {
		q.FeeWithheldMinor = feeOf(ap, now)
	}
	if err := quoteRefund(ctx, c, pay, ap.OrganizationID, deref(ap.PaymentIntentID, ""), q); err != nil {
		return nil, err
	}
	return q, nil
}

// feeOf is the cancellation fee of ap cancelled at now: its service's fee
// inside its window.
func feeOf(ap *ent.Appointment, now time.Time) int64 {
	svc := ap.Edges.Service
	if svc == nil || ap.StartsAt.Sub(now) >= time.Duration(svc.CancelWindowHours)*time.Hour {
		return 0
	}
	return svc.CancelFeeMinor
}

// VisitRefundQuote is the refund a cancel of visit (paid online) would make
// now: for a member the fees of its booked appointments inside their
// windows are withheld, and the venue must have confirmed grouped-visit
// refund terms (else RefundNoTerms); a combo package is the venue's to
// cancel (RefundPackage). Nil when nothing was paid online.
func VisitRefundQuote(ctx context.Context, c *ent.Client, pay *payments.Service, v *Venue, visit *ent.Visit, self bool, now time.Time) (*RefundQuote, error) {
	if !paidOnline(visit.PaidAt, visit.PaidMinor) {
		return nil, nil
	}
	q := &RefundQuote{Scope: RefundScopeVisit, PaidMinor: visit.PaidMinor, Currency: visit.Currency, Terms: v.Policy.RefundTerms}
	if self {
		aps, err := c.Appointment.Query().Where(entappointment.VisitID(visit.ID), entappointment.StatusEQ(entappointment.StatusBooked)).
			WithService().All(ctx)
		if err != nil {
			return nil, fmt.Errorf("appointments: visit refund: %w", err)
		}
		for _, ap := range aps {
			q.FeeWithheldMinor += feeOf(ap, now)
		}
		switch {
		case visit.BundleID != nil:
			q.Unavailable = RefundPackage
		case v.Policy.RefundTerms == nil:
			q.Unavailable = RefundNoTerms
		}
	}
	if err := quoteRefund(ctx, c, pay, visit.OrganizationID, deref(visit.PaymentIntentID, ""), q); err != nil {
		return nil, err
	}
	return q, nil
}

// refundUnavailable refuses a cancel whose refund cannot be made: 422
// REFUND_REQUIRED with the reason, nothing changed.
func refundUnavailable(q *RefundQuote) *apperr.Error {
	return refundRequired(q.PaidMinor, q.Currency).With("reason", q.Unavailable)
}

// decideRefund queues, in the cancel's transaction, the job that makes the
// refund of q (nothing when it is 0) and returns the job's arguments.
func decideRefund(ctx context.Context, org uuid.UUID, q *RefundQuote, subject uuid.UUID, reason string, now time.Time) (*CancelRefundArgs, error) {
	if q == nil || q.AmountMinor <= 0 {
		return nil, nil
	}
	args := CancelRefundArgs{OrganizationID: org.String(), PaymentID: q.PaymentID.String(), AmountMinor: q.AmountMinor,
		Key: cancelRefundKey(q.Scope, subject), Reason: reason}
	err := events.EnqueueJobs(ctx, river.InsertManyParams{Args: args,
		InsertOpts: &river.InsertOpts{ScheduledAt: now.Add(cancelRefundDelay), UniqueOpts: river.UniqueOpts{ByArgs: true}}})
	if err != nil {
		return nil, err
	}
	return &args, nil
}

// RefundCancelled makes the refund a cancel decided, exactly once: a refund
// made before under its key is resumed, never repeated.
func RefundCancelled(ctx context.Context, s *payments.Service, a CancelRefundArgs) (*ent.Refund, error) {
	org, err := uuid.Parse(a.OrganizationID)
	if err != nil {
		return nil, errBadArgs
	}
	id, err := uuid.Parse(a.PaymentID)
	if err != nil || a.Key == "" || a.AmountMinor <= 0 {
		return nil, errBadArgs
	}
	ctx = asCancelRefunder(ctx, org)
	c := s.Client()
	rs := refunds.New(c, s.Port(), s.Logger())
	made, err := c.Refund.Query().Where(refund.RequestKey(a.Key)).Exist(ctx)
	if err != nil {
		return nil, fmt.Errorf("appointments: cancel refund: %w", err)
	}
	if made {
		return rs.Refund(ctx, id, refunds.Params{RequestKey: a.Key})
	}
	pay, err := c.Payment.Get(ctx, id)
	if err != nil {
		return nil, fmt.Errorf("appointments: cancel refund payment: %w", err)
	}
	amount := money.ToMajor(a.AmountMinor, pay.Currency)
	rv, err := rs.CreateReview(ctx, id, amount)
	if err != nil {
		return nil, err
	}
	return rs.Refund(ctx, id, refunds.Params{ReviewID: rv.Review.ID, Confirmation: rv.Review.ConfirmationPhrase,
		Amount: amount, Reason: a.Reason, Destination: refunds.DestinationCard, RequestKey: a.Key})
}

// refundNow makes the refund a committed cancel decided and says where it
// stands. The cancel stands whatever happens here: an unknown outcome is
// left pending for the refunds reconcile, and anything else the queued job
// finishes.
func refundNow(ctx context.Context, s *payments.Service, a *CancelRefundArgs, q *RefundQuote) *CancelRefund {
	if q == nil {
		return nil
	}
	out := &CancelRefund{Status: "queued", AmountMinor: q.AmountMinor, FeeWithheldMinor: q.FeeWithheldMinor, Currency: q.Currency}
	if a == nil {
		out.Status = RefundStatusNone // the fee kept everything
		return out
	}
	if _, err := RefundCancelled(ctx, s, *a); err != nil {
		s.Logger().WarnContext(ctx, "cancel refund not made at once", "key", a.Key, "error", err)
	}
	org, _ := uuid.Parse(a.OrganizationID)
	rf, err := s.Client().Refund.Query().Where(refund.RequestKey(a.Key)).Only(asCancelRefunder(ctx, org))
	if err == nil {
		out.Status, out.RefundID = string(rf.Status), &rf.ID
	}
	return out
}
