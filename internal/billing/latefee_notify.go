package billing

import (
	"context"
	"fmt"

	"github.com/google/uuid"

	"github.com/venueplatform/venue/ent"
	"github.com/venueplatform/venue/internal/money"
	"github.com/venueplatform/venue/internal/notify"
)

// KindLateFeeAdded is the notification kind of the message telling a member
// that a late fee was added to their unpaid renewal (category payments of
// the member's notification preferences).
const KindLateFeeAdded = "payment.late_fee_added"

// tellLateFee queues, in the transaction that applied fee to renewal in,
// the member's message about it: e-mail and push through the notification
// outbox under the member's rules (the venue's channel switches, the
// member's reachability, opt-outs and payments preferences); a channel that
// does not reach them is recorded as skipped with its reason. Each fee is
// told once: the fee is applied once per invoice.
func tellLateFee(ctx context.Context, tx *ent.Tx, in *ent.Invoice, fee *ent.LateFee) error {
	due := money.Format(in.TotalMinor-in.AmountPaidMinor, in.Currency)
	amount := money.Format(fee.AmountMinor, fee.Currency)
	msg := notify.Message{
		Kind:    KindLateFeeAdded,
		Subject: "A late fee was added to invoice " + in.Number,
		Body: fmt.Sprintf("Your membership renewal of %s (invoice %s) is still unpaid, so a late fee of %s was added. "+
			"Pay the invoice in the app (Invoices, Pay now); the fee is charged to the same card right after.",
			due, in.Number, amount),
		Data: map[string]any{"invoice_id": in.ID.String(), "late_fee_id": fee.ID.String(),
			"amount_minor": fee.AmountMinor, "currency": fee.Currency, "pay_path": "/api/v1/me/invoices/" + in.ID.String() + "/retry"},
		CorrelationID: "late_fee:" + fee.ID.String(),
	}
	for _, ch := range []notify.Channel{notify.Email, notify.Push} {
		if _, err := notify.EnqueueForMembers(ctx, tx.Client(), []uuid.UUID{in.MemberID}, ch, msg); err != nil {
			return fmt.Errorf("billing: late fee notice: %w", err)
		}
	}
	return nil
}
