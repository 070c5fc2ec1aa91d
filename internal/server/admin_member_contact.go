package server

import "github.com/venueplatform/venue/internal/idempotency"

func init() {
	// Staff contact about a client's records: a required key of 1 to 200
	// characters (spec/parts/admin_member_contact.yaml).
	for _, op := range []string{"emailAdminPaymentReceipts", "createAdminProfileUpdateRequest"} {
		idempotencyPolicies[op] = idempotency.Required(idempotency.Max200)
	}
}
