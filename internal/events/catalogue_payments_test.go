package events_test

import (
	"context"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/stretchr/testify/require"

	"github.com/venueplatform/venue/ent"
	"github.com/venueplatform/venue/ent/checkout"
	"github.com/venueplatform/venue/ent/paymentattempt"
	"github.com/venueplatform/venue/internal/events"
	"github.com/venueplatform/venue/internal/members"
	"github.com/venueplatform/venue/internal/payments"
	"github.com/venueplatform/venue/internal/payments/stripeport"
)

// coveredElsewhere are the event types whose recording with the change is
// proved by a test of their own (below), not by TestCatalogueRecordedWithTheChange.
var coveredElsewhere = map[string]bool{
	events.PaymentSucceeded: true, events.PassActivated: true, events.PaymentFailed: true,
}

// readPort is a Stripe that answers one intent to every read.
type readPort struct {
	stripeport.Port
	intent *stripeport.Intent
}

func (p readPort) FindPaymentIntent(context.Context, string, string) (*stripeport.Intent, error) {
	return p.intent, nil
}

// TestPaymentEventsRecordedWithTheChange: settling a charge records
// payment.succeeded and pass.activated (or payment.failed) with their
// deliveries and jobs in the settling transaction, and nothing when it rolls
// back.
func TestPaymentEventsRecordedWithTheChange(t *testing.T) {
	e := newCatalogueEnv(t)
	e.client.VenuePayments.Create().SetAccountID("acct_cat").SetChargesEnabled(true).SaveX(e.op)
	en, err := members.Enroll(e.op, e.client, members.EnrollParams{Email: "buyer@example.com"})
	require.NoError(t, err)

	for _, c := range []struct {
		intent *stripeport.Intent
		types  []string
		data   []string
	}{
		{intent: &stripeport.Intent{ID: "pi_ok", Status: "succeeded", AmountMinor: 1000, Currency: "DKK"},
			types: []string{events.PaymentSucceeded, events.PassActivated}, data: []string{"checkout_id", "member_id"}},
		{intent: &stripeport.Intent{ID: "pi_no", Status: "requires_payment_method", DeclineCode: "insufficient_funds", FailureCode: "card_declined"},
			types: []string{events.PaymentFailed}, data: []string{"checkout_id", "decline_code"}},
	} {
		co := e.client.Checkout.Create().SetMemberID(en.Member.ID).SetPassTypeID(e.ten.ID).SetAmountMinor(1000).
			SetCurrency("DKK").SetVatMinor(200).SetVatRateBp(2500).SetQuoteFingerprint("qf1_" + uuid.NewString()).
			SetQuoteIssuedAt(time.Now()).SaveX(e.op)
		at := e.client.PaymentAttempt.Create().SetPurpose(paymentattempt.PurposeCheckoutCharge).SetSubjectID(co.ID).
			SetNumber(1).SetState(paymentattempt.StateUnknown).SetLiveSubjectID(co.ID).SaveX(e.op)
		settle := func(ctx context.Context, tx *ent.Tx) error {
			return payments.New(tx.Client(), payments.Config{Port: readPort{intent: c.intent}}).Reconcile(ctx, at.ID)
		}
		_, _, jobsBefore := e.outbox(t, c.types[0])
		err := events.WithTx(e.op, e.client, func(ctx context.Context, tx *ent.Tx) error {
			if err := settle(ctx, tx); err != nil {
				return err
			}
			return errAbort
		})
		require.ErrorIs(t, err, errAbort)
		require.Equal(t, paymentattempt.StateUnknown, e.client.PaymentAttempt.GetX(e.op, at.ID).State)
		for _, typ := range c.types {
			evs, ds, jobs := e.outbox(t, typ)
			require.Empty(t, evs, typ)
			require.Zero(t, ds, typ)
			require.Equal(t, jobsBefore, jobs, typ)
		}

		require.NoError(t, events.WithTx(e.op, e.client, settle))
		for _, typ := range c.types {
			evs, ds, jobs := e.outbox(t, typ)
			require.Len(t, evs, 1, typ)
			require.Equal(t, 1, ds, typ)
			require.Equal(t, jobsBefore+len(c.types), jobs, typ)
			for _, k := range c.data {
				require.Contains(t, evs[0].Payload, k, typ)
			}
		}
		if c.intent.Status == "succeeded" {
			require.Equal(t, checkout.StatusPaid, e.client.Checkout.GetX(e.op, co.ID).Status)
		}
	}
}
