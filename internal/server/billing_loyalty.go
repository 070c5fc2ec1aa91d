package server

import "github.com/venueplatform/venue/internal/idempotency"

// Loyalty prices: the writes require a key (a UUID, checked by the handler
// for the contract's IDEMPOTENCY_KEY_INVALID); a retry replays
// (spec/parts/admin_loyalty_price.yaml).
func init() {
	for _, op := range []string{"grantAdminLoyaltyPrice", "revokeAdminLoyaltyPrice"} {
		idempotencyPolicies[op] = idempotency.Required(idempotency.Max200)
	}
}
