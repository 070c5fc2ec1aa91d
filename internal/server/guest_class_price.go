package server

import "github.com/venueplatform/venue/internal/idempotency"

// A class's guest price is set with a required Idempotency-Key of 1 to 200
// characters (spec/parts/guest_class_price.yaml): a retry replays the first
// answer.
func init() {
	idempotencyPolicies["setAdminClassGuestPrice"] = idempotency.Required(idempotency.Max200)
}
