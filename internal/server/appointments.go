package server

import "github.com/venueplatform/venue/internal/idempotency"

// The Idempotency-Key policies of the appointment operations
// (spec/parts/appointments.yaml, spec/parts/admin_appointments.yaml): the
// contract requires a key on members' appointment writes; staff writes take
// an optional one. 1 to 200 visible ASCII characters.
func init() {
	for _, op := range []string{"createAppointment", "cancelAppointment", "cancelAppointmentVisit"} {
		idempotencyPolicies[op] = idempotency.Required(idempotency.Max200)
	}
	idempotencyPolicies["createAppointmentVisit"] = idempotency.Required(idempotency.UUID)
	for _, op := range []string{
		"createServiceVariant", "updateServiceVariant", "deleteServiceVariant",
		"assignServiceProvider", "updateServiceProvider", "removeServiceProvider",
		"setProviderWorkingHours", "addProviderTimeOff", "deleteProviderTimeOff",
		"updateAppointmentPolicies", "updateBookingOffering",
		"createAdminAppointment", "actOnAdminAppointment",
		"createAdminRoom", "updateAdminRoom",
		"updateAdminLocation",
	} {
		idempotencyPolicies[op] = idempotency.Optional(idempotency.Max200)
	}
}
