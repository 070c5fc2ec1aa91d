package billing

import (
	"context"
	"fmt"

	"github.com/google/uuid"

	"github.com/venueplatform/venue/ent"
	"github.com/venueplatform/venue/ent/invoice"
	"github.com/venueplatform/venue/ent/latefee"
	"github.com/venueplatform/venue/ent/notificationdelivery"
	"github.com/venueplatform/venue/internal/events"
	"github.com/venueplatform/venue/internal/money"
	"github.com/venueplatform/venue/internal/notify"
)

// KindLateFeeSettled is the notification kind of the receipt of a late fee
// staff settled (category payments of the member's preferences).
const KindLateFeeSettled = "payment.late_fee_settled"

// TellLateFeeSettled sends the member the receipt of their late fee feeID
// that staff settled, when the request asked for it (notify_client; staff
// are silent by default): by e-mail through the notification outbox under
// the member's rules (the venue's e-mail switch, opt-outs, payments
// preferences; a member it does not reach is a skipped row). Only a paid
// fee is told, and once: the correlation id names the fee and the request's
// idempotency key, and any earlier notice of the fee tells nothing again.
// It reports whether a notice was written.
func (s *Service) TellLateFeeSettled(ctx context.Context, feeID uuid.UUID, key string) (bool, error) {
	told := false
	err := events.WithTx(ctx, s.client, func(ctx context.Context, tx *ent.Tx) error {
		fee, err := tx.LateFee.Query().Where(latefee.ID(feeID)).ForUpdate().Only(ctx)
		if err != nil || fee.Status != latefee.StatusPaid {
			return err
		}
		prefix := "late_fee_settled:" + fee.ID.String() + ":"
		if n, err := tx.NotificationDelivery.Query().Where(notificationdelivery.CorrelationIDHasPrefix(prefix)).Count(ctx); err != nil || n > 0 {
			return err
		}
		number := ""
		if in, err := tx.Invoice.Query().Where(invoice.ID(fee.InvoiceID)).Only(ctx); err == nil {
			number = in.Number
		} else if !ent.IsNotFound(err) {
			return err
		}
		data := map[string]any{"late_fee_id": fee.ID.String(), "invoice_id": fee.InvoiceID.String(),
			"amount_minor": fee.AmountMinor, "currency": fee.Currency}
		if fee.PaymentID != nil {
			data["payment_id"] = fee.PaymentID.String()
		}
		msg := notify.Message{
			Kind:    KindLateFeeSettled,
			Subject: "Receipt for the late fee of invoice " + number,
			Body: fmt.Sprintf("Thank you. We received %s for the late fee of invoice %s; nothing more is due for it.",
				money.Format(fee.AmountMinor, fee.Currency), number),
			Data:          data,
			CorrelationID: prefix + key,
		}
		if _, err := notify.EnqueueForMembers(ctx, tx.Client(), []uuid.UUID{fee.MemberID}, notify.Email, msg); err != nil {
			return fmt.Errorf("billing: late fee receipt: %w", err)
		}
		told = true
		return nil
	})
	return told, err
}
