package server

import "github.com/venueplatform/venue/internal/idempotency"

// The desk's product changes and stock adjustments replay a retry under
// the same Idempotency-Key: a restock sent twice adds its units once.
func init() {
	for _, op := range []string{"updatePosProduct", "adjustPosProductStock"} {
		idempotencyPolicies[op] = idempotency.Required(idempotency.Max200)
	}
}
