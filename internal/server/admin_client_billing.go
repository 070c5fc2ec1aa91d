package server

import "github.com/venueplatform/venue/internal/idempotency"

func init() {
	// The client billing desk's writes: a required key of 1 to 200
	// characters (spec/parts/admin_client_billing.yaml).
	for _, op := range []string{"removeAdminClientPaymentMethod", "setAdminClientDefaultPaymentMethod",
		"clearAdminClientDefaultPaymentMethod", "createAdminDeskCharge", "collectAdminFee"} {
		idempotencyPolicies[op] = idempotency.Required(idempotency.Max200)
	}
}
