package billing

import (
	"context"
	"errors"
	"net/http"

	"github.com/google/uuid"

	"github.com/venueplatform/venue/internal/apperr"
	"github.com/venueplatform/venue/internal/payments/receipts"
)

// Staff e-mail the receipts of chosen payments to their payers. Each payment
// goes through the member's own resend (receipts.Resend): the same e-mail
// with the PDF attached, queued in the notification outbox under the
// outbox's key per payment and request ("receipt:{payment}:{request}"), so
// a payment named twice, or asked again under the same Idempotency-Key,
// finds its delivery and is "deduped". Each payment has its own
// transaction: one failing leaves the others queued.

// Outcomes of one payment's receipt e-mail.
const (
	ReceiptSent       = "sent"
	ReceiptDeduped    = "deduped"
	ReceiptIneligible = "ineligible"
	ReceiptFailed     = "failed"
)

// Reasons a payment's receipt is ineligible.
const (
	ReceiptNotFound  = "not_found"
	ReceiptNoAddress = "no_address"
)

// ReceiptMail is the outcome of one payment's receipt e-mail; Reason is set
// for an ineligible one.
type ReceiptMail struct {
	PaymentID uuid.UUID
	Outcome   string
	Reason    string
}

// EmailReceipts e-mails the receipt of each payment of ids (in the order
// given) to its member's address on file, once per payment and requestKey.
// The caller has checked the staff permissions.
func (s *Service) EmailReceipts(ctx context.Context, ids []uuid.UUID, requestKey string) []ReceiptMail {
	rs := receipts.New(s.client)
	out := make([]ReceiptMail, 0, len(ids))
	for _, id := range ids {
		queued, err := rs.Resend(ctx, id, requestKey)
		m := receiptOutcome(id, queued, err)
		if m.Outcome == ReceiptFailed {
			s.pay.Logger().ErrorContext(ctx, "billing: receipt e-mail", "payment_id", id, "err", err)
		}
		out = append(out, m)
	}
	return out
}

func receiptOutcome(id uuid.UUID, queued bool, err error) ReceiptMail {
	m := ReceiptMail{PaymentID: id, Outcome: ReceiptSent}
	var ae *apperr.Error
	switch {
	case err == nil && !queued:
		m.Outcome = ReceiptDeduped
	case err == nil:
	case errors.As(err, &ae) && ae.Status == http.StatusNotFound:
		m.Outcome, m.Reason = ReceiptIneligible, ReceiptNotFound
	case errors.As(err, &ae) && ae.Status == http.StatusBadRequest:
		m.Outcome, m.Reason = ReceiptIneligible, ReceiptNoAddress
	default:
		m.Outcome = ReceiptFailed
	}
	return m
}
