// Command crashtest checks webhook delivery against crashes with the real server binary:
//
//	go run ./internal/webhooks/crashtest -bookings 600 -kills 2 [-down 8s]
//
// It starts a throwaway PostgreSQL, builds and starts cmd/server on it, seeds a venue (classes,
// members with passes, an API key with write:schedule) and a webhook subscription to
// booking.created and booking.waitlisted pointing at a receiver it runs on loopback, which
// verifies every Standard Webhooks signature. Concurrent workers then book through
// POST /api/v1/bookings with an Idempotency-Key each, retrying the same request while the
// server is unreachable; the server is killed with SIGKILL -kills times during the load and
// restarted each time. With -down the receiver answers 503 for that long first, and the retry
// schedule is shortened through VENUE_WEBHOOK_RETRY_DELAYS.
//
// Once every delivery has settled it reconciles the database with what the receiver got and
// prints the figures: every committed booking has exactly one event, one delivery, delivered,
// and its webhook-id was received and verified; nothing was received for a booking that does
// not exist; every booking the API acknowledged exists; attempt histories are numbered
// 1..n without gaps, in order, and end with the 2xx. It exits non-zero when any check fails. Redeliveries of the same
// webhook-id (at least once) are counted, not failed.
//
// TestCrashDuringBookingLoad runs the same check at a small scale with the test suite.
package main
