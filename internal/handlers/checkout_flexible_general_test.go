package handlers_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/venueplatform/venue/ent/pass"
	api "github.com/venueplatform/venue/internal/gen/api"
)

// generalBuy buys through the general purchase with the request req.
func (e *payEnv) generalBuy(c *api.Client, req *api.CheckoutPurchaseRequest, key string) (*api.CheckoutPurchaseResponse, error) {
	return c.PurchaseCheckout(e.ctx, req, api.PurchaseCheckoutParams{XOrganizationID: e.venue.ID, IdempotencyKey: key})
}

// TestGeneralCheckoutSellsFlexible: the general preview of a flexible
// membership with a selection answers the flexible preview's quote and an
// available obligation (the same quote the flexible preview signs), and the
// general purchase buys that quote unchanged: the charge is the quote, the
// pass carries the selection, and a retry replays.
func TestGeneralCheckoutSellsFlexible(t *testing.T) {
	e := newPayEnv(t, false, false)
	res, err := e.member.PostCheckoutPreview(e.ctx, &api.CheckoutPreviewRequest{PassTypeSlug: "flexible",
		Kind: api.NewOptCheckoutPreviewRequestKind(api.CheckoutPreviewRequestKindQuantity), Quantity: api.NewOptInt(9)},
		api.PostCheckoutPreviewParams{XOrganizationID: e.venue.ID})
	require.NoError(t, err)
	d := res.Data
	require.Equal(t, api.PurchaseObligationStatusAvailable, d.PurchaseObligation.Status)
	require.Equal(t, int64(81000), d.PurchaseObligation.Commitment.Value.FullPriceAmountMinor)
	require.False(t, d.DirectPurchaseQuote.Set, "a flexible membership has no direct quote")
	require.Equal(t, int64(81000), d.ChargedTodayMinor, "9 classes at 90.00")
	require.Equal(t, int64(16200), d.VatMinor)
	require.Equal(t, 9, d.FlexibleSelection.Value.ClassAllowance.Value)
	q := d.FlexibleQuote.Value
	require.Equal(t, int64(81000), q.ChargedTodayMinor)
	require.Equal(t, 9, q.Selection.Quantity.Value)

	// The same quote as the flexible preview's (same authority, same
	// obligation); GET takes the selection as query parameters.
	fx, err := e.flexPreview(e.member, 9)
	require.NoError(t, err)
	require.Equal(t, fx.Data.FlexibleQuote.AuthorityFingerprint, q.AuthorityFingerprint)
	require.Equal(t, fx.Data.FlexibleQuote.PurchaseObligationFingerprint, q.PurchaseObligationFingerprint)
	got, err := e.member.GetCheckoutPreview(e.ctx, api.GetCheckoutPreviewParams{XOrganizationID: e.venue.ID,
		PassTypeSlug: "flexible", Kind: api.NewOptGetCheckoutPreviewKind(api.GetCheckoutPreviewKindUnlimited)})
	require.NoError(t, err)
	require.Equal(t, int64(120000), got.Data.FlexibleQuote.Value.ChargedTodayMinor)
	require.True(t, got.Data.FlexibleQuote.Value.Selection.Quantity.Null)

	bought, err := e.generalBuy(e.member, &api.CheckoutPurchaseRequest{FlexibleQuote: api.NewOptFlexibleQuote(q),
		PaymentMethodID: api.NewOptString("pm_card_visa")}, "general-flex-1")
	require.NoError(t, err)
	require.Equal(t, api.CheckoutPurchasePaymentStatusSucceeded, bought.Data.PaymentStatus)
	require.EqualValues(t, 81000, e.fake.Intent(bought.Data.PaymentIntentID.Value)["amount"], "the quote is charged exactly")
	again, err := e.generalBuy(e.member, &api.CheckoutPurchaseRequest{FlexibleQuote: api.NewOptFlexibleQuote(q),
		PaymentMethodID: api.NewOptString("pm_card_visa")}, "general-flex-1")
	require.NoError(t, err, "a retry replays the answer")
	require.Equal(t, bought.Data.CheckoutID, again.Data.CheckoutID)
	require.Len(t, e.fake.Intents(), 1)
	p := e.studio.client.Pass.GetX(e.op, bought.Data.PassID.Value)
	require.Equal(t, pass.StatusActive, p.Status)
	require.Equal(t, 9, *p.FlexibleQuantity, "the class allowance per period")
}

