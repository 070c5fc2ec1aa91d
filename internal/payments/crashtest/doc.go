// Command crashtest checks that checkout charges exactly once through server crashes, with the
// real server binary and a fake Stripe that answers slowly:
//
//	go run ./internal/payments/crashtest -purchases 200 -kills 2 [-delay 300ms]
//
// It starts a throwaway PostgreSQL, builds and starts cmd/server on it with Stripe pointed at a
// fake Stripe it runs on loopback (package stripetest: every answer delayed by -delay), seeds a
// venue with a connected account, a clip-card pass type and one member per purchase, and mints
// each member an access token. Every member then previews and buys the card concurrently
// (POST /api/v1/me/checkout/purchase with an Idempotency-Key each, with a saved card), retrying
// the same request while the server is unreachable or the key is still held; the server is
// SIGKILLed -kills times during the load and restarted each time.
//
// Once no attempt is left in flight or unknown (clients' retries resume their attempts with the
// same Stripe key; reconcile jobs settle unknown outcomes by reading Stripe) it compares the
// database with the fake Stripe and prints the figures: every succeeded charge has exactly one
// active pass and one payment row; no pass or payment exists without a succeeded charge; no
// attempt created more than one intent; every purchase the API answered succeeded is paid. It
// exits non-zero when any check fails.
//
// TestCrashDuringPurchaseLoad runs the same check at a small scale with the test suite.
package main
