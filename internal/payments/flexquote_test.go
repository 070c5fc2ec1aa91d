package payments_test

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/venueplatform/venue/ent/passtype"
	"github.com/venueplatform/venue/internal/model"
	"github.com/venueplatform/venue/internal/payments"
)

// TestFlexQuoteExpires: a flexible quote may be bought for five minutes, not
// a second more; the charge is the quote's.
func TestFlexQuoteExpires(t *testing.T) {
	e := newEnv(t, "DKK", 12000)
	month := passtype.BillingIntervalMonth
	e.client.PassType.Create().SetName("Flex").SetSlug("flex").SetCategory(passtype.CategoryMembership).
		SetPriceMinor(1).SetCurrency("DKK").SetIsRecurring(true).SetBillingInterval(month).SetBillingIntervalCount(1).
		SetPricingMode(passtype.PricingModeFlexibleQuantity).
		SetFlexiblePricingConfig(&model.FlexiblePricingConfig{SchemaVersion: 1, MinimumQuantity: 2, MaximumQuantity: 10,
			QuantityStep: 2, Tiers: []model.PriceTier{{UpTo: 10, PricePerClass: 75.5}}}).SaveX(e.op)
	pv, err := e.svc.PreviewFlexible(e.member, e.org, e.user, "flex", payments.Selection{Quantity: 4})
	require.NoError(t, err)
	require.Equal(t, int64(30200), pv.Quote.ChargedTodayMinor)
	_, err = e.svc.PreviewFlexible(e.member, e.org, e.user, "flex", payments.Selection{Unlimited: true})
	require.Equal(t, "VALIDATION_FAILED", code(t, err), "unlimited is not offered")

	e.now = e.now.Add(payments.QuoteTTL)
	_, err = e.svc.PurchaseFlexible(e.member, e.org, e.user, e.mid, pv.Quote, payments.PurchaseParams{PaymentMethodID: "pm_card_visa"})
	require.Equal(t, payments.CodeQuoteStale, code(t, err))
	require.Empty(t, e.fake.Intents())

	e.now = e.now.Add(-time.Second)
	res, err := e.svc.PurchaseFlexible(e.member, e.org, e.user, e.mid, pv.Quote, payments.PurchaseParams{PaymentMethodID: "pm_card_visa"})
	require.NoError(t, err)
	require.Equal(t, payments.StatusPaid, res.Status)
	require.EqualValues(t, 30200, e.fake.Intent(res.IntentID)["amount"])
	p := e.client.Pass.GetX(e.op, *res.Checkout.PassID)
	require.Equal(t, 4, *p.FlexibleQuantity)
}
