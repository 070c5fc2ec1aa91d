package events_test

import "github.com/venueplatform/venue/internal/events"

// The renewal events are recorded with the invoice's change; the billing
// package's tests (TestYearOfRenewals, TestEventsInAnyOrder) read them from
// the outbox.
func init() {
	coveredElsewhere[events.MembershipRenewed] = true
	coveredElsewhere[events.MembershipRenewalFailed] = true
}
