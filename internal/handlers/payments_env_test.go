package handlers_test

import (
	"bytes"
	"context"
	"net/http"
	"testing"

	"github.com/google/uuid"
	"github.com/stretchr/testify/require"

	"github.com/venueplatform/venue/ent"
	"github.com/venueplatform/venue/ent/passtype"
	api "github.com/venueplatform/venue/internal/gen/api"
	"github.com/venueplatform/venue/internal/jobs"
	"github.com/venueplatform/venue/internal/payments"
	"github.com/venueplatform/venue/internal/payments/stripeport"
	"github.com/venueplatform/venue/internal/payments/stripetest"
	"github.com/venueplatform/venue/internal/server"
)

// payEnv is a studio taking card payments on a connected account of a fake
// Stripe, with a member signed in and a payments service on the same fake
// (the one the server's jobs would run).
type payEnv struct {
	*authEnv
	ctx    context.Context
	fake   *stripetest.Fake
	svc    *payments.Service
	member *api.Client
	ten    *ent.PassType
}

const (
	payAccount = "acct_studio"
	paySecret  = "whsec_test_platform"
)

// newPayEnv serves a studio whose Stripe is a fake; keyless leaves the
// Stripe key unset (card payments off), noAccount leaves the venue without a
// connected account.
func newPayEnv(t *testing.T, keyless, noAccount bool) *payEnv {
	t.Helper()
	fake := stripetest.New()
	t.Cleanup(fake.Close)
	fake.AddAccount(payAccount, true)
	if !keyless {
		t.Setenv("VENUE_STRIPE_SECRET_KEY", "sk_test_fake")
	}
	t.Setenv("VENUE_STRIPE_API_BASE", fake.URL)
	t.Setenv("VENUE_STRIPE_WEBHOOK_SECRET", paySecret)
	t.Setenv("VENUE_STRIPE_TIMEOUT", "400ms")
	s := newStudio(t, "pay")
	ctx := context.Background()
	_, err := jobs.Migrate(ctx, s.pool)
	require.NoError(t, err)
	if !noAccount {
		s.client.VenuePayments.Create().SetAccountID(payAccount).SetChargesEnabled(true).SetDetailsSubmitted(true).SetApplicationFeeBp(100).SaveX(s.op)
	}
	e := &payEnv{authEnv: newAuthEnv(t, s), ctx: ctx, fake: fake}
	e.ten = s.client.PassType.Query().Where(passtype.Slug("ten")).OnlyX(s.op)
	var port stripeport.Port
	if !keyless {
		port = stripeport.New(stripeport.Config{SecretKey: "sk_test_fake", APIBase: fake.URL})
	}
	e.svc = payments.New(s.client, payments.Config{Port: port, WebhookSecrets: []string{paySecret}})
	e.member = e.memberClient(t, "buyer@pay.example")
	return e
}

// memberClient signs up email, enrols it as a member of the studio and
// returns its bearer client.
func (e *payEnv) memberClient(t *testing.T, email string) *api.Client {
	t.Helper()
	s := e.signup(t, email, goodPassword)
	enroll(t, e.authEnv, e.op, email, "member")
	return e.client(t, s.AccessToken)
}

// quote previews the ten-clip card for c.
func (e *payEnv) quote(t *testing.T, c *api.Client) api.DirectPurchaseQuote {
	t.Helper()
	res, err := c.GetCheckoutPreview(e.ctx, api.GetCheckoutPreviewParams{XOrganizationID: e.venue.ID, PassTypeSlug: "ten"})
	require.NoError(t, err)
	q, ok := res.Data.DirectPurchaseQuote.Get()
	require.True(t, ok, "a one-off pass has a quote")
	return q
}

// buy purchases q with card (empty: the payment sheet confirms) under key.
func (e *payEnv) buy(c *api.Client, q api.DirectPurchaseQuote, card, key string) (*api.CheckoutPurchaseResponse, error) {
	req := &api.CheckoutPurchaseRequest{DirectPurchaseQuote: api.NewOptDirectPurchaseQuote(q)}
	if card != "" {
		req.PaymentMethodID = api.NewOptString(card)
	}
	return c.PurchaseCheckout(e.ctx, req, api.PurchaseCheckoutParams{XOrganizationID: e.venue.ID, IdempotencyKey: key})
}

// confirm confirms intent id for c.
func (e *payEnv) confirm(c *api.Client, id string) (*api.CheckoutConfirmResponse, error) {
	return c.ConfirmCheckout(e.ctx, &api.CheckoutConfirmRequest{PaymentIntentID: api.NewOptString(id)},
		api.ConfirmCheckoutParams{XOrganizationID: e.venue.ID})
}

// postEvent posts a signed event to the server's Stripe endpoint.
func (e *payEnv) postEvent(t *testing.T, body []byte, sig string) int {
	t.Helper()
	req, err := http.NewRequest(http.MethodPost, e.url+server.PaymentEventsPath, bytes.NewReader(body))
	require.NoError(t, err)
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Stripe-Signature", sig)
	res, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	res.Body.Close()
	return res.StatusCode
}

// runEventJobs works every queued payments.event job, as the server's
// workers would, and returns how many it ran.
func (e *payEnv) runEventJobs(t *testing.T) int {
	t.Helper()
	rows, err := e.pool.Query(e.ctx, `SELECT args->>'event_id' FROM river_job WHERE kind = 'payments.event' AND state = 'available'`)
	require.NoError(t, err)
	var ids []uuid.UUID
	for rows.Next() {
		var s string
		require.NoError(t, rows.Scan(&s))
		ids = append(ids, uuid.MustParse(s))
	}
	require.NoError(t, rows.Err())
	for _, id := range ids {
		require.NoError(t, e.svc.ProcessEvent(e.ctx, id))
	}
	_, err = e.pool.Exec(e.ctx, `UPDATE river_job SET state = 'completed', finalized_at = now() WHERE kind = 'payments.event' AND state = 'available'`)
	require.NoError(t, err)
	return len(ids)
}

// count counts rows of a table of the studio's venue.
func (e *payEnv) count(t *testing.T, table string) int {
	t.Helper()
	var n int
	require.NoError(t, e.pool.QueryRow(e.ctx, `SELECT count(*) FROM `+table+` WHERE organization_id = $1`, e.venue.ID).Scan(&n))
	return n
}

// intentCreates counts the intent creations the fake saw by key.
func intentCreates(f *stripetest.Fake) map[string]int {
	out := map[string]int{}
	for _, r := range f.Requests() {
		if r.Method == http.MethodPost && r.Path == "/v1/payment_intents" {
			out[r.IdempotencyKey]++
		}
	}
	return out
}
