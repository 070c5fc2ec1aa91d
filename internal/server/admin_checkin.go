package server

import "github.com/venueplatform/venue/internal/idempotency"

// The front desk's writes honour an optional Idempotency-Key of 1 to 200 characters
// (spec/parts/admin_checkin.yaml): a retried contact does not send twice, a retried
// reassignment replays its first answer instead of meeting its own attempt.
func init() {
	for _, op := range []string{
		"checkInAdminBooking",
		"contactAdminCheckinClass",
		"correctAdminBookingAttendance",
		"reassignAdminBookingFunding",
		"closeAdminBookingFundingAttempt",
	} {
		idempotencyPolicies[op] = idempotency.Optional(idempotency.Max200)
	}
}
