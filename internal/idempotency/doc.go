// Package idempotency owns the Idempotency-Key header of the REST API
// (DESIGN.md "Idempotency keys"): a key is claimed atomically in the table
// idempotency_keys, scoped by venue and principal, and the first request's
// final answer is stored and replayed to every retry.
//
// # One component, claimed once
//
// A Guard is one component with one entry: Middleware (net/http, around the
// generated server, after the route is found) holds the request's state, and
// the key is claimed at one point, Hook (an ogen middleware), once per
// request (a test in package server counts the claims of API-key and bearer
// writes and their replays). Middleware does what only a net/http wrapper
// can, before and after the server: for an operation with a Policy it
// buffers the body and hashes method, path, query and body (SHA-256), records
// the answer, and afterwards stores it, replays the stored one, or releases
// the key.
//
// Why the claim is not in Middleware too: it needs the caller (the scope and
// principal), known only once the generated server's security handler has
// run (anonymous callers meet none, so it cannot be the trigger), and it must come after the server decoded the request, so a malformed
// request claims nothing (a retry with the corrected body must run, not meet
// 409 IDEMPOTENCY_KEY_REUSE_MISMATCH). Both happen inside the generated
// server, after which the ogen middleware is the first code of ours to run
// before the operation. Why the recording is not in Hook: an ogen middleware
// sees typed values, not the bytes the server writes, and cannot write a
// stored answer; only the ResponseWriter around the server can.
//
// # Rules
//
//   - Policy per operation id: Required or Optional, and a key Format: UUID,
//     Max128, Max200, ASCII8To160 or Default (1 to 255 characters). Keys are
//     visible ASCII (no spaces); UUID keys are compared in lower case.
//   - Missing a required key, a malformed key or two Idempotency-Key headers:
//     400 INVALID_IDEMPOTENCY_KEY, details.parameter "Idempotency-Key",
//     details.reason "missing" or "format", details.format the format's name.
//   - Scope: the viewer's venue id; for callers without a venue, the
//     X-Organization-ID (or "slug:" + X-Organization-Slug) header; else
//     "public". Principal: "api_key:<key id>" for API keys, the viewer's Actor
//     for other authenticated viewers, "ip:<client address>" for anonymous
//     callers. The same key from two scopes or principals is two keys.
//   - Same key, other request (method, path, query or body differ): 409
//     IDEMPOTENCY_KEY_REUSE_MISMATCH. A JSON body is compared in canonical
//     form (keys sorted, no white space, numbers as written); any other body
//     byte for byte.
//   - Same key while the first request runs: 409 IDEMPOTENCY_KEY_IN_USE with
//     Retry-After: 1. The claim is a lock of 60 s (NewStore's lock); a lock past
//     its time (a crashed instance) is taken over by a retry of the same
//     request.
//   - The first request's final answer, success or error, below 500, is
//     stored: status, body, Content-Type and the headers of ReplayHeaders; a
//     retry gets exactly that, with Idempotent-Replayed: true (and its own
//     X-Request-Id; the body keeps the original details.request_id).
//   - A 5xx answer, a panic or an answer larger than MaxResponseBytes
//     releases the key: the outcome is unknown to the caller, who may retry
//     with the same key and it runs again. An operation that may have taken
//     effect before failing answers 409 UNKNOWN_WRITE_OUTCOME (stored, so
//     retries see it) rather than a 5xx.
//   - Requests refused before the operation runs (authentication, malformed
//     parameters, rate limits, the 409s above) claim nothing and store nothing.
//   - Keys live 24 h (NewStore's ttl) from their answer; expired rows are
//     ignored (the key may be used afresh) and Store.Sweep deletes them.
//
// Anonymous callers are told apart only by address and key: operations open
// to anonymous callers should require UUID keys.
//
// Derive gives a handler a key for a call to another service (Stripe) that is
// stable across retries of the same claimed request.
package idempotency
