// Package pos is the venue's point of sale: what the front desk sells to
// people standing at the counter and how the day is closed.
//
//   - Retail products with stock on hand and a price book per currency
//     (ProductPrice, versioned); every sale and return is a stock movement,
//     and stock never goes below zero, however many desks sell at once (a
//     conditional update per product, in product-id order, plus a CHECK).
//     Staff change a product's prices (a new price book version) and adjust
//     its stock (restock, write-off, count), each adjustment a movement
//     (products.go).
//   - Quote prices a cart (products, or one pass type) VAT-inclusively; the
//     preview answers it and the sale charges it, computed by the same
//     function from the same rows, so a sale's total equals its preview's
//     for the same cart and time (expected_total_minor holds the sale to it,
//     and product_quote to the price book versions it was priced from).
//   - A sale is paid in cash or with a gift card of the shared ledger
//     (package giftcards); it writes an ordinary payment row (kind product,
//     pass_purchase or gift_card), the event pos.sale.completed and, when a
//     member with an address is named, a receipt through the outbox.
//   - Gift cards sold at the desk are issued on the same ledger as online
//     ones, with a payment row of kind gift_card.
//   - Card payments without a terminal (card.go): a member's saved card
//     charged off-session, or a payment link; the sale waits as a payment
//     subject of package payments (attempt rows, reconcile) with its stock
//     held, completes once whoever learns of the money first, and lapses
//     unpaid after CardHold. Memberships sold at the desk (memberships.go)
//     activate through the payments activation, renewals only when paid by
//     card. A pass granted for an expired partner code activates the same
//     way, for nothing (partnercode.go).
//   - Returns put products back in stock once per key; end-of-day closes
//     total the day's sales per method and compare expected with counted
//     cash, replacing an earlier close of the same date.
//
// Decisions: docs/pos.md.
package pos
