package billing

import (
	"context"
	"fmt"

	"github.com/google/uuid"

	"github.com/venueplatform/venue/ent"
	"github.com/venueplatform/venue/ent/invoice"
	"github.com/venueplatform/venue/ent/latefee"
	"github.com/venueplatform/venue/ent/notificationdelivery"
	"github.com/venueplatform/venue/ent/paymentattempt"
	"github.com/venueplatform/venue/internal/money"
	"github.com/venueplatform/venue/internal/notify"
)

// KindLateFeeSettled is the notification kind of the receipt of a late fee
// staff settled (category payments of the member's preferences).
const KindLateFeeSettled = "payment.late_fee_settled"

// tellIfAsked queues, in tx, the receipt of fee, just paid by the charge of
// intent intentID, when the staff settle that made the charge asked to tell
// the member (notify_client, kept on its attempt): at once or when the
// bank's answer comes later (Stripe's event, the reconcile), the same one
// receipt. Charges of no such request tell nothing.
func tellIfAsked(ctx context.Context, tx *ent.Tx, fee *ent.LateFee, intentID string) error {
	at, err := tx.PaymentAttempt.Query().Where(paymentattempt.SubjectID(fee.ID),
		paymentattempt.ProcessorObjectID(intentID)).First(ctx)
	if ent.IsNotFound(err) {
		return nil
	}
	if err != nil {
		return err
	}
	if ask, _ := at.Intent["notify_client"].(bool); !ask || intentKind(at) != intentLateFeeSettle {
		return nil
	}
	return queueLateFeeReceipt(ctx, tx, fee, intentString(at.Intent, "request_key"))
}

// queueLateFeeReceipt writes in tx the member's receipt of their paid late
// fee by e-mail through the notification outbox under the member's rules
// (the venue's e-mail switch, opt-outs, payments preferences; a member it
// does not reach is a skipped row). Once: the correlation id names the fee
// and the request, and any earlier notice of the fee tells nothing again.
func queueLateFeeReceipt(ctx context.Context, tx *ent.Tx, fee *ent.LateFee, requestKey string) error {
	if fee.Status != latefee.StatusPaid {
		return nil
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
		CorrelationID: prefix + requestKey,
	}
	if _, err := notify.EnqueueForMembers(ctx, tx.Client(), []uuid.UUID{fee.MemberID}, notify.Email, msg); err != nil {
		return fmt.Errorf("billing: late fee receipt: %w", err)
	}
	return nil
}
