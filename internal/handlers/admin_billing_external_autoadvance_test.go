package handlers_test

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/venueplatform/venue/ent/paymentattempt"
	"github.com/venueplatform/venue/ent/subscription"
	"github.com/venueplatform/venue/internal/billing"
	api "github.com/venueplatform/venue/internal/gen/api"
	"github.com/venueplatform/venue/internal/payments/stripetest"
)

// TestExternallyBilledStopsStripeRetries: a renewal the card declined is
// open and Stripe would retry it by itself. Moving the membership to
// external collection turns off that invoice's automatic collection
// (auto_advance false, under a key of the collection's attempt), so moving
// the billing clock past the retry charges nothing. Back to card turns it
// on again and the retry due charges the card.
func TestExternallyBilledStopsStripeRetries(t *testing.T) {
	e := newLifeEnv(t)
	inv := e.renew(t, true)
	sid := *inv.ProcessorInvoiceID
	on, writes := e.fake.AutoAdvance(sid)
	require.True(t, on)
	require.Zero(t, writes)

	_, err := e.collect(api.BillingCollectionRequestCollectionExternal, "ext-1")
	require.NoError(t, err)
	on, writes = e.fake.AutoAdvance(sid)
	require.False(t, on, "Stripe's automatic collection of the open invoice is off")
	require.Equal(t, 1, writes)
	at := e.db().PaymentAttempt.Query().Where(paymentattempt.PurposeEQ(paymentattempt.PurposeSubscriptionUpdate)).
		Order(paymentattempt.ByNumber()).AllX(e.op)
	last := at[len(at)-1]
	require.Equal(t, paymentattempt.StateSucceeded, last.State)
	var key string
	for _, r := range e.fake.Requests() {
		if r.Method == http.MethodPost && r.Path == "/v1/invoices/"+sid {
			key = r.IdempotencyKey
		}
	}
	require.True(t, strings.Contains(key, last.ID.String()) && strings.HasSuffix(key, "auto_advance:"+sid),
		"the write goes under a key of the collection's attempt: %s", key)

	charges := e.fake.InvoiceCharges()
	_, err = e.clock.Advance(context.Background(), e.clock.Now.Add(stripetest.RetryAfter+time.Hour))
	require.NoError(t, err)
	require.Equal(t, charges, e.fake.InvoiceCharges(), "no further charge of the invoice")

	e.fake.DeclineRenewals(nil)
	_, err = e.collect(api.BillingCollectionRequestCollectionCard, "card-1")
	require.NoError(t, err)
	on, writes = e.fake.AutoAdvance(sid)
	require.True(t, on, "back to card: Stripe collects it again")
	require.Equal(t, 2, writes)
	_, err = e.clock.Advance(context.Background(), e.clock.Now.Add(time.Hour))
	require.NoError(t, err)
	require.Equal(t, charges+1, e.fake.InvoiceCharges(), "the retry due charges the card")
}

// TestExternallyBilledAutoAdvanceLost: Stripe's answer to the auto_advance
// write of the open invoice is lost (the write applied) while moving the
// membership to external collection: the change is 409
// UNKNOWN_WRITE_OUTCOME and not recorded yet. The reconcile sends the same
// writes again under the same keys: the collection is recorded once,
// auto_advance is off at Stripe, and each write took effect once.
func TestExternallyBilledAutoAdvanceLost(t *testing.T) {
	e := newLifeEnv(t)
	inv := e.renew(t, true)
	sid := *inv.ProcessorInvoiceID
	sub := e.db().Subscription.Query().Where(subscription.PassID(e.pass)).OnlyX(e.op)

	e.fake.DropInvoiceUpdates(10) // every retry of the client too
	_, err := e.collect(api.BillingCollectionRequestCollectionExternal, "lost-1")
	requireCode(t, err, http.StatusConflict, "UNKNOWN_WRITE_OUTCOME")
	e.fake.DropInvoiceUpdates(0)
	require.Equal(t, subscription.CollectionCard, e.db().Subscription.GetX(e.op, sub.ID).Collection, "not recorded yet")
	on, writes := e.fake.AutoAdvance(sid)
	require.False(t, on, "Stripe applied the write whose answer was lost")
	require.Equal(t, 1, writes)

	at := e.lastUpdate(t)
	require.Equal(t, []any{sid}, at.Intent["paused_invoices"])
	e.asSwept(t, at)
	require.NoError(t, e.svc.Reconcile(e.op, at.ID))
	require.Equal(t, paymentattempt.StateSucceeded, e.db().PaymentAttempt.GetX(e.op, at.ID).State)
	require.Equal(t, subscription.CollectionExternal, e.db().Subscription.GetX(e.op, sub.ID).Collection)
	require.Equal(t, 1, e.audits(t, billing.AuditCollectionChanged))
	on, writes = e.fake.AutoAdvance(sid)
	require.False(t, on, "auto_advance is off at Stripe")
	require.Equal(t, 1, writes, "the resent write replayed, applied once")
	require.Equal(t, 1, e.fake.SubscriptionUpdates(*sub.ProcessorSubscriptionID), "one collection update")
	keys := map[string]int{}
	for _, r := range e.fake.Requests() {
		if r.Method == http.MethodPost && r.Path == "/v1/invoices/"+sid {
			keys[r.IdempotencyKey]++
		}
	}
	require.Len(t, keys, 1, "every send under the one key of the attempt and invoice")
	for k, n := range keys {
		require.Greater(t, n, 1, "the reconcile sent it again")
		require.True(t, strings.Contains(k, at.ID.String()) && strings.HasSuffix(k, "auto_advance:"+sid), k)
	}

	charges := e.fake.InvoiceCharges()
	_, err = e.clock.Advance(context.Background(), e.clock.Now.Add(stripetest.RetryAfter+time.Hour))
	require.NoError(t, err)
	require.Equal(t, charges, e.fake.InvoiceCharges(), "Stripe no longer retries the invoice")
}
