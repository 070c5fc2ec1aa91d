package handlers_test

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"net/http/httptest"
	"slices"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/venueplatform/venue/ent"
	"github.com/venueplatform/venue/ent/passtype"
	"github.com/venueplatform/venue/internal/accounts"
	"github.com/venueplatform/venue/internal/db"
	api "github.com/venueplatform/venue/internal/gen/api"
	"github.com/venueplatform/venue/internal/identity/token"
	"github.com/venueplatform/venue/internal/members"
	"github.com/venueplatform/venue/internal/payments/stripetest"
	"github.com/venueplatform/venue/internal/pgtest"
	"github.com/venueplatform/venue/internal/server"
	"github.com/venueplatform/venue/internal/venue"
)

// payBench is a venue on a fake Stripe with n members signed in.
type payBench struct {
	org     *venue.Venue
	members []*api.Client
	client  *ent.Client
}

func newPayBench(b *testing.B, n int) *payBench {
	b.Helper()
	pool := pgtest.NewPool(b)
	client := db.NewClient(pool)
	ctx := context.Background()
	v, err := venue.Create(ctx, client, venue.CreateParams{Name: "Bench", Slug: "pay-bench"})
	require.NoError(b, err)
	op := opOf(v.ID)
	client.PassType.Create().SetName("Ten").SetSlug("ten").SetCategory(passtype.CategoryClipCard).
		SetPriceMinor(120000).SetCurrency("DKK").SetClips(10).SaveX(op)
	client.VenuePayments.Create().SetAccountID(payAccount).SetChargesEnabled(true).SaveX(op)
	fake := stripetest.New()
	b.Cleanup(fake.Close)
	key, err := token.GenerateSigningKey()
	require.NoError(b, err)
	acct, err := accounts.New(client, accounts.Config{SigningKey: key, Sink: &sink{}})
	require.NoError(b, err)
	set := settings(b)
	set.Payments.SecretKey, set.Payments.APIBase = "sk_test_bench", fake.URL
	h, err := server.New(server.Deps{Pool: pool, Client: client, Accounts: acct, Settings: set,
		Log: slog.New(slog.NewJSONHandler(io.Discard, nil))})
	require.NoError(b, err)
	srv := httptest.NewServer(h)
	b.Cleanup(srv.Close)
	pb := &payBench{org: v, client: client}
	for i := range n {
		en, err := members.Enroll(op, client, members.EnrollParams{Email: fmt.Sprintf("m%d@bench.example", i)})
		require.NoError(b, err)
		tok, _, err := acct.Tokens().Issue(token.Claims{Subject: en.User.ID.String(), SessionID: en.User.ID.String()})
		require.NoError(b, err)
		c, err := api.NewClient(srv.URL+"/api/v1", bearer(tok))
		require.NoError(b, err)
		pb.members = append(pb.members, c)
	}
	return pb
}

// p50 reports the median of d as a metric.
func p50(b *testing.B, d []time.Duration, unit string) {
	slices.Sort(d)
	b.ReportMetric(float64(d[len(d)/2].Microseconds())/1000, unit)
}

// BenchmarkCheckoutPreview measures GET /me/checkout/preview against GET /me
// by the same member in the same run (the baseline: the same credential,
// middleware chain and envelope, one read of the user's rows), and a preview
// with a start date and locale da; all are reported as medians.
func BenchmarkCheckoutPreview(b *testing.B) {
	// Members take turns: each stays under the per-principal limit (100 a
	// minute; three requests an iteration).
	pb := newPayBench(b, b.N/30+1)
	ctx := context.Background()
	base, preview := make([]time.Duration, 0, b.N), make([]time.Duration, 0, b.N)
	// A start date ten days ahead, in Danish (the preview's start_date and locale).
	started, start := make([]time.Duration, 0, b.N), time.Now().UTC().Truncate(24*time.Hour).AddDate(0, 0, 10)
	b.ResetTimer()
	for i := range b.N {
		m := pb.members[i/30]
		t0 := time.Now()
		_, err := m.GetMe(ctx)
		base = append(base, time.Since(t0))
		if err != nil {
			b.Fatal(err)
		}
		t0 = time.Now()
		_, err = m.GetCheckoutPreview(ctx, api.GetCheckoutPreviewParams{XOrganizationID: pb.org.ID, PassTypeSlug: "ten"})
		preview = append(preview, time.Since(t0))
		if err != nil {
			b.Fatal(err)
		}
		t0 = time.Now()
		_, err = m.GetCheckoutPreview(ctx, api.GetCheckoutPreviewParams{XOrganizationID: pb.org.ID, PassTypeSlug: "ten",
			StartDate: api.NewOptDate(start), Locale: api.NewOptGetCheckoutPreviewLocale(api.GetCheckoutPreviewLocaleDa)})
		started = append(started, time.Since(t0))
		if err != nil {
			b.Fatal(err)
		}
	}
	b.StopTimer()
	p50(b, preview, "preview-p50-ms")
	p50(b, started, "preview-start-p50-ms")
	p50(b, base, "me-p50-ms")
}

// BenchmarkCheckoutPurchase measures preview plus purchase (a fake Stripe on
// loopback answering at once), one new member per purchase.
func BenchmarkCheckoutPurchase(b *testing.B) {
	pb := newPayBench(b, b.N)
	ctx := context.Background()
	purchase := make([]time.Duration, 0, b.N)
	b.ResetTimer()
	for i := range b.N {
		m := pb.members[i]
		res, err := m.GetCheckoutPreview(ctx, api.GetCheckoutPreviewParams{XOrganizationID: pb.org.ID, PassTypeSlug: "ten"})
		if err != nil {
			b.Fatal(err)
		}
		t0 := time.Now()
		out, err := m.PurchaseCheckout(ctx, &api.CheckoutPurchaseRequest{DirectPurchaseQuote: res.Data.DirectPurchaseQuote,
			PaymentMethodID: api.NewOptString("pm_card_visa")}, api.PurchaseCheckoutParams{XOrganizationID: pb.org.ID, IdempotencyKey: fmt.Sprintf("b-%d", i)})
		purchase = append(purchase, time.Since(t0))
		if err != nil {
			b.Fatal(err)
		}
		if out.Data.PaymentStatus != api.CheckoutPurchasePaymentStatusSucceeded {
			b.Fatalf("status %s", out.Data.PaymentStatus)
		}
	}
	b.StopTimer()
	p50(b, purchase, "purchase-p50-ms")
}
