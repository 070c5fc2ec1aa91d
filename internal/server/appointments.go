package server

import "github.com/venueplatform/venue/internal/idempotency"

// The Idempotency-Key policies of the appointment operations
// (spec/parts/appointments.yaml): the contract requires a key on members'
// appointment writes; 1 to 200 visible ASCII characters.
func init() {
	for _, op := range []string{"createAppointment", "cancelAppointment"} {
		idempotencyPolicies[op] = idempotency.Required(idempotency.Max200)
	}
}
