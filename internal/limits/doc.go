// Package limits applies the REST API's rate limits on top of package
// ratelimit (GCRA in PostgreSQL, so a limit holds across every server
// instance): per API key once the key is authenticated, per client IP for
// anonymous calls, with per-operation overrides.
//
// # One component, settled once
//
// A request meets the rate limit once: Limits.Middleware (net/http, after the
// route is found) puts the request's meter in the context, and the meter
// decides the bucket in one function and charges it once (a test in package
// server counts the charges of anonymous, API-key, bearer and
// ignored-credential requests). What varies is the moment the caller becomes
// known, and the meter settles at that moment:
//
//   - no credential header (X-API-Key, Authorization): at once, in
//     Middleware, per client address, before anything else runs;
//   - a credential the security handler verifies: when it calls
//     Authenticated, per principal, before its scope and second-factor
//     checks;
//   - a credential header the operation never authenticated (a public
//     operation, a bearer token where only keys count, /me/minimal's refused
//     token): in Hook (an ogen middleware) as the operation is about to run,
//     per client address.
//
// Why not one moment for all: each case's answers are ordered differently
// against the limit, and moving any charge would change what clients see.
//
//   - Anonymous requests are charged before the generated server runs, so
//     unknown paths, missing credentials and malformed parameters count and
//     carry RateLimit headers, and a 429 comes before them: only a net/http
//     middleware runs that early.
//   - A principal is known only inside the generated server's security
//     handler, which checks scopes and the second factor right after
//     verifying the credential; charging there keeps those 403s (and
//     malformed parameters, decoded later) charged and behind a 429. A
//     net/http middleware has handed the request to the server by then, and
//     the ogen middleware runs after all of them.
//   - A credential the operation ignores is charged only once auth.KeyGuard
//     (an ogen middleware) accepted it and the request decoded: a bad key on
//     a public operation is 401 and a malformed request 400, uncharged and
//     without RateLimit headers. That moment is inside the generated server,
//     after decoding, so the charge is in an ogen middleware too.
//
// The three moments share the meter: the first settles it, the others find
// it settled.
//
// Requests whose authentication fails are not charged (a key is 256 bits: it
// cannot be guessed, and failing requests do no work).
//
// ChargeAccount is not a second charge of the request but a second bucket
// on top of it (per login email, say), charged by the operation because only
// the operation reads the account from the body.
//
// Defaults (Config): 100 requests per minute per API key (the contract's
// Limits table), 300 per minute per client IP for anonymous calls; the
// gift-card balance and preview reads take GiftCardLookup, 20 per minute per
// IP. Each policy has its own bucket. The default per-key bucket is
// ratelimit.APIKey(id), the key MCP limits, so REST and MCP share one window
// (keep both at the same limit). IPv6 clients are limited per /64.
//
// Every limited response carries the headers of the IETF httpapi draft
// "RateLimit header fields for HTTP" (draft-ietf-httpapi-ratelimit-headers):
//
//	RateLimit-Policy: "default";q=100;w=60
//	RateLimit: "default";r=99;t=1
//
// q is the quota per window of w seconds, r the requests left now, t the
// seconds until the whole quota is back. A refused request is 429
// RATE_LIMITED with Retry-After (seconds until one more request fits) and
// details.retry_after_seconds with the same value, and details.policy.
//
// If the database cannot be reached the request is let through and the error
// logged: limits protect the service, they are not worth an outage.
//
// The client IP is the connection's peer address unless that peer is a
// trusted proxy (ClientIP): then the configured header (X-Forwarded-For by
// default, or Forwarded) is read from the right, skipping trusted hops.
package limits
