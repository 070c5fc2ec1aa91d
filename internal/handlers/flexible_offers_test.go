package handlers_test

import (
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/stretchr/testify/require"

	"github.com/venueplatform/venue/ent/checkout"
	"github.com/venueplatform/venue/ent/pass"
	"github.com/venueplatform/venue/ent/passtype"
	api "github.com/venueplatform/venue/internal/gen/api"
	"github.com/venueplatform/venue/internal/model"
	"github.com/venueplatform/venue/internal/payments"
	"github.com/venueplatform/venue/internal/payments/stripetest"
)

// flexOfferPreview previews 9 classes a period of the studio's flexible
// membership for c through the general preview, with an offer and a tier.
func (e *payEnv) flexOfferPreview(c *api.Client, offer uuid.UUID, months int) (*api.CheckoutPreviewResponse, error) {
	p := api.GetCheckoutPreviewParams{XOrganizationID: e.venue.ID, PassTypeSlug: "flexible",
		Kind: api.NewOptGetCheckoutPreviewKind(api.GetCheckoutPreviewKindQuantity), Quantity: api.NewOptInt(9)}
	if offer != uuid.Nil {
		p.FlashSaleID = api.NewOptUUID(offer)
	}
	if months > 0 {
		p.BindingMonths = api.NewOptInt(months)
	}
	return c.GetCheckoutPreview(e.ctx, p)
}

