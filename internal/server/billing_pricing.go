package server

import "github.com/venueplatform/venue/internal/idempotency"

// The payment overrides' writes require an Idempotency-Key
// (spec/parts/admin_pass_pricing.yaml).
func init() {
	for _, op := range []string{"createAdminPaymentOverrides", "bulkAdminPaymentOverrides", "updateAdminPaymentOverride", "deleteAdminPaymentOverride"} {
		idempotencyPolicies[op] = idempotency.Required(idempotency.Max200)
	}
}
