package handlers_test

import (
	"net/http"
	"testing"

	"github.com/google/uuid"
	"github.com/stretchr/testify/require"

	"github.com/venueplatform/venue/ent/checkout"
	"github.com/venueplatform/venue/ent/pass"
	api "github.com/venueplatform/venue/internal/gen/api"
)

// TestFlexibleCheckoutPromoCode: a promo code with a flexible membership's
// selection takes its discount off the first period (the renewals keep the
// period price), the flexible quote carries the code signed, the charge is
// the quote's and the code's use is claimed and counted once, at payment.
// A quote with the code removed is 400; an unknown code 422; a code with an
// offer 400. Nothing is charged or written by a refusal.
func TestFlexibleCheckoutPromoCode(t *testing.T) {
	e := newPromoEnv(t)
	pc := e.code(t, &api.PromoCodeCreateRequest{Code: "FLEX25", DiscountKind: api.PromoCodeCreateRequestDiscountKindPercent,
		PercentOff: api.NewOptInt(25), MaxUsesPerMember: api.NewOptInt(1)})
	preview := func(code string, offer *uuid.UUID) (*api.CheckoutPreviewResponse, error) {
		req := &api.CheckoutPreviewRequest{PassTypeSlug: "flexible", PromoCode: api.NewOptString(code),
			Kind: api.NewOptCheckoutPreviewRequestKind(api.CheckoutPreviewRequestKindQuantity), Quantity: api.NewOptInt(9)}
		if offer != nil {
			req.FlashSaleID = api.NewOptUUID(*offer)
		}
		return e.member.PostCheckoutPreview(e.ctx, req, api.PostCheckoutPreviewParams{XOrganizationID: e.venue.ID})
	}
	_, err := preview("flex25", &[]uuid.UUID{uuid.New()}[0])
	hookErr(t, err, http.StatusBadRequest, "VALIDATION_ERROR")
	_, err = preview("nope", nil)
	es := hookErr(t, err, http.StatusUnprocessableEntity, "PROMO_CODE_UNAVAILABLE")
	require.Equal(t, "not_found", es.Response.Error.Details.Reason.Value)

	res, err := preview("flex25", nil)
	require.NoError(t, err)
	d := res.Data
	const period = int64(81000) // 9 classes at 90.00
	want := period - period*25/100
	require.Equal(t, want, d.ChargedTodayMinor, "the code comes off the first period")
	promo := d.Promo.Value
	require.Equal(t, pc.ID, promo.PromoCodeID)
	require.Equal(t, period-want, promo.DiscountMinor)
	require.Equal(t, period, promo.NormalAmountMinor)
	require.Equal(t, period, d.PurchaseObligation.Commitment.Value.FullPriceAmountMinor, "renewals at the period price")
	require.Equal(t, want, d.PurchaseObligation.MinimumTotalPayable.Value)
	q := d.FlexibleQuote.Value
	require.Equal(t, pc.ID, q.PromoCodeID.Value)
	require.Equal(t, want, q.ChargedTodayMinor)
	require.Equal(t, period, q.PeriodPriceMinor)

	buy := func(q api.FlexibleQuote, key string) (*api.CheckoutPurchaseResponse, error) {
		return e.generalBuy(e.member, &api.CheckoutPurchaseRequest{FlexibleQuote: api.NewOptFlexibleQuote(q),
			PaymentMethodID: api.NewOptString("pm_card_visa")}, key)
	}
	stripped := q
	stripped.PromoCodeID = api.OptUUID{}
	_, err = buy(stripped, "fp-stripped")
	hookErr(t, err, http.StatusBadRequest, "VALIDATION_ERROR")
	require.Empty(t, e.fake.Intents())
	require.Zero(t, e.count(t, "checkouts"))
	claimed, redeemed := e.uses(t, pc.ID)
	require.Zero(t, claimed+redeemed)

	bought, err := buy(q, "fp-1")
	require.NoError(t, err)
	require.Equal(t, api.CheckoutPurchasePaymentStatusSucceeded, bought.Data.PaymentStatus)
	require.EqualValues(t, want, e.fake.Intent(bought.Data.PaymentIntentID.Value)["amount"], "the quote is charged")
	co := e.studio.client.Checkout.GetX(e.op, bought.Data.CheckoutID)
	require.Equal(t, checkout.StatusPaid, co.Status)
	require.Equal(t, want, co.AmountMinor)
	p := e.studio.client.Pass.GetX(e.op, bought.Data.PassID.Value)
	require.Equal(t, pass.StatusActive, p.Status)
	require.Equal(t, 9, *p.FlexibleQuantity)
	claimed, redeemed = e.uses(t, pc.ID)
	require.Equal(t, 1, claimed)
	require.Equal(t, 1, redeemed)

	again, err := buy(q, "fp-1")
	require.NoError(t, err, "a retry replays")
	require.Equal(t, bought.Data.CheckoutID, again.Data.CheckoutID)
	require.Len(t, e.fake.Intents(), 1)
	claimed, redeemed = e.uses(t, pc.ID)
	require.Equal(t, 1, claimed, "claimed once")
	require.Equal(t, 1, redeemed, "counted once")
	_, err = preview("FLEX25", nil)
	es = hookErr(t, err, http.StatusUnprocessableEntity, "PROMO_CODE_UNAVAILABLE")
	require.Equal(t, "member_limit", es.Response.Error.Details.Reason.Value)
}
