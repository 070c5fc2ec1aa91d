// Package billing owns the renewals of memberships: the Stripe Billing
// subscription that renews a recurring pass each period, the invoices that
// bill each period (our rows are the truth members and staff see), the
// inbound invoice and subscription events, members' invoices, outstanding
// and failed payments, invoice retries, and the staff's renewal-side
// operations.
//
// It builds on package payments: one money model (int64 minor units, prices
// include VAT at the venue's rate, payments.VATShare), one Stripe adapter
// (stripeport), one attempt-row discipline (a PaymentAttempt row, committed
// before every Stripe write, whose id makes the Stripe idempotency key; one
// live attempt per subject), and the inbound events recorded once by id and
// processed by the payments event job, which routes invoice.* and
// customer.subscription.* here.
//
// The rules that keep renewals exactly once and in any order:
//
//   - Every event of a subscription is handled under that subscription's
//     row lock, so two events (or an event and a member's retry) never
//     interleave.
//   - An invoice row is found by its Stripe invoice id, or created by
//     whichever event comes first, taking its number from the venue's
//     counter row for that year (locked in the same transaction): numbers
//     are gapless, per venue and year.
//   - Paid is terminal: a late payment_failed after paid changes nothing;
//     paying writes one payment row for the remaining balance, rolls the
//     pass's period, resets its clips and sends the receipt, once.
package billing
