package server

import "github.com/venueplatform/venue/internal/idempotency"

func init() {
	// A member's (or staff's) cancel of a membership: a required key of 1 to 200
	// characters (spec/parts/membership_cancel.yaml).
	for _, op := range []string{"cancelMyMembership", "cancelAdminMembership"} {
		idempotencyPolicies[op] = idempotency.Required(idempotency.Max200)
	}
}
