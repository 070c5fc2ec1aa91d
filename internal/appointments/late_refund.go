package appointments

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"

	"github.com/google/uuid"
	"github.com/riverqueue/river"

	"github.com/venueplatform/venue/ent"
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

// A payment that lands after its appointment's (or visit's) hold was
// released and the time taken is given back at once: Settle queues a
// LateRefundArgs job in the payment's transaction, and the job refunds the
// whole payment to the card through package refunds (a review and the
// refund, as staff would), keyed by the payment so that it happens exactly
// once however often the job runs.

// LateRefundArgs is the job that refunds a late payment.
type LateRefundArgs struct {
	PaymentID      string `json:"payment_id"`
	OrganizationID string `json:"organization_id"`
}

// Kind implements river.JobArgs.
func (LateRefundArgs) Kind() string { return "appointments.late_refund" }

// LateRefundReason is the reason recorded on such refunds.
const LateRefundReason = "paid after the appointment's hold was released"

// Statuses of a late payment's refund as the confirm reports it.
const (
	LateRefundQueued = "queued"
	LateRefundManual = "manual"
)

func init() {
	payments.RegisterWorkers(func(w *river.Workers, s *payments.Service) error {
		return river.AddWorkerSafely(w, river.WorkFunc(func(ctx context.Context, job *river.Job[LateRefundArgs]) error {
			org, err := uuid.Parse(job.Args.OrganizationID)
			if err != nil {
				return river.JobCancel(err)
			}
			id, err := uuid.Parse(job.Args.PaymentID)
			if err != nil {
				return river.JobCancel(err)
			}
			return RefundLatePayment(ctx, s, org, id)
		}))
	})
}

// lateRefundKey is the refund's request key: one refund per late payment.
func lateRefundKey(paymentID uuid.UUID) string {
	return "appointments:late-payment:" + paymentID.String()
}

// asVenueOperator is the context of a late payment's refund in venue org.
// Elevation site: the job holds only ids (and the member's confirm reads
// where the refund stands); it acts as an operator of the venue the
// payment names, as staff refunding would.
func asVenueOperator(ctx context.Context, org uuid.UUID) context.Context {
	return system.Elevate(ctx, "appointments.late_refund", viewer.Operator{Org: org, Name: "appointments"})
}

// enqueueLateRefund queues the refund of late payment pay in the
// settling transaction.
func enqueueLateRefund(ctx context.Context, pay *ent.Payment) error {
	return events.EnqueueJobs(ctx, river.InsertManyParams{
		Args:       LateRefundArgs{PaymentID: pay.ID.String(), OrganizationID: pay.OrganizationID.String()},
		InsertOpts: &river.InsertOpts{UniqueOpts: river.UniqueOpts{ByArgs: true}},
	})
}

// RefundLatePayment refunds the whole of late payment id of venue org to
// the card that paid it, exactly once: a refund made before under the
// payment's key is resumed, never repeated. An unknown Stripe outcome is
// left to the refunds reconcile (the refund stays pending); a payment that
// cannot go back to the card (card payments off, not a card payment,
// already refunded by staff) ends the job for the venue to handle.
func RefundLatePayment(ctx context.Context, s *payments.Service, org, id uuid.UUID) error {
	ctx = asVenueOperator(ctx, org)
	c := s.Client()
	rs := refunds.New(c, s.Port(), s.Logger())
	key := lateRefundKey(id)
	made, err := c.Refund.Query().Where(refund.RequestKey(key)).Exist(ctx)
	if err != nil {
		return fmt.Errorf("appointments: late refund: %w", err)
	}
	if made {
		_, err := rs.Refund(ctx, id, refunds.Params{RequestKey: key})
		return lateRefundOutcome(err)
	}
	pay, err := c.Payment.Get(ctx, id)
	if ent.IsNotFound(err) {
		return river.JobCancel(err)
	}
	if err != nil {
		return fmt.Errorf("appointments: late refund payment: %w", err)
	}
	amount := money.ToMajor(pay.AmountMinor, pay.Currency)
	rv, err := rs.CreateReview(ctx, id, amount)
	if err != nil {
		return lateRefundOutcome(err)
	}
	_, err = rs.Refund(ctx, id, refunds.Params{ReviewID: rv.Review.ID, Confirmation: rv.Review.ConfirmationPhrase,
		Amount: amount, Reason: LateRefundReason, Destination: refunds.DestinationCard, RequestKey: key})
	return lateRefundOutcome(err)
}

// lateRefundOutcome ends the job on success, on an unknown outcome (the
// refund is pending and reconciled) and on a refusal that a retry cannot
// change; other errors retry.
func lateRefundOutcome(err error) error {
	var ae *apperr.Error
	switch {
	case err == nil:
		return nil
	case errors.As(err, &ae) && ae.Code == "UNKNOWN_WRITE_OUTCOME":
		return nil
	case errors.As(err, &ae) && ae.Status < http.StatusInternalServerError:
		return river.JobCancel(err)
	}
	return err
}

// LateRefund is where the refund of a late payment stands.
type LateRefund struct {
	Status      string // queued, manual, or the refund's status
	AmountMinor int64
	Currency    string
	RefundID    *uuid.UUID
}

// lateRefundOf reads the refund of the late payment made with intentID in
// venue org: the refund's status, queued while the job has not made it, or
// manual when the payment cannot go back to the card by itself.
func lateRefundOf(ctx context.Context, s *payments.Service, org uuid.UUID, intentID string) (*LateRefund, error) {
	ctx = asVenueOperator(ctx, org)
	c := s.Client()
	pay, err := c.Payment.Query().Where(payment.ProcessorPaymentID(intentID), payment.KindEQ(payment.KindAppointment)).
		Order(ent.Asc(payment.FieldCreatedAt)).First(ctx)
	if ent.IsNotFound(err) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("appointments: late payment: %w", err)
	}
	out := &LateRefund{Status: LateRefundQueued, AmountMinor: pay.AmountMinor, Currency: pay.Currency}
	rf, err := c.Refund.Query().Where(refund.RequestKey(lateRefundKey(pay.ID))).Only(ctx)
	switch {
	case err == nil:
		out.Status, out.RefundID, out.AmountMinor = string(rf.Status), &rf.ID, rf.AmountMinor
		return out, nil
	case !ent.IsNotFound(err):
		return nil, fmt.Errorf("appointments: late refund: %w", err)
	}
	vp, err := c.VenuePayments.Query().Only(ctx)
	if s.Port() == nil || err != nil || vp.AccountID == nil || !strings.HasPrefix(intentID, "pi_") {
		out.Status = LateRefundManual
	}
	return out, nil
}
