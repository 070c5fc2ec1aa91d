package payments

import (
	"strings"

	"github.com/venueplatform/venue/ent"
)

// Payment methods an app may offer (available_payment_methods).
const (
	MethodCard = "card"
	// MethodWallet is the mobile wallet, offered only where it works:
	// Danish venues taking Danish kroner on a verified connected account.
	MethodWallet = "mobilepay"
)

// AvailablePaymentMethods are the methods an app may offer for a charge in
// currency at a venue in country (ISO 3166-1 alpha-2) with payment settings
// vp: always card; the mobile wallet too only when the venue is Danish
// (country DK), the charge is in DKK and the connected account is verified:
// Stripe lets it take charges and its details are submitted (both kept
// current by account.updated). Any other configuration offers card alone.
func AvailablePaymentMethods(country, currency string, vp *ent.VenuePayments) []string {
	out := []string{MethodCard}
	if WalletAvailable(country, currency, vp) {
		out = append(out, MethodWallet)
	}
	return out
}

// WalletAvailable is the rule of AvailablePaymentMethods for the mobile
// wallet.
func WalletAvailable(country, currency string, vp *ent.VenuePayments) bool {
	return strings.EqualFold(strings.TrimSpace(country), "DK") && strings.EqualFold(currency, "DKK") &&
		vp != nil && vp.AccountID != nil && vp.ChargesEnabled && vp.DetailsSubmitted
}
