package handlers_test

import (
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
