package events_test

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/venueplatform/venue/ent"
	"github.com/venueplatform/venue/ent/payment"
	"github.com/venueplatform/venue/ent/paymentattempt"
	"github.com/venueplatform/venue/ent/refund"
	"github.com/venueplatform/venue/internal/events"
	"github.com/venueplatform/venue/internal/payments"
	_ "github.com/venueplatform/venue/internal/payments/refunds" // registers the refund reconciler
	"github.com/venueplatform/venue/internal/payments/stripeport"
)

func init() {
	coveredElsewhere[events.RefundSucceeded] = true
	coveredElsewhere[events.RefundFailed] = true
}

// refundReadPort is a Stripe whose intents have the given refunds.
type refundReadPort struct {
	stripeport.Port
	refunds []*stripeport.Refund
}

func (p refundReadPort) ListRefunds(context.Context, string, string) ([]*stripeport.Refund, error) {
	return p.refunds, nil
}

// TestRefundEventsRecordedWithTheChange: settling a refund records
// refund.succeeded (or refund.failed) with its delivery and job in the
// settling transaction, and nothing when it rolls back.
func TestRefundEventsRecordedWithTheChange(t *testing.T) {
	e := newCatalogueEnv(t)
	e.client.VenuePayments.Create().SetAccountID("acct_refund").SetChargesEnabled(true).SaveX(e.op)
	for _, c := range []struct {
		typ, status string
		want        refund.Status
	}{{events.RefundSucceeded, "succeeded", refund.StatusSucceeded}, {events.RefundFailed, "failed", refund.StatusFailed}} {
		pay := e.client.Payment.Create().SetAmountMinor(10000).SetCurrency("DKK").SetStatus(payment.StatusSucceeded).
			SetPaidAt(time.Now()).SetProcessorPaymentID("pi_" + c.status).SaveX(e.op)
		rf := e.client.Refund.Create().SetPaymentID(pay.ID).SetAmountMinor(4000).SetCurrency("DKK").
			SetDestination(refund.DestinationOriginalPaymentMethod).SaveX(e.op)
		at := e.client.PaymentAttempt.Create().SetPurpose(paymentattempt.PurposeRefund).SetSubjectID(rf.ID).
			SetNumber(1).SetState(paymentattempt.StateUnknown).SetLiveSubjectID(rf.ID).SaveX(e.op)
		port := refundReadPort{refunds: []*stripeport.Refund{{ID: "re_" + c.status, Status: c.status, AmountMinor: 4000,
			Currency: "DKK", Metadata: map[string]string{"attempt_id": at.ID.String()}}}}
		settle := func(ctx context.Context, tx *ent.Tx) error {
			return payments.New(tx.Client(), payments.Config{Port: port}).Reconcile(ctx, at.ID)
		}
		_, _, jobsBefore := e.outbox(t, c.typ)
		err := events.WithTx(e.op, e.client, func(ctx context.Context, tx *ent.Tx) error {
			if err := settle(ctx, tx); err != nil {
				return err
			}
			return errAbort
		})
		require.ErrorIs(t, err, errAbort)
		require.Equal(t, refund.StatusPending, e.client.Refund.GetX(e.op, rf.ID).Status)
		evs, ds, jobs := e.outbox(t, c.typ)
		require.Empty(t, evs, c.typ)
		require.Zero(t, ds, c.typ)
		require.Equal(t, jobsBefore, jobs, c.typ)

		require.NoError(t, events.WithTx(e.op, e.client, settle))
		require.Equal(t, c.want, e.client.Refund.GetX(e.op, rf.ID).Status)
		evs, ds, _ = e.outbox(t, c.typ)
		require.Len(t, evs, 1, c.typ)
		require.Equal(t, 1, ds, c.typ)
		for _, k := range []string{"refund_id", "payment_id", "amount_minor", "currency", "status", "destination", "origin"} {
			require.Contains(t, evs[0].Payload, k)
		}
	}
}
