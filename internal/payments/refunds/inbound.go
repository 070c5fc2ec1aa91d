package refunds

import (
	"context"
	"fmt"
	"time"

	"github.com/google/uuid"

	"github.com/venueplatform/venue/ent"
	"github.com/venueplatform/venue/ent/payment"
	"github.com/venueplatform/venue/ent/paymentattempt"
	"github.com/venueplatform/venue/ent/refund"
	"github.com/venueplatform/venue/internal/events"
	"github.com/venueplatform/venue/internal/payments"
	"github.com/venueplatform/venue/internal/payments/stripeport"
	"github.com/venueplatform/venue/internal/system"
	"github.com/venueplatform/venue/internal/viewer"
)

func init() {
	payments.RegisterReconciler(paymentattempt.PurposeRefund, reconcile)
	for _, typ := range []string{"refund.created", "refund.updated", "refund.failed", "charge.refund.updated"} {
		payments.RegisterEventHandler(typ, withService(onRefundObject))
	}
	payments.RegisterEventHandler("charge.refunded", withService(onChargeRefunded))
}

// withService adapts a handler of the client and the port to the payments
// service's event handler.
func withService(h func(context.Context, *ent.Client, stripeport.Port, *stripeport.Event) (string, error)) payments.EventHandler {
	return func(ctx context.Context, s *payments.Service, ev *stripeport.Event) (string, error) {
		return h(ctx, s.Client(), s.Port(), ev)
	}
}

// inVenue is a refunds job's context in one venue, as its operator.
// Elevation site: the job holds only ids; the venue is the one the attempt
// or the refunded payment names.
func inVenue(ctx context.Context, org uuid.UUID) context.Context {
	return system.Elevate(ctx, "refunds.job_venue", viewer.Operator{Org: org, Name: "refunds"})
}

// reconcile settles a refund attempt whose Stripe call went unanswered, by
// reading the intent's refunds for the one whose metadata names the
// attempt. None after payments.SearchLag means the refund was never made:
// the attempt is canceled and the refund failed, its amount refundable
// again. It never writes to Stripe.
func reconcile(ctx context.Context, client *ent.Client, port stripeport.Port, at *ent.PaymentAttempt) error {
	s := New(client, port, nil)
	rf, err := client.Refund.Get(ctx, at.SubjectID)
	if err != nil {
		return fmt.Errorf("refunds: reconcile: %w", err)
	}
	pay, err := client.Payment.Get(ctx, rf.PaymentID)
	if err != nil {
		return fmt.Errorf("refunds: reconcile payment: %w", err)
	}
	vp, err := client.VenuePayments.Query().Only(ctx)
	if err != nil || vp.AccountID == nil || pay.ProcessorPaymentID == nil {
		return fmt.Errorf("refunds: reconcile: venue account: %v", err)
	}
	list, err := port.ListRefunds(ctx, *vp.AccountID, *pay.ProcessorPaymentID)
	if err != nil {
		return fmt.Errorf("refunds: reconcile read: %w", err)
	}
	for _, r := range list {
		if r.Metadata["attempt_id"] == at.ID.String() {
			_, err := s.apply(ctx, at.ID, r)
			return err
		}
	}
	if s.now().Sub(at.CreatedAt) < payments.SearchLag {
		return fmt.Errorf("refunds: reconcile: no refund found yet for attempt %s", at.ID)
	}
	_, err = s.apply(ctx, at.ID, &stripeport.Refund{Status: "canceled", FailureReason: "not_created"})
	return err
}

// onRefundObject applies a refund event to the refund its metadata names
// (a refund of ours); others are not ours.
func onRefundObject(ctx context.Context, client *ent.Client, port stripeport.Port, ev *stripeport.Event) (string, error) {
	r, err := stripeport.RefundFromObject(ev.Object)
	if err != nil {
		return "malformed", nil
	}
	org, err1 := uuid.Parse(r.Metadata["organization_id"])
	attemptID, err2 := uuid.Parse(r.Metadata["attempt_id"])
	if err1 != nil || err2 != nil {
		return "not_ours", nil
	}
	vctx := inVenue(ctx, org)
	at, err := client.PaymentAttempt.Get(vctx, attemptID)
	if ent.IsNotFound(err) || (err == nil && at.Purpose != paymentattempt.PurposeRefund) {
		return "not_ours", nil
	}
	if err != nil {
		return "", err
	}
	rf, err := New(client, port, nil).apply(vctx, at.ID, r)
	if err != nil {
		return "", err
	}
	return "refund_" + string(rf.Status), nil
}

// onChargeRefunded keeps our rows the truth when Stripe says how much of a
// charge is refunded: a refund made outside the service (the Stripe
// dashboard) is recorded as a processor refund for the difference between
// Stripe's amount_refunded and what our pending and succeeded refunds hold,
// and the payment's status follows its succeeded refunds. Our own refunds
// settle by their own events and answers; this never double counts them.
func onChargeRefunded(ctx context.Context, client *ent.Client, _ stripeport.Port, ev *stripeport.Event) (string, error) {
	ch, err := stripeport.ChargeFromObject(ev.Object)
	if err != nil || ch.PaymentIntent == "" {
		return "malformed", nil
	}
	// System call site: a refunded charge names only its intent; the payment
	// row that holds it says which venue's rows change.
	pay, err := client.Payment.Query().Where(payment.ProcessorPaymentID(ch.PaymentIntent)).
		First(system.Allow(ctx, "refunds.event_lookup"))
	if ent.IsNotFound(err) {
		return "not_ours", nil
	}
	if err != nil {
		return "", err
	}
	vctx := inVenue(ctx, pay.OrganizationID)
	outcome := "refund_in_step"
	err = events.WithTx(vctx, client, func(ctx context.Context, tx *ent.Tx) error {
		pay, err := tx.Payment.Query().Where(payment.ID(pay.ID)).ForUpdate().Only(ctx)
		if err != nil {
			return err
		}
		sofar, err := refundedSoFar(ctx, tx.Client(), pay.ID)
		if err != nil {
			return err
		}
		refunded := min(ch.AmountRefunded, pay.AmountMinor)
		if refunded > sofar {
			rf, err := tx.Refund.Create().SetPaymentID(pay.ID).SetNillableMemberID(pay.MemberID).
				SetAmountMinor(refunded - sofar).SetCurrency(pay.Currency).SetOrigin(refund.OriginProcessor).
				SetDestination(refund.DestinationOriginalPaymentMethod).SetReason("refunded at the processor").
				Save(ctx)
			if err != nil {
				return err
			}
			if _, err := settle(ctx, tx, rf, pay, "", time.Now()); err != nil {
				return err
			}
			outcome = "refund_recorded"
			return nil
		}
		return syncPaymentStatus(ctx, tx, pay)
	})
	return outcome, err
}
