// Package inquiries owns booking inquiries: a signed-in person asks a venue
// to book one of its appointment services, and the venue's staff answer
// outside the system. It files an inquiry (POST /venues/{slug}/inquiries),
// delivers it to the venue's staff, and lists a user's own inquiries across
// venues (GET /me/inquiries).
//
// # Filing and delivery
//
// Filing is two steps with a network boundary between them:
//
//  1. In one transaction, acting as the user inside the venue (a
//     viewer.User whose Org is the venue, as joining does): check the
//     service, insert the inquiry (status pending) under its request id, and
//     write an audit entry (inquiry.created).
//  2. Deliver it to the venue's staff through the Notifier (an HTTP relay,
//     VENUE_INQUIRY_NOTIFY_URL, or the development log sink), then mark it
//     sent (staff_notified_at, status sent).
//
// A 201 means both steps happened: the venue has been told. When step 2
// fails after step 1 committed, the answer is 503 INQUIRY_RECONCILE_FAILED
// with details.request_id: the inquiry exists (it shows as pending in
// GET /me/inquiries) but the venue may not know of it. Retrying with
// details.request_id as the Idempotency-Key finds the same inquiry by its
// request id, retries the delivery and answers 201 with the same id; a new
// key files a second inquiry. The relay receives the inquiry id (and an
// Idempotency-Key header equal to it), so a delivery repeated after a lost
// answer can be recognised.
//
// A member who never retries does not leave the venue uninformed: every
// server instance sweeps each minute for inquiries undelivered for more than
// RedeliverAfter and delivers them (RedeliverPending; each attempt claimed
// with a conditional update, at most MaxNotifyAttempts).
//
// The request id is the caller's Idempotency-Key (a UUID, lower-cased) or,
// without one, a UUID the server chooses; either way it is returned in the
// Idempotency-Key response header. It is unique per venue and user.
//
// # Rules
//
//   - Any signed-in person may inquire at a listed venue, or at an unlisted
//     one they have a relationship with; other venues are 404 NOT_FOUND. A
//     blocked relationship is 403 ACCESS_DENIED (reason blocked).
//   - The service must be the venue's (another venue's id is 404 NOT_FOUND,
//     like an unknown one), active, and accept inquiries; otherwise 422
//     SERVICE_NOT_ACCEPTING_INQUIRIES.
//   - The venue's inquiries module is on unless the venue switched it off
//     (feature_provisioning.modules.inquiries = false): then 503
//     INQUIRIES_DISABLED and nothing is stored.
//   - Contact fields default to the account's name, email and phone.
//   - Inquiries are owner-scoped: GET /me/inquiries reads only the caller's
//     rows, through the named system site "inquiries.mine" bound to the
//     user id.
package inquiries
