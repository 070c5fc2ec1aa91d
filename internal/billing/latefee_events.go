package billing

import (
	"context"
	"time"

	"github.com/venueplatform/venue/ent"
	"github.com/venueplatform/venue/internal/events"
)

// Partners hear of membership late fees through their own event types
// (membership.late_fee_applied, _paid, _waived), not fee.*: those are a
// booking's no-show and late-cancel fees, and their subscribers rely on
// booking_id. Each is recorded in the transaction that changes the fee,
// under the lock that lets the change happen once (the subscription's for
// the sweep, the fee's for the charge's settlement and the waiver), so a
// retried change or a redelivered processor event that finds the fee
// already changed records nothing.

// recordLateFeeEvent records typ for fee, as it is after the change, with
// the fields every late fee event carries plus extra.
func recordLateFeeEvent(ctx context.Context, tx *ent.Tx, typ string, fee *ent.LateFee, extra map[string]any) error {
	var pass any
	if fee.PassID != nil {
		pass = fee.PassID.String()
	}
	data := map[string]any{"late_fee_id": fee.ID.String(), "pass_id": pass, "member_id": fee.MemberID.String(),
		"invoice_id": fee.InvoiceID.String(), "amount_minor": fee.AmountMinor, "currency": fee.Currency,
		"fee_status": string(fee.Status)}
	for k, v := range extra {
		data[k] = v
	}
	_, err := events.Record(ctx, tx.Client(), typ, data)
	return err
}

// eventTime is t as the events write times (RFC 3339, UTC).
func eventTime(t time.Time) string { return t.UTC().Format(time.RFC3339) }
