package server

import "github.com/venueplatform/venue/internal/idempotency"

func init() {
	// A member's cancel of their membership: a required key of 1 to 200
	// characters (spec/parts/membership_cancel.yaml).
	idempotencyPolicies["cancelMyMembership"] = idempotency.Required(idempotency.Max200)
}
