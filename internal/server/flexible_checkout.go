package server

import "github.com/venueplatform/venue/internal/idempotency"

func init() {
	// The writes of spec/parts/flexible_checkout.yaml and
	// spec/parts/admin_flexible.yaml: a required key of 1 to 200 characters.
	for _, op := range []string{"purchaseFlexibleCheckout", "changeAdminFlexible", "scheduleAdminMoveToFlexible"} {
		idempotencyPolicies[op] = idempotency.Required(idempotency.Max200)
	}
}
