package server

import "github.com/venueplatform/venue/internal/idempotency"

// The staff's renewal recovery and subscription lifecycle writes require an
// Idempotency-Key (spec/parts/admin_billing_lifecycle.yaml).
func init() {
	for _, op := range []string{"chargeAdminRenewalRecovery", "sendAdminRenewalPaymentLink", "shiftAdminNextCharge",
		"changeAdminRecurringAmount", "reactivateAdminPass"} {
		idempotencyPolicies[op] = idempotency.Required(idempotency.Max200)
	}
}
