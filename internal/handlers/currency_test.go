package handlers_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	api "github.com/venueplatform/venue/internal/gen/api"
)

// TestOtherCurrencyOnTheWire: pass types priced in KWD and JPY at a Danish
// venue are listed and previewed with their own currency, in major units
// with the currency's digits, and their minor amounts unchanged.
func TestOtherCurrencyOnTheWire(t *testing.T) {
	e := newPayEnv(t, false, false)
	c := e.studio.client
	c.PassType.Create().SetName("Drop-in (KWD)").SetSlug("drop-kwd").SetCategory("drop_in").
		SetPriceMinor(12345).SetCurrency("KWD").ExecX(e.op)
	c.PassType.Create().SetName("Drop-in (JPY)").SetSlug("drop-jpy").SetCategory("drop_in").
		SetPriceMinor(1500).SetCurrency("JPY").ExecX(e.op)

	res, err := e.member.GetVenuePricing(e.ctx, api.GetVenuePricingParams{Slug: e.venue.Slug})
	require.NoError(t, err)
	require.Equal(t, "DKK", res.Data.Org.Currency)
	seen := map[string]api.PricedPassType{}
	for _, pt := range res.Data.PassTypes {
		seen[pt.Slug] = pt
	}
	require.Equal(t, "KWD", seen["drop-kwd"].Currency)
	require.Equal(t, 12.345, seen["drop-kwd"].PriceAmount)
	require.Equal(t, int64(12345), seen["drop-kwd"].PriceMinor)
	require.Equal(t, "JPY", seen["drop-jpy"].Currency)
	require.Equal(t, 1500.0, seen["drop-jpy"].PriceAmount)

	for slug, want := range map[string]struct {
		currency string
		exp      int
		minor    int64
		major    float64
	}{"drop-kwd": {"KWD", 3, 12345, 12.345}, "drop-jpy": {"JPY", 0, 1500, 1500}} {
		pv, err := e.member.GetCheckoutPreview(e.ctx, api.GetCheckoutPreviewParams{XOrganizationID: e.venue.ID, PassTypeSlug: slug})
		require.NoError(t, err)
		require.Equal(t, want.currency, pv.Data.Currency)
		require.Equal(t, want.exp, pv.Data.CurrencyExponent)
		require.Equal(t, want.minor, pv.Data.ChargedTodayMinor)
		require.Equal(t, want.major, pv.Data.ChargedToday)
		q, ok := pv.Data.DirectPurchaseQuote.Get()
		require.True(t, ok)
		require.Equal(t, want.currency, q.Currency)
	}
}
