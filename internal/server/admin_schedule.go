package server

import "github.com/venueplatform/venue/internal/idempotency"

// The staff schedule's writes honour an optional Idempotency-Key of 1 to 200
// characters (spec/parts/admin_schedule.yaml): a retried cancel or bulk
// operation replays its first answer instead of running again.
func init() {
	for _, op := range []string{
		"updateAdminScheduleItem",
		"cancelAdminScheduleItem",
		"substituteAdminScheduleInstructor",
		"bulkEditAdminSchedule",
		"bulkCancelAdminSchedule",
		"correctAdminScheduleHistory",
		"createAdminScheduleClasses",
	} {
		idempotencyPolicies[op] = idempotency.Optional(idempotency.Max200)
	}
}
