package server

import "github.com/venueplatform/venue/internal/idempotency"

// The Idempotency-Key policies of a bundle's checkout (a UUID, as a visit
// checkout's) and of the staff write of a service's deposit rule (optional).
func init() {
	idempotencyPolicies["checkoutAppointmentBundle"] = idempotency.Required(idempotency.UUID)
	idempotencyPolicies["setServiceDeposit"] = idempotency.Optional(idempotency.Max200)
}
