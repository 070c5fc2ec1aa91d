// Package timing gives a handler a minimum response time, so how long it
// takes says nothing about which branch it took. The email account-state
// check answers in no less than 250 ms whether the email is absent, active
// or anything else: the database lookup is far shorter than the floor, so
// every answer leaves at the floor plus the scheduler's jitter, which does
// not depend on the account.
//
// Use it at the top of the handler, after parsing and rate limiting (a
// request refused by the rate limiter need not wait):
//
//	start := time.Now()
//	defer timing.Floor(ctx, start, 250*time.Millisecond)
//
// or wrap the work with [Run]. The floor hides only work shorter than it: a
// branch that can exceed 250 ms (a slow query, a password hash) still shows,
// so keep such work out of floored handlers or raise the floor above it.
// The measurements are in the package tests (TestFloorHidesTheBranch logs
// the distributions).
package timing
