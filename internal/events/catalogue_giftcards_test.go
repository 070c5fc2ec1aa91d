package events_test

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/venueplatform/venue/ent"
	"github.com/venueplatform/venue/ent/giftcardorder"
	"github.com/venueplatform/venue/ent/paymentattempt"
	"github.com/venueplatform/venue/internal/events"
	"github.com/venueplatform/venue/internal/members"
	"github.com/venueplatform/venue/internal/payments"
	"github.com/venueplatform/venue/internal/payments/giftcards"
	"github.com/venueplatform/venue/internal/payments/stripeport"
)

func init() { coveredElsewhere[events.GiftCardPurchased] = true }

// TestGiftCardPurchasedRecordedWithTheChange: settling a gift card order's
// charge records gift_card.purchased (and payment.succeeded) with their
// deliveries and jobs in the settling transaction, and nothing when it
// rolls back.
func TestGiftCardPurchasedRecordedWithTheChange(t *testing.T) {
	e := newCatalogueEnv(t)
	e.client.VenuePayments.Create().SetAccountID("acct_gift").SetChargesEnabled(true).SaveX(e.op)
	en, err := members.Enroll(e.op, e.client, members.EnrollParams{Email: "giver@example.com"})
	require.NoError(t, err)
	o := e.client.GiftCardOrder.Create().SetMemberID(en.Member.ID).SetRequestKey("rk-1").SetAmountMinor(50000).
		SetCurrency("DKK").SetRecipientEmail("friend@example.com").SetDeliverAt(time.Now()).SaveX(e.op)
	at := e.client.PaymentAttempt.Create().SetPurpose(giftcards.Purpose).SetSubjectID(o.ID).
		SetNumber(1).SetState(paymentattempt.StateUnknown).SetLiveSubjectID(o.ID).SaveX(e.op)
	in := &stripeport.Intent{ID: "pi_gift", Status: "succeeded", AmountMinor: 50000, Currency: "DKK"}
	settle := func(ctx context.Context, tx *ent.Tx) error {
		return payments.New(tx.Client(), payments.Config{Port: readPort{intent: in}}).Reconcile(ctx, at.ID)
	}
	types := []string{events.GiftCardPurchased, events.PaymentSucceeded}
	_, _, jobsBefore := e.outbox(t, types[0])
	err = events.WithTx(e.op, e.client, func(ctx context.Context, tx *ent.Tx) error {
		if err := settle(ctx, tx); err != nil {
			return err
		}
		return errAbort
	})
	require.ErrorIs(t, err, errAbort)
	require.Equal(t, giftcardorder.StatusOpen, e.client.GiftCardOrder.GetX(e.op, o.ID).Status)
	for _, typ := range types {
		evs, ds, jobs := e.outbox(t, typ)
		require.Empty(t, evs, typ)
		require.Zero(t, ds, typ)
		require.Equal(t, jobsBefore, jobs, typ)
	}

	require.NoError(t, events.WithTx(e.op, e.client, settle))
	require.Equal(t, giftcardorder.StatusPaid, e.client.GiftCardOrder.GetX(e.op, o.ID).Status)
	for _, typ := range types {
		evs, ds, _ := e.outbox(t, typ)
		require.Len(t, evs, 1, typ)
		require.Equal(t, 1, ds, typ)
	}
	evs, _, _ := e.outbox(t, events.GiftCardPurchased)
	for _, k := range []string{"gift_card_id", "order_id", "payment_id", "amount_minor", "currency", "deliver_at"} {
		require.Contains(t, evs[0].Payload, k)
	}
}
