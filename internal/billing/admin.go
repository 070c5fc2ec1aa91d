package billing

import (
	"context"
	"errors"
	"net/http"
	"time"

	"github.com/google/uuid"

	"github.com/venueplatform/venue/ent"
	"github.com/venueplatform/venue/ent/invoice"
	"github.com/venueplatform/venue/ent/paymentattempt"
	"github.com/venueplatform/venue/ent/subscription"
	"github.com/venueplatform/venue/internal/apperr"
	"github.com/venueplatform/venue/internal/audit"
	"github.com/venueplatform/venue/internal/events"
	"github.com/venueplatform/venue/internal/payments"
	"github.com/venueplatform/venue/internal/payments/stripeport"
)

// Audit actions of the staff's billing desk.
const (
	AuditSettledExternally = "payment.settled_externally"
	AuditComped            = "payment.comped"
)

// SettleParams record an unpaid invoice as paid outside the service.
type SettleParams struct {
	InvoiceID    uuid.UUID
	Method       string // cash, bank_transfer, other
	AmountMinor  int64
	PaidAt       time.Time // zero: now
	Note         string
	NotifyClient bool
}

func settlementFailed() *apperr.Error {
	return refusal(http.StatusBadGateway, "SETTLEMENT_FAILED", "the payment processor did not record the settlement; nothing changed", "refresh")
}

// staffInvoice reads an invoice of the viewer's venue for a staff write:
// NOT_FOUND, ALREADY_PAID, NOT_RETRYABLE in that order.
func (s *Service) staffInvoice(ctx context.Context, id uuid.UUID) (*ent.Invoice, error) {
	row, err := s.client.Invoice.Get(ctx, id)
	if ent.IsNotFound(err) {
		return nil, invoiceNotFound()
	}
	if err != nil {
		return nil, err
	}
	if row.Status == invoice.StatusPaid {
		return nil, alreadyPaid()
	}
	if !isUnpaid(row.Status) || row.SubscriptionID == nil {
		return nil, notRetryable("not_open")
	}
	return row, nil
}

// SettleExternally records that the member paid an unpaid invoice outside
// the service: Stripe is told the invoice was paid out of band (so it stops
// retrying), then, in one transaction, the payment row, the invoice paid,
// the pass rolled on and the audit entry payment.settled_externally. Less
// than the balance is a partial settlement (partial.go): the invoice
// becomes partially_paid and Stripe's next charge takes only the rest.
func (s *Service) SettleExternally(ctx context.Context, p SettleParams) (*ent.Invoice, error) {
	row, err := s.staffInvoice(ctx, p.InvoiceID)
	if err != nil {
		return nil, err
	}
	if p.AmountMinor <= 0 || p.AmountMinor > Balance(row) {
		return nil, apperr.Validation("amount_minor", "amount_minor must be above zero and at most the outstanding balance").
			With("outstanding_balance_minor", Balance(row))
	}
	if !p.PaidAt.IsZero() && p.PaidAt.After(s.now().Add(time.Minute)) {
		return nil, apperr.Validation("paid_at", "paid_at may not be in the future")
	}
	at := p.PaidAt
	if at.IsZero() {
		at = s.now()
	}
	if p.AmountMinor < Balance(row) {
		return s.settlePartially(ctx, row, p, at) // partial.go
	}
	return s.settleOutOfBand(ctx, row, settlement{kind: invoice.SettlementExternal, at: at, silent: !p.NotifyClient, method: p.Method},
		audit.Entry{Action: AuditSettledExternally, Target: "invoice:" + row.ID.String(), Details: map[string]any{
			"method": p.Method, "amount_minor": p.AmountMinor, "currency": row.Currency, "note": p.Note,
			"invoice_number": row.Number, "paid_at": at.UTC().Format(time.RFC3339), "notify_client": p.NotifyClient}})
}

