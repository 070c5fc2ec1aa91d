// Package limits applies the REST API's rate limits on top of package
// ratelimit (GCRA in PostgreSQL, so a limit holds across every server
// instance): per API key once the key is authenticated, per client IP for
// anonymous calls, with per-operation overrides.
//
// Three hooks, because the API key is known only after authentication:
//
//   - Middleware (net/http, around the generated server) charges anonymous
//     requests (no credential header) to their client IP before anything runs,
//     and puts a holder in the request context;
//   - ChargeAPIKey, called by the security handler right after it
//     authenticated a key, charges the key through that holder;
//   - Hook (an ogen middleware) charges, per IP, a request that carried a
//     credential header the operation never authenticated (a public-only
//     operation), so an ignored header is no way around the IP limit.
//
// Requests whose authentication fails are not charged (a key is 256 bits: it
// cannot be guessed, and failing requests do no work).
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
