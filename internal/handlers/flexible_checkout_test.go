package handlers_test

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/venueplatform/venue/ent/checkout"
	"github.com/venueplatform/venue/ent/pass"
	"github.com/venueplatform/venue/ent/passtype"
	"github.com/venueplatform/venue/internal/billing"
	"github.com/venueplatform/venue/internal/billing/billingclock"
	api "github.com/venueplatform/venue/internal/gen/api"
	"github.com/venueplatform/venue/internal/model"
	"github.com/venueplatform/venue/internal/payments"
)

// flexPreview previews the studio's flexible membership with q classes a
// period (0: unlimited) for c.
func (e *payEnv) flexPreview(c *api.Client, q int) (*api.FlexibleCheckoutPreviewResponse, error) {
	p := api.PreviewFlexibleCheckoutParams{XOrganizationID: e.venue.ID, PassTypeSlug: "flexible",
		Kind: api.PreviewFlexibleCheckoutKindUnlimited}
	if q > 0 {
		p.Kind, p.Quantity = api.PreviewFlexibleCheckoutKindQuantity, api.NewOptInt(q)
	}
	return c.PreviewFlexibleCheckout(e.ctx, p)
}

func (e *payEnv) flexBuy(c *api.Client, q api.FlexibleQuote, card, key string) (*api.CheckoutPurchaseResponse, error) {
	req := &api.FlexibleCheckoutPurchaseRequest{FlexibleQuote: q}
	if card != "" {
		req.PaymentMethodID = api.NewOptString(card)
	}
	return c.PurchaseFlexibleCheckout(e.ctx, req, api.PurchaseFlexibleCheckoutParams{XOrganizationID: e.venue.ID, IdempotencyKey: key})
}

// TestFlexibleCheckoutBuysSelection: the member previews 9 classes a month
// (priced whole in the 90.00 tier), buys the quote unchanged, and gets an
// active pass with 9 classes a period; the charge is exactly the quote and
// the renewals start at the selection's period price, which the next
// invoice charges.
func TestFlexibleCheckoutBuysSelection(t *testing.T) {
	e := newPayEnv(t, false, false)
	e.fake.SetEventSecret(paySecret)
	res, err := e.flexPreview(e.member, 9)
	require.NoError(t, err)
	d := res.Data
	require.Equal(t, api.PurchaseObligationStatusAvailable, d.PurchaseObligation.Status)
	require.Equal(t, int64(81000), d.ChargedTodayMinor, "9 classes at 90.00")
	require.Equal(t, 810.0, d.ChargedToday)
	require.Equal(t, int64(16200), d.VatMinor, "25 % VAT included")
	require.Equal(t, 9, d.FlexibleSelection.ClassAllowance.Value)
	require.Equal(t, "9 classes", d.FlexibleSelection.AllowanceLabel)
	q := d.FlexibleQuote
	require.Equal(t, int64(81000), q.PeriodPriceMinor)
	require.Equal(t, int64(81000), q.ChargedTodayMinor)
	require.Equal(t, 9, q.Selection.Quantity.Value)
	require.Equal(t, q.IssuedAt.Add(payments.QuoteTTL), q.ExpiresAt)
	require.NotEmpty(t, q.AuthorityFingerprint)
	require.NotEmpty(t, q.PurchaseObligationFingerprint)
	require.Equal(t, "end_of_period", string(d.PurchaseObligation.Cancellation.Value.Kind))
	require.Equal(t, int64(81000), d.PurchaseObligation.Commitment.Value.FullPriceAmountMinor)

	bought, err := e.flexBuy(e.member, q, "pm_card_visa", "flex-buy-1")
	require.NoError(t, err)
	require.Equal(t, api.CheckoutPurchasePaymentStatusSucceeded, bought.Data.PaymentStatus)
	require.Equal(t, int64(81000), bought.Data.FrozenCheckout.ChargedTodayMinor)
	require.EqualValues(t, 81000, e.fake.Intent(bought.Data.PaymentIntentID.Value)["amount"], "the quote is charged exactly")
	again, err := e.flexBuy(e.member, q, "pm_card_visa", "flex-buy-1")
	require.NoError(t, err, "a retry replays the answer")
	require.Equal(t, bought.Data.CheckoutID, again.Data.CheckoutID)
	require.Len(t, e.fake.Intents(), 1)

	p := e.studio.client.Pass.GetX(e.op, bought.Data.PassID.Value)
	require.Equal(t, pass.StatusActive, p.Status)
	require.Equal(t, pass.FlexibleKindQuantity, *p.FlexibleKind)
	require.Equal(t, 9, *p.FlexibleQuantity, "the class allowance per period")
	require.Equal(t, p.ValidFrom.AddDate(0, 1, 0), *p.ValidTo, "one month is paid")
	co := e.studio.client.Checkout.GetX(e.op, bought.Data.CheckoutID)
	require.Equal(t, checkout.FlexibleKindQuantity, *co.FlexibleKind)

	// The member's view of the membership shows the selection bought.
	ch, err := e.member.GetFlexibleChoices(e.ctx, api.GetFlexibleChoicesParams{ID: p.ID, XOrganizationID: e.venue.ID})
	require.NoError(t, err)
	require.Equal(t, 9, ch.Data.Current.Quantity.Value)
	require.Equal(t, int64(81000), ch.Data.CurrentPriceMinor)

	// The renewals start at the selection's period price, not the pass
	// type's 400.00, and the first renewal invoice charges it.
	sub, err := billing.New(e.svc).Start(e.op, p.ID)
	require.NoError(t, err)
	require.Equal(t, int64(81000), sub.AmountMinor)
	amount, next := e.fake.SubscriptionAmount(*sub.ProcessorSubscriptionID)
	require.Equal(t, int64(81000), amount)
	clock := &billingclock.Clock{Fake: e.fake, Pay: e.svc, Now: time.Now()}
	_, err = clock.Advance(e.op, next.Add(time.Hour))
	require.NoError(t, err)
	require.Equal(t, []int64{81000}, e.fake.InvoiceAmounts(*sub.ProcessorSubscriptionID))
}