// TestGeneralCheckoutFlexibleRefusals: a selection for a pass type that is
// not flexible, with a binding tier the membership does not sell or
// outside the bounds is 422; a
// quantity without kind 400; a purchase with neither or both quotes, or a
// changed flexible quote, 400. Nothing is charged or written.
func TestGeneralCheckoutFlexibleRefusals(t *testing.T) {
	e := newPayEnv(t, false, false)
	params := func(slug string) api.GetCheckoutPreviewParams {
		return api.GetCheckoutPreviewParams{XOrganizationID: e.venue.ID, PassTypeSlug: slug,
			Kind: api.NewOptGetCheckoutPreviewKind(api.GetCheckoutPreviewKindQuantity), Quantity: api.NewOptInt(9)}
	}
	_, err := e.member.GetCheckoutPreview(e.ctx, params("ten"))
	es := hookErr(t, err, 422, "VALIDATION_FAILED")
	require.Equal(t, "selection_unavailable", es.Response.Error.Details.Reason.Value)
	withTier := params("flexible")
	withTier.BindingMonths = api.NewOptInt(12)
	_, err = e.member.GetCheckoutPreview(e.ctx, withTier)
	es = hookErr(t, err, 422, "VALIDATION_FAILED")
	require.Equal(t, "binding_tier_unavailable", es.Response.Error.Details.Reason.Value)
	tooMany := params("flexible")
	tooMany.Quantity = api.NewOptInt(13)
	_, err = e.member.GetCheckoutPreview(e.ctx, tooMany)
	hookErr(t, err, 422, "VALIDATION_FAILED")
	noKind := params("flexible")
	noKind.Kind = api.OptGetCheckoutPreviewKind{}
	_, err = e.member.GetCheckoutPreview(e.ctx, noKind)
	hookErr(t, err, 400, "VALIDATION_ERROR")
	noQuantity := params("flexible")
	noQuantity.Quantity = api.OptInt{}
	_, err = e.member.GetCheckoutPreview(e.ctx, noQuantity)
	hookErr(t, err, 400, "VALIDATION_ERROR")

	res, err := e.member.GetCheckoutPreview(e.ctx, params("flexible"))
	require.NoError(t, err)
	q := res.Data.FlexibleQuote.Value
	fixed, err := e.member.GetCheckoutPreview(e.ctx, api.GetCheckoutPreviewParams{XOrganizationID: e.venue.ID, PassTypeSlug: "ten"})
	require.NoError(t, err)
	_, err = e.generalBuy(e.member, &api.CheckoutPurchaseRequest{PaymentMethodID: api.NewOptString("pm_card_visa")}, "gf-1")
	hookErr(t, err, 400, "VALIDATION_ERROR")
	_, err = e.generalBuy(e.member, &api.CheckoutPurchaseRequest{FlexibleQuote: api.NewOptFlexibleQuote(q),
		DirectPurchaseQuote: fixed.Data.DirectPurchaseQuote, PaymentMethodID: api.NewOptString("pm_card_visa")}, "gf-2")
	hookErr(t, err, 400, "VALIDATION_ERROR")
	tampered := q
	tampered.PeriodPriceMinor, tampered.ChargedTodayMinor = 100, 100
	_, err = e.generalBuy(e.member, &api.CheckoutPurchaseRequest{FlexibleQuote: api.NewOptFlexibleQuote(tampered),
		PaymentMethodID: api.NewOptString("pm_card_visa")}, "gf-3")
	hookErr(t, err, 400, "VALIDATION_ERROR")
	other := e.memberClient(t, "other@pay.example")
	_, err = e.generalBuy(other, &api.CheckoutPurchaseRequest{FlexibleQuote: api.NewOptFlexibleQuote(q),
		PaymentMethodID: api.NewOptString("pm_card_visa")}, "gf-4")
	hookErr(t, err, 404, "NOT_FOUND")

	require.Empty(t, e.fake.Intents())
	require.Zero(t, e.count(t, "checkouts"))
	require.Zero(t, e.count(t, "passes"))
}
