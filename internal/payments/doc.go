// Package payments owns money taken by card: a venue's Stripe connected
// account (Connect, direct mode) and its onboarding, checkout of passes
// (preview, purchase of a frozen quote, confirm), the attempt rows that record
// every Stripe write before it is made, activation of what was bought, the
// inbound Stripe events and the jobs that process them and reconcile unknown
// outcomes.
//
// Our PostgreSQL rows are the truth of what was sold; Stripe moves the money.
// The rules that keep a sale exactly once:
//
//   - A checkout is one quote bought by one member (unique on the quote's
//     fingerprint), charged with the quote's frozen amount, never recomputed.
//   - Every Stripe write is a PaymentAttempt row first, committed before the
//     call, and carries the Stripe idempotency key
//     v1:{purpose}:{attempt_id}:{step}; a retry of the same request reaches
//     Stripe with the same key. One live attempt per checkout (a unique
//     index on live_subject_id): a second concurrent charge is
//     PAYMENT_PENDING.
//   - An outcome that is not known (a timeout, a dropped connection) leaves
//     the attempt unknown and queues a reconcile job in the same transaction;
//     the job only reads Stripe (the intent, or a search by the attempt id in
//     its metadata), never charges.
//   - Activation (the pass, the payment row, the outbound events) is one
//     function under the checkout's row lock, called by confirm, by the
//     inbound event and by reconcile, whichever comes first; the others find
//     it done.
//   - Inbound events are verified (raw body, platform or Connect secret, 300 s
//     tolerance, pinned API version), recorded by id (ON CONFLICT DO NOTHING)
//     with their job in one transaction, and handled monotonically, so
//     duplicates and disorder change nothing twice.
//
// Money is int64 minor units with an ISO 4217 currency (package money knows
// each exponent); prices include VAT at the venue's rate, and the VAT share,
// round_half_up(total x rate / (10000 + rate)), is frozen on the checkout.
package payments
