package server

import "github.com/venueplatform/venue/internal/idempotency"

// Calendar event writes honour an optional Idempotency-Key of 1 to 200
// characters, like the staff schedule's (spec/parts/calendar_events.yaml).
func init() {
	for _, op := range []string{"createCalendarEvent", "cancelCalendarEvent"} {
		idempotencyPolicies[op] = idempotency.Optional(idempotency.Max200)
	}
}
