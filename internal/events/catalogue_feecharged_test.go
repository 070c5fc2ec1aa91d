package events_test

import "github.com/venueplatform/venue/internal/events"

// fee.charged is recorded by the fee collection's settlement in the
// transaction that marks the fee charged and writes its payment; the
// collection runs through Stripe (the fake), so its test is the handlers'
// TestAdminFeeCollect, which counts the one event of a fee charged once.
func init() { coveredElsewhere[events.FeeCharged] = true }
