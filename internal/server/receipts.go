package server

import "github.com/venueplatform/venue/internal/idempotency"

func init() {
	// Resending a receipt: a required key of 1 to 200 characters
	// (spec/parts/receipts.yaml); one e-mail per key.
	idempotencyPolicies["resendReceipt"] = idempotency.Required(idempotency.Max200)
}
