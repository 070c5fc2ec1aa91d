package server

import "github.com/venueplatform/venue/internal/idempotency"

func init() {
	// POST /feedback honours a key when sent (spec/parts/feedback.yaml); one
	// review per booking holds without one.
	idempotencyPolicies["createFeedback"] = idempotency.Optional(idempotency.Max200)
}
