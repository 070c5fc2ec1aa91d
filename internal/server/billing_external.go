package server

import "github.com/venueplatform/venue/internal/idempotency"

// The staff's writes on externally billed memberships require an
// Idempotency-Key (spec/parts/admin_billing_external.yaml).
func init() {
	for _, op := range []string{"setAdminBillingCollection", "settleAdminPassExternally"} {
		idempotencyPolicies[op] = idempotency.Required(idempotency.Max200)
	}
}
