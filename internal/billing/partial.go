package billing

import (
	"context"
	"errors"
	"time"

	"github.com/venueplatform/venue/ent"
	"github.com/venueplatform/venue/ent/invoice"
	"github.com/venueplatform/venue/ent/payment"
	"github.com/venueplatform/venue/ent/paymentattempt"
	"github.com/venueplatform/venue/ent/subscription"
	"github.com/venueplatform/venue/internal/apperr"
	"github.com/venueplatform/venue/internal/audit"
	"github.com/venueplatform/venue/internal/events"
	"github.com/venueplatform/venue/internal/payments"
	"github.com/venueplatform/venue/internal/payments/stripeport"
)

// Partially paid invoices. Staff record part of an unpaid renewal as paid
// outside the service (less than the balance): Stripe is told first with a
// credit note of that amount, credited out of band, on its open invoice (so
// its amount due, and its next charge whoever starts it, is only the rest),
// then one transaction writes the payment row of the part, moves the
// invoice's amount_paid on and makes it partially_paid. The pass is not
// rolled on: the period is paid when the rest is (the member's retry or
// confirm, a recovery charge, Stripe's own retry, or a second external
// settlement of the rest), and that payment is the rest only (settle pays
// total less amount_paid), so the payments of an invoice sum to its total.

// settlePartially records part of an unpaid invoice as paid outside the
// service. The Stripe write takes the invoice's live slot (an invoice_pay
// attempt, as every write of the invoice), so it never crosses a charge.
func (s *Service) settlePartially(ctx context.Context, row *ent.Invoice, p SettleParams, at time.Time) (*ent.Invoice, error) {
	vp, err := s.pay.Chargeable(ctx)
	if err != nil {
		return nil, err
	}
	var attempt *ent.PaymentAttempt
	err = events.WithTx(ctx, s.client, func(ctx context.Context, tx *ent.Tx) error {
		if _, err := tx.Subscription.Query().Where(subscription.ID(*row.SubscriptionID)).ForUpdate().Only(ctx); err != nil {
			return err
		}
		cur, err := tx.Invoice.Get(ctx, row.ID)
		if err != nil {
			return err
		}
		if cur.Status == invoice.StatusPaid {
			return alreadyPaid()
		}
		if Balance(cur) != Balance(row) {
			return balanceChanged(Balance(cur))
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
			SetLiveSubjectID(row.ID).Save(ctx)
		return err
	})
	if ent.IsConstraintError(err) {
		return nil, paymentPending()
	}
	if err != nil {
		return nil, err
	}
	if row.ProcessorInvoiceID != nil {
		_, err := s.port.CreditInvoiceOutOfBand(ctx, *vp.AccountID,
			payments.IdempotencyKey(string(attempt.Purpose), attempt.ID.String(), "credit_note"), *row.ProcessorInvoiceID, p.AmountMinor)
		if err != nil {
			if !errors.Is(err, stripeport.ErrUnknownOutcome) {
				_ = s.closeAttempt(ctx, attempt, paymentattempt.StateFailed)
			}
			s.pay.Logger().ErrorContext(ctx, "invoice credit note refused", "attempt_id", attempt.ID, "error", err)
			return nil, settlementFailed()
		}
	}
	err = events.WithTx(ctx, s.client, func(ctx context.Context, tx *ent.Tx) error {
		sub, err := tx.Subscription.Query().Where(subscription.ID(*row.SubscriptionID)).ForUpdate().Only(ctx)
		if err != nil {
			return err
		}
		cur, err := tx.Invoice.Query().Where(invoice.ID(row.ID)).ForUpdate().Only(ctx)
		if err != nil {
			return err
		}
		if cur.Status == invoice.StatusPaid {
			return alreadyPaid()
		}
		pc := tx.Payment.Create().SetMemberID(cur.MemberID).SetAmountMinor(p.AmountMinor).SetCurrency(cur.Currency).
			SetStatus(payment.StatusSucceeded).SetKind(payment.KindRenewal).SetPaidAt(at)
		if cur.PassID != nil {
			pc.SetPassID(*cur.PassID)
		}
		pay, err := pc.Save(ctx)
		if err != nil {
			return err
		}
		paid := cur.AmountPaidMinor + p.AmountMinor
		if cur, err = tx.Invoice.UpdateOne(cur).SetAmountPaidMinor(paid).SetStatus(invoice.StatusPartiallyPaid).Save(ctx); err != nil {
			return err
		}
		if _, err := events.Record(ctx, tx.Client(), events.PaymentSucceeded, map[string]any{
			"payment_id": pay.ID.String(), "invoice_id": cur.ID.String(), "member_id": cur.MemberID.String(),
			"amount_minor": p.AmountMinor, "currency": cur.Currency, "vat_minor": payments.VATShare(p.AmountMinor, sub.VatRateBp),
			"partial": true,
		}); err != nil {
			return err
		}
		if p.NotifyClient {
			if err := s.sendReceipt(ctx, tx, cur, pay); err != nil {
				return err
			}
		}
		if _, err := audit.Record(ctx, tx.Client(), audit.Entry{Action: AuditSettledExternally, Target: "invoice:" + cur.ID.String(),
			Details: map[string]any{"method": p.Method, "amount_minor": p.AmountMinor, "currency": cur.Currency, "note": p.Note,
				"invoice_number": cur.Number, "paid_at": at.UTC().Format(time.RFC3339), "notify_client": p.NotifyClient,
				"partial": true, "remaining_minor": Balance(cur), "payment_id": pay.ID.String()}}); err != nil {
			return err
		}
		return tx.PaymentAttempt.UpdateOneID(attempt.ID).SetState(paymentattempt.StateSucceeded).ClearLiveSubjectID().Exec(ctx)
	})
	if err != nil {
		var ae *apperr.Error
		if errors.As(err, &ae) {
			_ = s.closeAttempt(ctx, attempt, paymentattempt.StateCanceled)
		}
		return nil, err
	}
	return s.client.Invoice.Get(ctx, row.ID)
}
