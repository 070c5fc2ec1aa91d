package handlers_test

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/venueplatform/venue/ent/paymentattempt"
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
