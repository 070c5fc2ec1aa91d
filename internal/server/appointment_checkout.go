package server

import "github.com/venueplatform/venue/internal/idempotency"

// The Idempotency-Key policies of the appointment checkout operations
// (spec/parts/appointment_checkout.yaml and the visit reschedule): members'
// checkouts, confirms and the visit reschedule require a key (a visit
// checkout's a UUID, as a visit's booking); the plan reads nothing it
// changes and takes an optional one.
func init() {
	for _, op := range []string{"checkoutAppointment", "confirmAppointmentCheckout", "confirmAppointmentVisitCheckout", "rescheduleAppointmentVisit"} {
		idempotencyPolicies[op] = idempotency.Required(idempotency.Max200)
	}
	idempotencyPolicies["checkoutAppointmentVisit"] = idempotency.Required(idempotency.UUID)
	idempotencyPolicies["planAppointmentVisit"] = idempotency.Optional(idempotency.Max200)
}

func init() {
	idempotencyPolicies["createServiceBundle"] = idempotency.Optional(idempotency.Max200)
}

func init() {
	for _, op := range []string{"createStaffShift", "deleteStaffShift"} {
		idempotencyPolicies[op] = idempotency.Optional(idempotency.Max200)
	}
}