// TestFlexibleCheckoutDirectOffer: a flexible membership previewed with an
// offer is quoted at the offer's intro price (the selection's period price
// after the intro) with the offer's id and rule fingerprint on the quote;
// the purchase charges the quote unchanged and claims the offer's place,
// which a retry with another card after a decline keeps. A quote whose
// offer's place went to another purchase, or whose offer's rule changed
// between preview and purchase, is 409 QUOTE_STALE and charges nothing; an
// offer that cannot be bought is 422 FLASH_SALE_UNAVAILABLE, never the
// normal price.
func TestFlexibleCheckoutDirectOffer(t *testing.T) {
	e := newPayEnv(t, false, false)
	flex := e.studio.client.PassType.Query().Where(passtype.Slug("flexible")).OnlyX(e.op)
	fs := e.offer(t, "Flex intro", 199, 20, 1, flex.ID)
	introEnd := e.localToday().AddDate(0, 0, 20)

	res, err := e.flexOfferPreview(e.member, fs.ID, 0)
	require.NoError(t, err)
	d := res.Data
	require.Equal(t, int64(19900), d.ChargedTodayMinor, "the offer's price, not 9 classes at 90.00")
	require.False(t, d.DirectPurchaseQuote.Set)
	q := d.FlexibleQuote.Value
	require.Equal(t, fs.ID, q.FlashSaleID.Value)
	require.NotEmpty(t, q.FlashSaleRuleFingerprint.Value)
	require.NotEmpty(t, q.PurchaseObligationFingerprint)
	require.Equal(t, int64(19900), q.ChargedTodayMinor)
	require.Equal(t, int64(81000), q.PeriodPriceMinor, "the selection's period price after the intro")
	require.Equal(t, int64(3980), q.VatMinor)
	off := d.DirectOffer.Value
	require.Equal(t, int64(81000), off.NormalAmount)
	require.Equal(t, int64(19900), off.OfferAmount)
	ob := d.PurchaseObligation
	require.Equal(t, introEnd, ob.IntroThroughDate.Value)
	require.Equal(t, introEnd.AddDate(0, 0, 1), ob.Commitment.Value.FirstFullPriceDate)
	require.Equal(t, int64(81000), ob.Commitment.Value.FullPriceAmountMinor)

	// The flexible preview answers the same quote terms.
	fres, err := e.member.PreviewFlexibleCheckout(e.ctx, api.PreviewFlexibleCheckoutParams{XOrganizationID: e.venue.ID,
		PassTypeSlug: "flexible", Kind: api.PreviewFlexibleCheckoutKindQuantity, Quantity: api.NewOptInt(9),
		FlashSaleID: api.NewOptUUID(fs.ID)})
	require.NoError(t, err)
	require.Equal(t, int64(19900), fres.Data.FlexibleQuote.ChargedTodayMinor)
	require.Equal(t, q.FlashSaleRuleFingerprint, fres.Data.FlexibleQuote.FlashSaleRuleFingerprint)
	require.Equal(t, int64(19900), fres.Data.DirectOffer.Value.OfferAmount)

	// Another member previews the same one-place offer.
	other := e.memberClient(t, "second@pay.example")
	ores, err := e.flexOfferPreview(other, fs.ID, 0)
	require.NoError(t, err)

	// A quote without its offer does not verify.
	forged := q
	forged.FlashSaleID, forged.FlashSaleRuleFingerprint = api.OptUUID{}, api.OptString{}
	_, err = e.flexBuy(e.member, forged, "pm_card_visa", "fo-forged")
	hookErr(t, err, 400, "VALIDATION_ERROR")

	// Declined: the checkout holds the place; another card buys the quote.
	e.fake.Script(stripetest.Outcome{Decline: "insufficient_funds"}, stripetest.Outcome{})
	_, err = e.flexBuy(e.member, q, "pm_card_chargeDeclined", "fo-1")
	hookErr(t, err, 402, payments.CodeDeclined)
	require.Equal(t, 1, e.studio.client.FlashSale.GetX(e.op, fs.ID).ClaimedCount)
	bought, err := e.flexBuy(e.member, q, "pm_card_visa", "fo-2")
	require.NoError(t, err)
	require.Equal(t, api.CheckoutPurchasePaymentStatusSucceeded, bought.Data.PaymentStatus)
	require.EqualValues(t, 19900, e.fake.Intent(bought.Data.PaymentIntentID.Value)["amount"], "the quote is charged unchanged")
	require.Equal(t, fs.ID, bought.Data.FrozenCheckout.FlashSaleID.Value)
	require.Equal(t, 1, e.studio.client.FlashSale.GetX(e.op, fs.ID).ClaimedCount, "one place, claimed once")
	p := e.studio.client.Pass.GetX(e.op, bought.Data.PassID.Value)
	require.Equal(t, pass.StatusActive, p.Status)
	require.Equal(t, introEnd, p.ValidTo.UTC(), "the intro price pays through the offer's intro end")
	require.Equal(t, 9, *p.FlexibleQuantity)
	co := e.studio.client.Checkout.GetX(e.op, bought.Data.CheckoutID)
	require.Equal(t, checkout.FlexibleKindQuantity, *co.FlexibleKind)
	intents := len(e.fake.Intents())

	// The place is gone: the other member's quote is stale, nothing charged.
	_, err = e.flexBuy(other, ores.Data.FlexibleQuote.Value, "pm_card_visa", "fo-3")
	es := hookErr(t, err, 409, payments.CodeQuoteStale)
	require.Equal(t, "flash_sale_unavailable", es.Response.Error.Details.Reason.Value)
	require.JSONEq(t, `"sold_out"`, string(es.Response.Error.Details.AdditionalProps["offer_reason"]))

	// The offer's rule changes between preview and purchase (its intro now
	// ends earlier, the price is the same): stale.
	open := e.offer(t, "Flex open", 199, 20, 0, flex.ID)
	ores, err = e.flexOfferPreview(other, open.ID, 0)
	require.NoError(t, err)
	rule := open.CommercialRule
	rule.Duration.EndsAt = e.localToday().AddDate(0, 0, 10).Format(time.DateOnly)
	e.studio.client.FlashSale.UpdateOne(open).SetCommercialRule(rule).ExecX(e.op)
	_, err = e.flexBuy(other, ores.Data.FlexibleQuote.Value, "pm_card_visa", "fo-4")
	es = hookErr(t, err, 409, payments.CodeQuoteStale)
	require.Equal(t, "flash_sale_changed", es.Response.Error.Details.Reason.Value)
	require.Zero(t, e.studio.client.FlashSale.GetX(e.op, open.ID).ClaimedCount)

	// Offers that cannot be bought: 422, no fallback to the period price.
	_, err = e.flexOfferPreview(other, fs.ID, 0)
	hookErr(t, err, 422, payments.CodeFlashSaleUnavai)
	require.Equal(t, "sold_out", reasonOf(t, err))
	gone := e.studio.client.FlashSale.UpdateOne(e.offer(t, "Off", 10, 20, 0, flex.ID)).SetCancelledAt(time.Now()).SaveX(e.op)
	_, err = e.flexOfferPreview(other, gone.ID, 0)
	hookErr(t, err, 422, payments.CodeFlashSaleUnavai)
	require.Equal(t, "cancelled", reasonOf(t, err))
	_, err = e.flexOfferPreview(other, e.offer(t, "Clip", 10, 20, 0, e.ten.ID).ID, 0)
	require.Equal(t, "pass_type_not_included", reasonOf(t, err))

	require.Len(t, e.fake.Intents(), intents, "refusals charge nothing")
	require.Equal(t, 1, e.count(t, "checkouts"), "refusals write nothing")
}

