// Package retry owns the retry schedule of webhook deliveries: when the next attempt of a
// failed delivery happens, and when to give up. It is pure (no clock, no I/O); jitter comes
// from a random source the caller passes, so tests are deterministic.
//
// The default schedule backs off exponentially from seconds to hours (5 s, 30 s, 2 min,
// 10 min, 30 min, 1 h, 2 h, 4 h, 8 h), then retries every 8 h, giving up once the next attempt
// would fall beyond three days after the first: 17 attempts in all, the last about 71 h 42 min
// after the first, so a receiver that is down for a day and a half still gets every event.
// Each delay is spread by up to ±20 % so that deliveries that failed together, such as
// every event of an outage, do not retry in lockstep.
package retry