// TestFlexibleCheckoutUnlimitedAndResume: unlimited is priced at its own
// price; bought without a card it is an unpaid reservation whose resume
// shows the selection frozen on the checkout.
func TestFlexibleCheckoutUnlimitedAndResume(t *testing.T) {
	e := newPayEnv(t, false, false)
	res, err := e.flexPreview(e.member, 0)
	require.NoError(t, err)
	require.Equal(t, int64(120000), res.Data.FlexibleQuote.ChargedTodayMinor)
	require.True(t, res.Data.FlexibleQuote.Selection.Quantity.Null)
	require.True(t, res.Data.FlexibleSelection.ClassAllowance.Null)

	bought, err := e.flexBuy(e.member, res.Data.FlexibleQuote, "", "flex-sheet-1")
	require.NoError(t, err)
	require.Equal(t, api.CheckoutPurchasePaymentStatusRequiresPaymentMethod, bought.Data.PaymentStatus)
	pid := bought.Data.PassID.Value
	p := e.studio.client.Pass.GetX(e.op, pid)
	require.Equal(t, pass.StatusPending, p.Status)
	require.Equal(t, pass.FlexibleKindUnlimited, *p.FlexibleKind)

	r, err := e.member.ResumeCheckout(e.ctx, api.ResumeCheckoutParams{ID: pid, XOrganizationID: e.venue.ID})
	require.NoError(t, err)
	fs := r.Data.FrozenCheckout
	require.False(t, fs.FlexibleSelection.Null)
	require.Equal(t, api.FlexibleSelectionKindUnlimited, fs.FlexibleSelection.Value.Kind)
	require.Equal(t, "Unlimited", fs.FlexibleSelection.Value.AllowanceLabel)
	require.Equal(t, int64(120000), fs.ChargedTodayMinor)
	require.Equal(t, int64(120000), fs.PurchaseObligation.Commitment.Value.FullPriceAmountMinor)
}

// TestFlexibleCheckoutRefusals: selections outside the bounds or off the
// step are 422, a changed quote (its amount or its selection) 400, another
// member's 404, a quote whose tiers changed 409 QUOTE_STALE; a pass type
// that is not flexible is 404. Nothing is charged or written.
func TestFlexibleCheckoutRefusals(t *testing.T) {
	e := newPayEnv(t, false, false)
	for _, n := range []int{3, 13} {
		_, err := e.flexPreview(e.member, n)
		es := hookErr(t, err, 422, "VALIDATION_FAILED")
		require.Equal(t, "selection_unavailable", es.Response.Error.Details.Reason.Value, "%d classes", n)
	}
	_, err := e.member.PreviewFlexibleCheckout(e.ctx, api.PreviewFlexibleCheckoutParams{XOrganizationID: e.venue.ID,
		PassTypeSlug: "flexible", Kind: api.PreviewFlexibleCheckoutKindQuantity})
	hookErr(t, err, 400, "VALIDATION_ERROR")
	_, err = e.member.PreviewFlexibleCheckout(e.ctx, api.PreviewFlexibleCheckoutParams{XOrganizationID: e.venue.ID,
		PassTypeSlug: "ten", Kind: api.PreviewFlexibleCheckoutKindUnlimited})
	hookErr(t, err, 404, "NOT_FOUND")

	// A step of 2 from 4: 6 is sold, 7 is not.
	flex := e.studio.client.PassType.Query().Where(passtype.Slug("flexible")).OnlyX(e.op)
	cfg := *flex.FlexiblePricingConfig
	cfg.QuantityStep = 2
	e.studio.client.PassType.UpdateOne(flex).SetFlexiblePricingConfig(&cfg).ExecX(e.op)
	_, err = e.flexPreview(e.member, 7)
	hookErr(t, err, 422, "VALIDATION_FAILED")
	res, err := e.flexPreview(e.member, 6)
	require.NoError(t, err)
	q := res.Data.FlexibleQuote

	tampered := q
	tampered.ChargedTodayMinor = 100
	_, err = e.flexBuy(e.member, tampered, "pm_card_visa", "flex-t-1")
	hookErr(t, err, 400, "VALIDATION_ERROR")
	more := q
	more.Selection.Quantity = api.NewNilInt(12)
	_, err = e.flexBuy(e.member, more, "pm_card_visa", "flex-t-2")
	hookErr(t, err, 400, "VALIDATION_ERROR")
	other := e.memberClient(t, "other@pay.example")
	_, err = e.flexBuy(other, q, "pm_card_visa", "flex-t-3")
	hookErr(t, err, 404, "NOT_FOUND")

	// The tiers changed since the preview: review again.
	cfg.Tiers = []model.PriceTier{{UpTo: 12, PricePerClass: 95}}
	e.studio.client.PassType.UpdateOne(flex).SetFlexiblePricingConfig(&cfg).ExecX(e.op)
	_, err = e.flexBuy(e.member, q, "pm_card_visa", "flex-t-4")
	es := hookErr(t, err, 409, payments.CodeQuoteStale)
	require.Equal(t, "price_changed", es.Response.Error.Details.Reason.Value)

	require.Empty(t, e.fake.Intents())
	require.Zero(t, e.count(t, "checkouts"))
	require.Zero(t, e.count(t, "passes"))
}
