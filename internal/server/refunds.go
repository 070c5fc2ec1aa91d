package server

import "github.com/venueplatform/venue/internal/idempotency"

func init() {
	// Refund reviews and refunds: a required key of 1 to 200 characters
	// (spec/parts/refunds.yaml).
	idempotencyPolicies["createRefundReview"] = idempotency.Required(idempotency.Max200)
	idempotencyPolicies["refundPayment"] = idempotency.Required(idempotency.Max200)
}

func init() {
	// Fee settlement and waiver: a required key of 1 to 200 characters
	// (spec/parts/admin_fees.yaml).
	idempotencyPolicies["settleAdminFee"] = idempotency.Required(idempotency.Max200)
	idempotencyPolicies["waiveAdminFee"] = idempotency.Required(idempotency.Max200)
}
