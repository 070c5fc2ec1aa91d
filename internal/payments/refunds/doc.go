// Package refunds gives money back on a member's payment: staff review a
// refund (a review intent freezes the amount and what was still refundable),
// then make it, repeating the review's confirmation phrase; to the card that
// paid (a Stripe refund through the payments attempt-row discipline) or
// outside Stripe (cash, bank transfer). The refunds of one payment never add
// up to more than it: every refund is made under the payment's row lock
// against the sum of its pending and succeeded refunds. Inbound refund
// events (charge.refunded, refund.*) keep our rows the truth, members read
// their refund receipts (/me/refunds, a PDF each), and partners hear of
// refunds through the outbound events refund.succeeded and refund.failed.
package refunds
