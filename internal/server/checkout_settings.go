package server

import "github.com/venueplatform/venue/internal/idempotency"

func init() {
	// The staff writes of spec/parts/admin_checkout_settings.yaml: a required
	// key of 1 to 200 characters.
	for _, op := range []string{"createAdminCheckoutDocument", "createAdminCheckoutDocumentVersion",
		"setAdminPassTypeBindingTiers", "setAdminMemberBirthDate"} {
		idempotencyPolicies[op] = idempotency.Required(idempotency.Max200)
	}
}
