package server

import "github.com/venueplatform/venue/internal/idempotency"

// The Idempotency-Key policies of bundle changes and bookings
// (spec/parts/service_bundles.yaml) and staff whole-visit actions
// (spec/parts/admin_visits.yaml): a member's bundle booking requires a UUID,
// as a visit's booking does; staff writes take an optional key.
func init() {
	idempotencyPolicies["bookAppointmentBundle"] = idempotency.Required(idempotency.UUID)
	for _, op := range []string{"updateServiceBundle", "deleteServiceBundle", "cancelAdminVisit", "rescheduleAdminVisit"} {
		idempotencyPolicies[op] = idempotency.Optional(idempotency.Max200)
	}
}
