package server

import (
	"time"

	"github.com/venueplatform/venue/internal/idempotency"
	"github.com/venueplatform/venue/internal/limits"
)

// checkinContact bounds how many messages a staff member sends from the front desk: 20
// contact requests per 10 minutes per user (each reaches at most 100 members).
var checkinContact = limits.Policy{Name: "checkin-contact", Limit: 20, Window: 10 * time.Minute}

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
	operationLimits["contactAdminCheckinClass"] = limits.Rule{PerKey: &checkinContact}
}
