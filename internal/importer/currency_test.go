package importer_test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/venueplatform/venue/internal/importer"
)

// TestImportOtherCurrencies: a pass type priced in EUR (its pass in EUR)
// and a payment in JPY at a Danish venue are imported as they are, with
// their own currencies, instead of being refused.
func TestImportOtherCurrencies(t *testing.T) {
	doc := readFull(t)
	doc = strings.Replace(doc, `"price_minor": 59900,
     "currency": "DKK"`, `"price_minor": 8000,
     "currency": "EUR"`, 1)
	doc = strings.Replace(doc, `"pass_type": "pt2", "valid_from": "2026-10-01", "currency": "DKK"}`,
		`"pass_type": "pt2", "valid_from": "2026-10-01", "currency": "EUR"}`, 1)
	doc = strings.Replace(doc, `"amount_minor": 59900, "currency": "DKK"`, `"amount_minor": 8000, "currency": "EUR"`, 1)
	doc = strings.Replace(doc, `"amount_minor": 120000, "currency": "DKK"`, `"amount_minor": 12000, "currency": "JPY"`, 1)
	require.Contains(t, doc, `"currency": "EUR"`)

	e := newEnv(t)
	res, err := e.importJSON(t, doc, importer.Options{})
	require.NoError(t, err)
	pt, err := e.client.PassType.Get(e.ctx, uuidOf(t, res, "pass_types", "pt2"))
	require.NoError(t, err)
	require.Equal(t, "EUR", pt.Currency)
	require.Equal(t, int64(8000), pt.PriceMinor)
	pay1, err := e.client.Payment.Get(e.ctx, uuidOf(t, res, "payments", "pay1"))
	require.NoError(t, err)
	require.Equal(t, "JPY", pay1.Currency)
	require.Equal(t, int64(12000), pay1.AmountMinor)
	pay2, err := e.client.Payment.Get(e.ctx, uuidOf(t, res, "payments", "pay2"))
	require.NoError(t, err)
	require.Equal(t, "EUR", pay2.Currency)

	// A pass still follows its pass type's currency.
	bad := strings.Replace(doc, `"pass_type": "pt2", "valid_from": "2026-10-01", "currency": "EUR"}`,
		`"pass_type": "pt2", "valid_from": "2026-10-01", "currency": "DKK"}`, 1)
	_, err = newEnv(t).importJSON(t, bad, importer.Options{})
	require.ErrorContains(t, err, `passes[p2].currency: currency "DKK" differs from the currency EUR of pass type "pt2"`)
}
