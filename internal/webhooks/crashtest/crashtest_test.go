package main

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// TestCrashDuringBookingLoad runs the crash check at a small scale in the
// test suite: the server binary is SIGKILLed once during a booking load and
// restarted; every committed booking must have exactly one event and one
// delivery, delivered and verified, and nothing may be delivered for an
// uncommitted booking (reconcile lists each broken rule and fails). Retries
// whose key was in flight at the kill wait out the 60 s key lock, so this
// takes a minute and more.
func TestCrashDuringBookingLoad(t *testing.T) {
	require.NoError(t, run(config{bookings: 120, workers: 8, kills: 1, classes: 5, root: "../../.."}))
}
