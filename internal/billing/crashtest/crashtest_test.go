package main

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// TestCrashDuringRenewals runs the crash check at a small scale in the test
// suite: a year of renewals of 20 memberships posted to the server binary,
// SIGKILLed once in the middle of a month's events and restarted; the books
// must match the fake Stripe (reconcile lists each broken rule and fails).
func TestCrashDuringRenewals(t *testing.T) {
	require.NoError(t, run(config{members: 20, months: 12, kills: 1, root: "../../.."}))
}
