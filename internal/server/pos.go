package server

import "github.com/venueplatform/venue/internal/idempotency"

func init() {
	// The point of sale's writes (spec/parts/admin_pos.yaml): a required key
	// of 1 to 200 characters. Returns keep their own key (8 to 160 ASCII
	// characters) in the domain, for the contract's POS_RETURN_KEY_CONFLICT.
	for _, op := range []string{"createPosProduct", "createPosSale", "sellPosGiftCard", "closePosDay"} {
		idempotencyPolicies[op] = idempotency.Required(idempotency.Max200)
	}
}