// TestFlexibleCheckoutBindingTier: a binding tier binds a flexible
// membership for its months at the selection's period price (the quote
// carries binding_months, the obligation the commitment); a tier the pass
// type does not sell is 422, one withdrawn after the preview makes the
// quote stale, and an offer does not combine with a tier.
func TestFlexibleCheckoutBindingTier(t *testing.T) {
	e := newPayEnv(t, false, false)
	e.studio.client.PassType.Update().Where(passtype.Slug("flexible")).
		SetBindingTiers([]model.BindingTier{{Months: 12, PriceMinor: 1}}).ExecX(e.op)

	res, err := e.flexOfferPreview(e.member, uuid.Nil, 12)
	require.NoError(t, err)
	d := res.Data
	require.Equal(t, int64(81000), d.ChargedTodayMinor, "the selection's period price")
	q := d.FlexibleQuote.Value
	require.Equal(t, 12, q.BindingMonths.Value)
	require.False(t, q.FlashSaleID.Set)
	cm := d.PurchaseObligation.Commitment.Value
	today := e.localToday()
	require.Equal(t, 11, cm.MinimumFullPriceCycles)
	require.Equal(t, today.AddDate(0, 12, 0), cm.CommitmentEndsOn)
	require.Equal(t, int64(12*81000), d.PurchaseObligation.MinimumTotalPayable.Value)
	require.Equal(t, api.ObligationCancellationKindAfterCommitment, d.PurchaseObligation.Cancellation.Value.Kind)

	_, err = e.flexOfferPreview(e.member, uuid.Nil, 6)
	hookErr(t, err, 422, "VALIDATION_FAILED")
	require.Equal(t, "binding_tier_unavailable", reasonOf(t, err))
	flex := e.studio.client.PassType.Query().Where(passtype.Slug("flexible")).OnlyX(e.op)
	fs := e.offer(t, "Flex intro", 199, 20, 0, flex.ID)
	_, err = e.flexOfferPreview(e.member, fs.ID, 12)
	hookErr(t, err, 422, payments.CodeFlashSaleUnavai)
	require.Equal(t, "binding_not_combinable", reasonOf(t, err))

	// A changed tier field in the quote does not verify.
	forged := q
	forged.BindingMonths = api.NewOptInt(6)
	_, err = e.flexBuy(e.member, forged, "pm_card_visa", "fb-forged")
	hookErr(t, err, 400, "VALIDATION_ERROR")

	bought, err := e.flexBuy(e.member, q, "pm_card_visa", "fb-1")
	require.NoError(t, err)
	require.Equal(t, 12, bought.Data.FrozenCheckout.BindingMonths.Value)
	require.EqualValues(t, 81000, e.fake.Intent(bought.Data.PaymentIntentID.Value)["amount"])

	// The tier is withdrawn between preview and purchase: stale.
	other := e.memberClient(t, "bound@pay.example")
	ores, err := e.flexOfferPreview(other, uuid.Nil, 12)
	require.NoError(t, err)
	e.studio.client.PassType.Update().Where(passtype.Slug("flexible")).ClearBindingTiers().ExecX(e.op)
	_, err = e.flexBuy(other, ores.Data.FlexibleQuote.Value, "pm_card_visa", "fb-2")
	es := hookErr(t, err, 409, payments.CodeQuoteStale)
	require.Equal(t, "binding_tier_unavailable", es.Response.Error.Details.Reason.Value)
	require.Len(t, e.fake.Intents(), 1)
	require.Equal(t, 1, e.count(t, "checkouts"))
}

// TestCheckoutOfferLastPlaceDeclineRetry: a fixed offer's last place is
// claimed by the checkout of a declined purchase; the same quote bought
// again with another card keeps that place (it is not refused as sold out)
// and is charged once; the place is claimed once.
func TestCheckoutOfferLastPlaceDeclineRetry(t *testing.T) {
	e := newPayEnv(t, false, false)
	unlimited := e.studio.client.PassType.Query().Where(passtype.Slug("unlimited")).OnlyX(e.op)
	fs := e.offer(t, "Last place", 99, 20, 1, unlimited.ID)
	res, err := e.preview(e.member, api.GetCheckoutPreviewParams{PassTypeSlug: "unlimited", FlashSaleID: api.NewOptUUID(fs.ID)})
	require.NoError(t, err)
	q := res.Data.DirectPurchaseQuote.Value
	e.fake.Script(stripetest.Outcome{Decline: "insufficient_funds"}, stripetest.Outcome{})
	_, err = e.buy(e.member, q, "pm_card_chargeDeclined", "lp-1")
	hookErr(t, err, 402, payments.CodeDeclined)
	require.Equal(t, 1, e.studio.client.FlashSale.GetX(e.op, fs.ID).ClaimedCount)
	bought, err := e.buy(e.member, q, "pm_card_visa", "lp-2")
	require.NoError(t, err)
	require.Equal(t, api.CheckoutPurchasePaymentStatusSucceeded, bought.Data.PaymentStatus)
	require.EqualValues(t, 9900, e.fake.Intent(bought.Data.PaymentIntentID.Value)["amount"])
	require.Equal(t, 1, e.studio.client.FlashSale.GetX(e.op, fs.ID).ClaimedCount)
	require.Equal(t, 1, e.count(t, "checkouts"))
}
