package events_test

import "github.com/venueplatform/venue/internal/events"

// The membership late fee events are recorded by the billing service's
// changes of a late fee (the sweep, the charge's settlement under the fee's
// lock, the waiver), which run through the fake Stripe and the billing
// clock: the handlers' TestLateFeeWebhookEvents drives each one, twice, and
// counts exactly one event and delivery of each.
func init() {
	coveredElsewhere[events.MembershipLateFeeApplied] = true
	coveredElsewhere[events.MembershipLateFeePaid] = true
	coveredElsewhere[events.MembershipLateFeeWaived] = true
}
