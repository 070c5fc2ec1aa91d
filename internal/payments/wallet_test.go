package payments_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/venueplatform/venue/ent"
	"github.com/venueplatform/venue/internal/payments"
)

// TestAvailablePaymentMethods: the mobile wallet only for a Danish venue
// charging DKK on a verified connected account (charges enabled and details
// submitted); every other configuration offers card alone.
func TestAvailablePaymentMethods(t *testing.T) {
	acct := "acct_1"
	verified := func() *ent.VenuePayments {
		return &ent.VenuePayments{AccountID: &acct, ChargesEnabled: true, DetailsSubmitted: true}
	}
	card, both := []string{"card"}, []string{"card", "mobilepay"}
	cases := []struct {
		name              string
		country, currency string
		vp                *ent.VenuePayments
		want              []string
	}{
		{"verified Danish DKK", "DK", "DKK", verified(), both},
		{"country in lower case", "dk", "DKK", verified(), both},
		{"Swedish venue", "SE", "DKK", verified(), card},
		{"no country", "", "DKK", verified(), card},
		{"Danish venue charging EUR", "DK", "EUR", verified(), card},
		{"charges not enabled", "DK", "DKK", &ent.VenuePayments{AccountID: &acct, DetailsSubmitted: true}, card},
		{"details not submitted", "DK", "DKK", &ent.VenuePayments{AccountID: &acct, ChargesEnabled: true}, card},
		{"no account", "DK", "DKK", &ent.VenuePayments{ChargesEnabled: true, DetailsSubmitted: true}, card},
		{"no settings", "DK", "DKK", nil, card},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			require.Equal(t, c.want, payments.AvailablePaymentMethods(c.country, c.currency, c.vp))
		})
	}
}
