package handlers_test

import (
	"fmt"
	"testing"

	"github.com/google/uuid"
	"github.com/stretchr/testify/require"

	api "github.com/venueplatform/venue/internal/gen/api"
	"github.com/venueplatform/venue/internal/payments"
)

func TestSavedCards(t *testing.T) {
	e := newPayEnv(t, false, false)
	org := e.venue.ID
	list := func(c *api.Client) []api.PaymentMethod {
		t.Helper()
		res, err := c.ListMyPaymentMethods(e.ctx, api.ListMyPaymentMethodsParams{XOrganizationID: org})
		require.NoError(t, err)
		return res.Data
	}
	require.Empty(t, list(e.member))

	setup, err := e.member.CreateMyPaymentMethod(e.ctx, api.CreateMyPaymentMethodParams{XOrganizationID: org, IdempotencyKey: "s-1"})
	require.NoError(t, err)
	sc := setup.Data
	require.NotEmpty(t, sc.SetupIntentClientSecret)
	require.Equal(t, sc.SetupIntentClientSecret, sc.ClientSecret)
	require.Equal(t, payAccount, sc.ProcessorAccountID.Value)
	require.Equal(t, "DK", sc.MerchantCountryCode.Value)
	require.NotEmpty(t, sc.EphemeralKey)
	again, err := e.member.CreateMyPaymentMethod(e.ctx, api.CreateMyPaymentMethodParams{XOrganizationID: org, IdempotencyKey: "s-1"})
	require.NoError(t, err)
	require.Equal(t, sc.SetupIntentID, again.Data.SetupIntentID, "a retry replays the same credentials")

	// The payment sheet: the same customer, a new setup intent.
	sheet, err := e.member.InitMyPaymentSheet(e.ctx, &api.PaymentSheetInitRequest{OrganizationID: org},
		api.InitMyPaymentSheetParams{IdempotencyKey: "sheet-1"})
	require.NoError(t, err)
	require.Equal(t, sc.CustomerID, sheet.Data.CustomerID)
	require.NotEqual(t, sc.SetupIntentID, sheet.Data.SetupIntentID)
	require.True(t, sheet.Data.WalletMerchantID.Set && sheet.Data.WalletMerchantID.Null)
	require.Len(t, e.fake.Customers(), 1, "one customer per member and venue")

	// The app confirmed two setup intents: two saved cards, no default yet.
	e.fake.AttachCard(sc.CustomerID, "pm_visa", "visa", "4242", "")
	e.fake.AttachCard(sc.CustomerID, "pm_wallet", "mastercard", "4444", "apple_pay")
	cards := list(e.member)
	require.Len(t, cards, 2)
	require.False(t, cards[0].IsDefault || cards[1].IsDefault)

	res, err := e.member.SetMyDefaultPaymentMethod(e.ctx, api.SetMyDefaultPaymentMethodParams{ID: "pm_visa", XOrganizationID: org, IdempotencyKey: "d-1"})
	require.NoError(t, err)
	for _, c := range res.Data {
		require.Equal(t, c.ID == "pm_visa", c.IsDefault, c.ID)
	}
	for _, c := range list(e.member) {
		require.Equal(t, c.ID == "pm_visa", c.IsDefault, c.ID)
		if c.ID == "pm_wallet" {
			require.Equal(t, "apple_pay", c.Wallet.Value)
		}
	}
	require.Equal(t, "pm_visa", e.fake.DefaultCard(sc.CustomerID))

	// Another member cannot reach the card; nobody removes cards here.
	other := e.memberClient(t, "other@pay.example")
	_, err = other.SetMyDefaultPaymentMethod(e.ctx, api.SetMyDefaultPaymentMethodParams{ID: "pm_visa", XOrganizationID: org, IdempotencyKey: "d-2"})
	hookErr(t, err, 404, payments.CodeCardNotFound)
	_, err = e.member.SetMyDefaultPaymentMethod(e.ctx, api.SetMyDefaultPaymentMethodParams{ID: "pm_nope", XOrganizationID: org, IdempotencyKey: "d-3"})
	hookErr(t, err, 404, payments.CodeCardNotFound)
	_, err = e.member.DeleteMyPaymentMethod(e.ctx, api.DeleteMyPaymentMethodParams{ID: "pm_visa", XOrganizationID: org})
	hookErr(t, err, 422, payments.CodeRemovalNotAllowed)
	require.Len(t, list(e.member), 2)

	// The saved card pays a purchase.
	bought, err := e.buy(e.member, e.quote(t, e.member), "pm_visa", "buy-card")
	require.NoError(t, err)
	require.Equal(t, api.CheckoutPurchasePaymentStatusSucceeded, bought.Data.PaymentStatus)

	// A venue whose account is off answers the unavailability code.
	_, err = other.InitMyPaymentSheet(e.ctx, &api.PaymentSheetInitRequest{OrganizationID: uuid.New()},
		api.InitMyPaymentSheetParams{IdempotencyKey: "sheet-2"})
	require.Error(t, err)
}

func TestMyPayments(t *testing.T) {
	e := newPayEnv(t, false, false)
	org := e.venue.ID
	// Three purchases: two clip cards and a membership.
	for i, slug := range []string{"spin-only", "unlimited", "ten"} {
		res, err := e.member.GetCheckoutPreview(e.ctx, api.GetCheckoutPreviewParams{XOrganizationID: org, PassTypeSlug: slug})
		require.NoError(t, err)
		_, err = e.buy(e.member, res.Data.DirectPurchaseQuote.Value, "pm_card_visa", fmt.Sprintf("p-%d", i))
		require.NoError(t, err)
	}
	other := e.memberClient(t, "other@pay.example")
	_, err := e.buy(other, e.quote(t, other), "pm_card_visa", "o-1")
	require.NoError(t, err)

	first, err := e.member.ListMyPayments(e.ctx, api.ListMyPaymentsParams{XOrganizationID: org, Limit: api.NewOptInt(2)})
	require.NoError(t, err)
	require.Len(t, first.Data, 2)
	require.True(t, first.Meta.HasMore)
	p := first.Data[0]
	require.Equal(t, int64(120000), p.AmountMinor)
	require.Equal(t, 1200.0, p.Amount)
	require.Equal(t, "10-clip card", p.Description)
	require.Equal(t, api.MyPaymentStatusSucceeded, p.Status)
	require.False(t, first.Data[0].PaidAt.Before(first.Data[1].PaidAt), "newest first")

	second, err := e.member.ListMyPayments(e.ctx, api.ListMyPaymentsParams{XOrganizationID: org, Limit: api.NewOptInt(2),
		After: api.NewOptString(first.Meta.NextCursor.Value)})
	require.NoError(t, err)
	require.Len(t, second.Data, 1, "three payments in all; the other member's is not listed")
	require.False(t, second.Meta.HasMore)

	// Another member's cursor is refused.
	_, err = other.ListMyPayments(e.ctx, api.ListMyPaymentsParams{XOrganizationID: org, After: api.NewOptString(first.Meta.NextCursor.Value)})
	hookErr(t, err, 400, "VALIDATION_ERROR")
}
