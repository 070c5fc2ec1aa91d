package bench

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"sync"
	"time"

	"github.com/venueplatform/venue/ent"
	"github.com/venueplatform/venue/ent/venuepayments"
	"github.com/venueplatform/venue/internal/config"
	"github.com/venueplatform/venue/internal/db"
	"github.com/venueplatform/venue/internal/payments/stripetest"
	"github.com/venueplatform/venue/internal/viewer"
)

// Card checkout in the tool. The service the tool serves takes card
// payments against a fake Stripe at the network boundary (package
// stripetest: an HTTP server on loopback answering like Stripe, every
// charge succeeding at once), started once per process; the data step of
// an op with Payments connects each venue of the members family to an
// account of the fake (a venue_payments row, charges enabled). So a
// purchase runs the whole path of a real one (quote check, checkout and
// attempt rows committed, the Stripe call over HTTP, activation with its
// events) without the real Stripe's latency.

// PurchasePassTypes are the seeded pass types the purchase op buys (one-off
// passes: every purchase charges a card, none is a free start).
var PurchasePassTypes = []string{"10-clip-card", "drop-in"}

var (
	fakeOnce   sync.Once
	fakeStripe *stripetest.Fake
)

// benchStripe is the process's fake Stripe.
func benchStripe() *stripetest.Fake {
	fakeOnce.Do(func() { fakeStripe = stripetest.New() })
	return fakeStripe
}

// serviceSettings is the configuration of the service the tool serves: the
// defaults, with card payments through the fake Stripe.
func serviceSettings() *config.Config {
	c := config.Default()
	c.Payments.SecretKey = "sk_test_bench"
	c.Payments.APIBase = benchStripe().URL
	return &c
}

// preparePayments connects every venue of ds to an account of the fake
// Stripe (reusing a venue's account when the data set was seeded before).
func preparePayments(ctx context.Context, ds *DataSet) error {
	client := db.NewClient(ds.Pool)
	for i := range ds.Venues {
		v := &ds.Venues[i]
		vctx := viewer.NewContext(ctx, viewer.Operator{Org: v.ID, Name: "bench"})
		acct := "acct_bench_" + v.ID.String()[:8]
		vp, err := client.VenuePayments.Query().Where(venuepayments.OrganizationID(v.ID)).Only(vctx)
		switch {
		case ent.IsNotFound(err):
			err = client.VenuePayments.Create().SetAccountID(acct).SetChargesEnabled(true).SetDetailsSubmitted(true).Exec(vctx)
		case err == nil:
			if vp.AccountID != nil {
				acct = *vp.AccountID
			}
			err = client.VenuePayments.UpdateOne(vp).SetAccountID(acct).SetChargesEnabled(true).SetDetailsSubmitted(true).Exec(vctx)
		}
		if err != nil {
			return fmt.Errorf("card payments of %s: %w", v.Slug, err)
		}
		benchStripe().AddAccount(acct, true)
	}
	return nil
}

// previewClient fetches the quote a purchase buys.
var previewClient = &http.Client{Timeout: 30 * time.Second}

// buyers chooses the member and pass type of each purchase. A preview
// signs the same quote for the same member and pass type within one second
// of the server's clock (its issued_at is whole seconds), and a quote is
// bought once (a second purchase of it is 422 ALREADY_PAID), so a member
// previews one pass type at most once in two seconds of the tool's clock
// (the preview may reach the server in the next second): request n takes
// the first pair from n on that is free. chosen hands the member to the
// request's header.
var buyers = struct {
	sync.Mutex
	last   map[string]int64
	chosen map[uint64]string
}{last: map[string]int64{}, chosen: map[uint64]string{}}

