package receipts_test

import (
	"bytes"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/stretchr/testify/require"

	"github.com/venueplatform/venue/internal/payments/receipts"
)

func sample() *receipts.Receipt {
	return &receipts.Receipt{
		PaymentID: uuid.MustParse("0b0e6f3a-1c2d-4e5f-8a9b-0c1d2e3f4a5b"), Number: "0B0E6F3A",
		PaidAt:      time.Date(2026, 11, 26, 9, 30, 0, 0, time.UTC),
		Venue:       receipts.Party{Name: "Yoga på Østerbro", Address: "Ærøgade 5, København Ø, DK", Email: "hej@yoga.example"},
		Customer:    receipts.Party{Name: "Søren Æbelø", Email: "soren@example.com"},
		Description: "Klippekort (10 gange)", TotalMinor: 120000, Currency: "DKK", VATRateBP: 2500, VATMinor: 24000,
		Status: "succeeded",
	}
}

// TestRenderDanishAndVAT: the PDF shows the venue, the customer and the
// line in Danish letters, and the VAT lines; the same receipt gives the
// same bytes.
func TestRenderDanishAndVAT(t *testing.T) {
	r := sample()
	pdf, err := receipts.Render(r)
	require.NoError(t, err)
	require.True(t, bytes.HasPrefix(pdf, []byte("%PDF-")))
	text := receipts.PDFText(pdf)
	for _, want := range []string{"Yoga på Østerbro", "Ærøgade 5, København Ø, DK", "Søren Æbelø", "Klippekort (10 gange)",
		"1200.00 DKK", "Excl. VAT (uden moms)", "960.00 DKK", "VAT (moms) 25 %", "240.00 DKK", "Kvittering / Receipt 0B0E6F3A",
		"Date: 2026-11-26 09:30 UTC"} {
		require.Contains(t, text, want)
	}
	again, err := receipts.Render(sample())
	require.NoError(t, err)
	require.Equal(t, pdf, again, "byte-stable")

	r.Venue.Name = "Another venue"
	other, err := receipts.Render(r)
	require.NoError(t, err)
	require.NotEqual(t, pdf, other)
}

// TestRenderOtherCurrenciesAndGiftCards: minor digits follow the currency;
// a gift card shows no VAT lines but says why.
func TestRenderOtherCurrenciesAndGiftCards(t *testing.T) {
	r := sample()
	r.Currency, r.TotalMinor, r.VATMinor, r.VATRateBP = "KWD", 12500, 0, 0
	r.Description, r.VATNote = "Gift card", "No VAT on a gift card: VAT is due on what it is spent on."
	pdf, err := receipts.Render(r)
	require.NoError(t, err)
	text := receipts.PDFText(pdf)
	require.Contains(t, text, "12.500 KWD")
	require.Contains(t, text, "No VAT on a gift card")
	require.NotContains(t, text, "moms")

	r = sample()
	r.Currency, r.TotalMinor, r.VATMinor, r.VATRateBP = "JPY", 5000, 455, 1000
	pdf, err = receipts.Render(r)
	require.NoError(t, err)
	text = receipts.PDFText(pdf)
	require.Contains(t, text, "5000 JPY")
	require.Contains(t, text, "VAT (moms) 10 %")
	require.Contains(t, text, "455 JPY")
	require.Contains(t, receipts.Text(r), "VAT 10 %: 455 JPY")
}
