package server

import "github.com/venueplatform/venue/internal/idempotency"

func init() {
	// Buying and redeeming gift cards: a required key of 1 to 200
	// characters (spec/parts/giftcards.yaml); a retried purchase reaches
	// Stripe with the same key.
	idempotencyPolicies["buyGiftCard"] = idempotency.Required(idempotency.Max200)
	idempotencyPolicies["redeemGiftCard"] = idempotency.Required(idempotency.Max200)
	idempotencyPolicies["issueAdminGiftCard"] = idempotency.Required(idempotency.Max200)
}