// pickBuyer returns the access token of request n's member and the slug of
// the pass type it buys.
func pickBuyer(v *Venue, n uint64) (string, string) {
	if len(v.Tokens) == 0 {
		return "", PurchasePassTypes[0]
	}
	now := time.Now().Unix()
	pairs := uint64(len(v.Tokens) * len(PurchasePassTypes))
	pair := func(i uint64) (string, string) {
		i %= pairs
		return v.Tokens[i/uint64(len(PurchasePassTypes))], PurchasePassTypes[i%uint64(len(PurchasePassTypes))]
	}
	buyers.Lock()
	defer buyers.Unlock()
	tok, slug := pair(n)
	for k := range pairs {
		t, sl := pair(n + k)
		if last, ok := buyers.last[t+"|"+sl]; !ok || last < now-1 {
			tok, slug = t, sl
			break
		}
	}
	buyers.last[tok+"|"+slug] = now
	buyers.chosen[n] = tok
	return tok, slug
}

// buyerHeader sets request n's member (pickBuyer's choice), the venue it
// acts in and a new Idempotency-Key.
func buyerHeader(h http.Header, v *Venue, n uint64) {
	buyers.Lock()
	tok, ok := buyers.chosen[n]
	delete(buyers.chosen, n)
	buyers.Unlock()
	if ok {
		h.Set("Authorization", "Bearer "+tok)
	}
	memberVenue(h, v, n)
	newIdempotencyKey(h, v, n)
}

// purchaseBody is request n's purchase: the member of request n (pickBuyer)
// previews the clip card or the drop-in (GET /me/checkout/preview, part of the measured time: a
// quote is bought once and lives five minutes, so each purchase needs its
// own) and buys its direct_purchase_quote with a saved card. A failed
// preview gives an empty body, which the purchase refuses (an error of the
// op).
func purchaseBody(ds *DataSet, n uint64) []byte {
	v := firstVenue(ds)
	tok, slug := pickBuyer(v, n)
	req, err := http.NewRequest(http.MethodGet, ds.ServiceURL+"/api/v1/me/checkout/preview?pass_type_slug="+slug, nil)
	if err != nil {
		return []byte(`{}`)
	}
	req.Header.Set("Authorization", "Bearer "+tok)
	req.Header.Set("X-Organization-ID", v.ID.String())
	req.Header.Set("X-Forwarded-For", clientAddr(mix(n^0x5bd1e995)>>32))
	res, err := previewClient.Do(req)
	if err != nil {
		return []byte(`{}`)
	}
	defer res.Body.Close()
	var pv struct {
		Data struct {
			Quote json.RawMessage `json:"direct_purchase_quote"`
		} `json:"data"`
	}
	if res.StatusCode != http.StatusOK || json.NewDecoder(res.Body).Decode(&pv) != nil || pv.Data.Quote == nil {
		return []byte(`{}`)
	}
	b, _ := json.Marshal(map[string]any{"direct_purchase_quote": pv.Data.Quote, "payment_method_id": "pm_card_visa"})
	return b
}

// checkPurchased accepts a purchase that succeeded (the pass is active).
func checkPurchased(body []byte) error {
	var r struct {
		Data struct {
			Status string `json:"payment_status"`
		} `json:"data"`
	}
	if err := json.Unmarshal(body, &r); err != nil || r.Data.Status != "succeeded" {
		return fmt.Errorf("not succeeded: %s", clip(body, 160))
	}
	return nil
}

func init() {
	Register(&Op{
		Name: "members-checkout-buy",
		Help: "GET /api/v1/me/checkout/preview of the 10-clip card or the drop-in, then POST /api/v1/me/checkout/purchase of its quote " +
			"with a saved card (a new Idempotency-Key each), measured together; card payments through a fake Stripe on " +
			"loopback; on each --member-scales venue",
		Family:   FamilyMembers,
		Bearer:   true,
		Payments: true,
		Request:  func(ds *DataSet, _ uint64) (string, *Venue) { return "/api/v1/me/checkout/purchase", firstVenue(ds) },
		Body:     purchaseBody,
		Header:   buyerHeader,
		Check:    checkPurchased,
		Goals:    []Goal{{Kind: GoalScaleP99, Limit: 2}},
	})
}