// Comp waives an unpaid invoice: no money moves, the invoice is paid by
// comp, the pass rolls on, and the audit entry payment.comped keeps the
// reason.
func (s *Service) Comp(ctx context.Context, id uuid.UUID, reason string) (*ent.Invoice, error) {
	row, err := s.staffInvoice(ctx, id)
	if err != nil {
		return nil, err
	}
	return s.settleOutOfBand(ctx, row, settlement{kind: invoice.SettlementComp, at: s.now(), silent: true},
		audit.Entry{Action: AuditComped, Target: "invoice:" + row.ID.String(), Details: map[string]any{
			"reason": reason, "amount_minor": Balance(row), "currency": row.Currency, "invoice_number": row.Number}})
}

// settleOutOfBand is the attempt-row discipline for a Stripe write that
// moves no money: the attempt in the invoice's live slot (so a concurrent
// retry or settlement is PAYMENT_PENDING), Stripe told, then our rows.
func (s *Service) settleOutOfBand(ctx context.Context, row *ent.Invoice, st settlement, entry audit.Entry) (*ent.Invoice, error) {
	vp, err := s.pay.Chargeable(ctx)
	if err != nil {
		return nil, err
	}
	var attempt *ent.PaymentAttempt
	err = events.WithTx(ctx, s.client, func(ctx context.Context, tx *ent.Tx) error {
		if _, err := tx.Subscription.Query().Where(subscription.ID(*row.SubscriptionID)).ForUpdate().Only(ctx); err != nil {
			return err
		}
		if cur, err := tx.Invoice.Get(ctx, row.ID); err != nil {
			return err
		} else if cur.Status == invoice.StatusPaid {
			return alreadyPaid()
		}
		if n, err := tx.PaymentAttempt.Query().Where(paymentattempt.LiveSubjectID(row.ID)).Count(ctx); err != nil {
			return err
		} else if n > 0 {
			return paymentPending()
		}
		n, err := tx.PaymentAttempt.Query().Where(paymentattempt.SubjectID(row.ID)).Count(ctx)
		if err != nil {
			return err
		}
		attempt, err = tx.PaymentAttempt.Create().SetPurpose(paymentattempt.PurposeInvoicePay).
			SetSubjectID(row.ID).SetNumber(n + 1).SetState(paymentattempt.StateInFlight).
			SetLiveSubjectID(row.ID).SetIntent(settleIntent(ctx, st, entry)).Save(ctx) // external_settle.go
		return err
	})
	if ent.IsConstraintError(err) {
		return nil, paymentPending()
	}
	if err != nil {
		return nil, err
	}
	if row.ProcessorInvoiceID != nil {
		_, err := s.port.PayInvoiceOutOfBand(ctx, *vp.AccountID,
			payments.IdempotencyKey(string(attempt.Purpose), attempt.ID.String(), "out_of_band"), *row.ProcessorInvoiceID)
		if errors.Is(err, stripeport.ErrUnknownOutcome) {
			// Left in flight with the staff's intent: Stripe's invoice.paid
			// or the reconcile finishes it as asked (external_settle.go).
			return nil, unknownOutcome()
		}
		if err != nil && stripeport.RefusalCode(err) != "invoice_already_paid" {
			_ = s.closeAttempt(ctx, attempt, paymentattempt.StateFailed)
			return nil, settlementFailed()
		}
	}
	err = events.WithTx(ctx, s.client, func(ctx context.Context, tx *ent.Tx) error {
		sub, err := tx.Subscription.Query().Where(subscription.ID(*row.SubscriptionID)).ForUpdate().Only(ctx)
		if err != nil {
			return err
		}
		cur, err := tx.Invoice.Get(ctx, row.ID)
		if err != nil {
			return err
		}
		done, err := s.settle(ctx, tx, sub, cur, st)
		if err != nil {
			return err
		}
		if done {
			if _, err := audit.Record(ctx, tx.Client(), entry); err != nil {
				return err
			}
		}
		return tx.PaymentAttempt.UpdateOneID(attempt.ID).SetState(paymentattempt.StateSucceeded).ClearLiveSubjectID().Exec(ctx)
	})
	if err != nil && st.opFailed {
		s.pay.Logger().ErrorContext(ctx, "settlement recorded at the processor, our write failed", "attempt_id", attempt.ID, "error", err)
		return nil, operationFailed(attempt.ID)
	}
	if err != nil {
		return nil, err
	}
	return s.client.Invoice.Get(ctx, row.ID)
}
