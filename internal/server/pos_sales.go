package server

import (
	"github.com/venueplatform/venue/internal/idempotency"
)

func init() {
	// Memberships sold at the desk (spec/parts/admin_pos_sales.yaml): a
	// required key of 1 to 200 characters, like the desk's sales.
	idempotencyPolicies["sellMembership"] = idempotency.Required(idempotency.Max200)
}
