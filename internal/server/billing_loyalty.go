package server

import "github.com/venueplatform/venue/internal/idempotency"

// Loyalty prices: the writes require a key that is a UUID (else the
// contract's 400 IDEMPOTENCY_KEY_INVALID); a retry replays
// (spec/parts/admin_loyalty_price.yaml).
func init() {
	for _, op := range []string{"grantAdminLoyaltyPrice", "revokeAdminLoyaltyPrice"} {
		idempotencyPolicies[op] = idempotency.Required(idempotency.UUID).WithInvalidCode(idempotency.CodeKeyInvalid)
	}
}
