package handlers_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/venueplatform/venue/ent/booking"
	api "github.com/venueplatform/venue/internal/gen/api"
)

// TestTipWalletRule: the tip's available_payment_methods offer the mobile
// wallet only while the venue is Danish and its connected account verified
// (charges enabled, details submitted); a Swedish venue or an account whose
// details are not submitted gets card alone.
func TestTipWalletRule(t *testing.T) {
	e := newPayEnv(t, false, false)
	tipper := e.memberClient(t, "wallet@pay.example")
	e.studio.client.Booking.Create().SetMemberID(e.memberID(t, "wallet@pay.example")).SetClassInstanceID(e.fullClass).
		SetStatus(booking.StatusCheckedIn).SaveX(e.op)
	methods := func(key string) []api.TipCreatedAvailablePaymentMethodsItem {
		t.Helper()
		res, err := tipper.CreateTip(e.ctx, &api.TipCreateRequest{SourceType: api.TipCreateRequestSourceTypeClass,
			SourceID: e.fullClass, Amount: 10, Currency: "DKK"}, api.CreateTipParams{XOrganizationID: e.venue.ID, IdempotencyKey: key})
		require.NoError(t, err)
		return res.Data.AvailablePaymentMethods
	}
	card := []api.TipCreatedAvailablePaymentMethodsItem{"card"}
	both := []api.TipCreatedAvailablePaymentMethodsItem{"card", "mobilepay"}
	org := e.studio.client.Organization.UpdateOneID(e.venue.ID)

	org.SetCountry("DK").ExecX(e.op)
	require.Equal(t, both, methods("w-dk"))

	e.studio.client.Organization.UpdateOneID(e.venue.ID).SetCountry("SE").ExecX(e.op)
	require.Equal(t, card, methods("w-se"), "a Swedish venue, though its account is Danish")

	e.studio.client.Organization.UpdateOneID(e.venue.ID).SetCountry("DK").ExecX(e.op)
	e.studio.client.VenuePayments.Update().SetDetailsSubmitted(false).ExecX(e.op)
	require.Equal(t, card, methods("w-unverified"), "details not submitted")

	e.studio.client.VenuePayments.Update().SetDetailsSubmitted(true).ExecX(e.op)
	require.Equal(t, both, methods("w-verified"))
}
