package billing

import (
	"context"
	"errors"
	"net/http"

	"github.com/google/uuid"

	"github.com/venueplatform/venue/ent"
	"github.com/venueplatform/venue/ent/invoice"
	"github.com/venueplatform/venue/ent/paymentattempt"
	"github.com/venueplatform/venue/ent/paymentcustomer"
	"github.com/venueplatform/venue/ent/subscription"
	"github.com/venueplatform/venue/internal/apperr"
	"github.com/venueplatform/venue/internal/events"
	"github.com/venueplatform/venue/internal/payments"
	"github.com/venueplatform/venue/internal/payments/stripeport"
)

// RetryParams are a charge of an unpaid invoice to a saved card.
type RetryParams struct {
	InvoiceID uuid.UUID
	// MemberID limits the invoice to one member's (the member's own retry);
	// nil is staff.
	MemberID *uuid.UUID
	// Expected, when set, must equal the balance (else BALANCE_CHANGED).
	Expected *int64
	// PaymentMethod charges this saved card instead of the default (staff).
	PaymentMethod string
}

// Retry statuses.
const (
	RetrySucceeded      = "succeeded"
	RetryProcessing     = "processing"
	RetryRequiresAction = "requires_action"
	RetryFailed         = "failed"
	RetryPaid           = "paid"
)

// RetryResult is a retry's outcome.
type RetryResult struct {
	Status         string
	InvoiceID      uuid.UUID
	AlreadySettled bool
	IntentID       string
	ClientSecret   string
	AccountID      string
	FailureCode    string
	DeclineCode    string
	NextStep       string
	// LateFee is the outcome of the invoice's pending late fee, charged
	// after the renewal is paid (latefee.go): none, paid or pending.
	LateFee string
}

func unknownOutcome() *apperr.Error {
	return refusal(http.StatusConflict, payments.CodeUnknownOutcome,
		"the payment's outcome is not known yet; reload the invoice later", "refresh").With("write_state", "unknown")
}

// Retry charges the balance of an unpaid invoice of the viewer's venue to
// the member's saved card, in the contract's order of checks; every
// refusal carries details.next_step and charges nothing. One charge per
// invoice at a time, whoever asks (the member, staff): the charge is a
// PaymentAttempt whose live slot is the invoice's id, so a concurrent retry
// is PAYMENT_PENDING.
func (s *Service) Retry(ctx context.Context, p RetryParams) (*RetryResult, error) {
	q := s.client.Invoice.Query().Where(invoice.ID(p.InvoiceID))
	if p.MemberID != nil {
		q.Where(invoice.MemberID(*p.MemberID), invoice.StatusIn(memberVisible...))
	}
	row, err := q.Only(ctx)
	if ent.IsNotFound(err) {
		return nil, invoiceNotFound()
	}
	if err != nil {
		return nil, err
	}
	if row.Status == invoice.StatusPaid {
		return nil, alreadyPaid()
	}
	if !isUnpaid(row.Status) || row.ProcessorInvoiceID == nil || row.SubscriptionID == nil {
		return nil, notRetryable("not_billed_by_card")
	}
	if err := s.refuseExternalInvoice(ctx, row); err != nil { // external_cards.go
		return nil, err
	}
	balance := Balance(row)
	if p.Expected != nil && *p.Expected != balance {
		return nil, balanceChanged(balance)
	}
	vp, err := s.pay.Chargeable(ctx)
	if err != nil {
		return nil, err
	}
	sub, err := s.client.Subscription.Get(ctx, *row.SubscriptionID)
	if err != nil {
		return nil, err
	}
	card := p.PaymentMethod
	if card == "" {
		card = deref(sub.PaymentMethodID)
	}
	if card == "" {
		pc, err := s.client.PaymentCustomer.Query().
			Where(paymentcustomer.MemberID(row.MemberID), paymentcustomer.AccountID(*vp.AccountID)).Only(ctx)
		if err != nil && !ent.IsNotFound(err) {
			return nil, err
		}
		if pc != nil {
			card = deref(pc.DefaultPaymentMethodID)
		}
	}
	if card == "" {
		return nil, noPaymentMethod()
	}
	if p.PaymentMethod != "" {
		if err := s.requireCard(ctx, vp, row.MemberID, p.PaymentMethod); err != nil { // waiting.go
			return nil, err
		}
	}
	var attempt *ent.PaymentAttempt
	err = events.WithTx(ctx, s.client, func(ctx context.Context, tx *ent.Tx) error {
		if _, err := tx.Subscription.Query().Where(subscription.ID(sub.ID)).ForUpdate().Only(ctx); err != nil {
			return err
		}
		cur, err := tx.Invoice.Get(ctx, row.ID)
		if err != nil {
			return err
		}
		if cur.Status == invoice.StatusPaid {
			return alreadyPaid()
		}
		live, err := tx.PaymentAttempt.Query().Where(paymentattempt.LiveSubjectID(row.ID)).Only(ctx)
		switch {
		case ent.IsNotFound(err):
		case err != nil:
			return err
		case live.State == paymentattempt.StateUnknown:
			return reconciliationRequired()
		default:
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
	res := &RetryResult{InvoiceID: row.ID, AccountID: *vp.AccountID, LateFee: LateFeeNone}
	inv, err := s.port.PayInvoice(ctx, *vp.AccountID,
		payments.IdempotencyKey(string(attempt.Purpose), attempt.ID.String(), "pay"), *row.ProcessorInvoiceID, card)
	var cardErr *stripeport.CardError
	switch {
	case errors.As(err, &cardErr):
		failed := &stripeport.Invoice{ID: *row.ProcessorInvoiceID, FailureCode: cardErr.Code, DeclineCode: cardErr.DeclineCode,
			AttemptCount: int64(row.AttemptCount + 1)}
		if cardErr.Intent != nil {
			failed.PaymentIntent = cardErr.Intent.ID
		}
		if err := s.applyRetry(ctx, attempt, sub, row, failed, paymentattempt.StateFailed); err != nil {
			return nil, err
		}
		res.Status, res.FailureCode, res.DeclineCode, res.NextStep = RetryFailed, cardErr.Code, cardErr.DeclineCode, "update_card"
		res.IntentID = failed.PaymentIntent
		return res, nil
	case stripeport.RefusalCode(err) == "invoice_already_paid":
		// Stripe had it paid meanwhile (its own retry): read and apply.
		got, rerr := s.port.GetInvoice(ctx, *vp.AccountID, *row.ProcessorInvoiceID)
		if rerr != nil || got.Status != "paid" {
			_ = s.closeAttempt(ctx, attempt, paymentattempt.StateCanceled)
			return nil, stripeError()
		}
		if err := s.applyRetry(ctx, attempt, sub, row, got, paymentattempt.StateCanceled); err != nil {
			return nil, err
		}
		res.Status, res.AlreadySettled = RetryPaid, true
		res.LateFee = s.chargeLateFee(ctx, row.ID, sub.CustomerID, card)
		return res, nil
	case errors.Is(err, stripeport.ErrUnknownOutcome):
		// Left in flight: the payments sweep marks it unknown and reconcile
		// settles it by reading; meanwhile retries are PAYMENT_PENDING, and
		// Stripe pays an invoice at most once whatever happens.
		return nil, unknownOutcome()
	case err != nil:
		_ = s.closeAttempt(ctx, attempt, paymentattempt.StateFailed)
		s.pay.Logger().ErrorContext(ctx, "invoice pay refused", "attempt_id", attempt.ID, "error", err)
		return nil, stripeError()
	}
	res.IntentID = inv.PaymentIntent
	switch inv.Status {
	case "paid":
		if err := s.applyRetry(ctx, attempt, sub, row, inv, paymentattempt.StateSucceeded); err != nil {
			return nil, err
		}
		res.Status = RetrySucceeded
		res.LateFee = s.chargeLateFee(ctx, row.ID, sub.CustomerID, card) // latefee.go
	default:
		// Open with its intent waiting on 3-D Secure or the bank (waiting.go).
		if err := s.waitRetry(ctx, attempt, inv, res); err != nil {
			return nil, err
		}
	}
	return res, nil
}

func isUnpaid(st invoice.Status) bool {
	for _, u := range unpaid {
		if u == st {
			return true
		}
	}
	return false
}

// closeAttempt settles an attempt and frees the invoice's live slot.
func (s *Service) closeAttempt(ctx context.Context, at *ent.PaymentAttempt, st paymentattempt.State) error {
	return s.client.PaymentAttempt.UpdateOne(at).SetState(st).ClearLiveSubjectID().Exec(ctx)
}

// applyRetry applies Stripe's answer to a retry under the subscription's
// lock: paid settles the invoice once, a decline records the failure; the
// attempt settles in the same transaction.
func (s *Service) applyRetry(ctx context.Context, at *ent.PaymentAttempt, sub *ent.Subscription, row *ent.Invoice, in *stripeport.Invoice, st paymentattempt.State) error {
	return events.WithTx(ctx, s.client, func(ctx context.Context, tx *ent.Tx) error {
		sub, err := tx.Subscription.Query().Where(subscription.ID(sub.ID)).ForUpdate().Only(ctx)
		if err != nil {
			return err
		}
		row, err := tx.Invoice.Get(ctx, row.ID)
		if err != nil {
			return err
		}
		if in.Status == "paid" {
			if _, err := s.settle(ctx, tx, sub, row, settlement{kind: invoice.SettlementCard, intentID: in.PaymentIntent, at: s.now()}); err != nil {
				return err
			}
		} else if _, err := s.fail(ctx, tx, sub, row, in); err != nil {
			return err
		}
		upd := tx.PaymentAttempt.UpdateOneID(at.ID).SetState(st).ClearLiveSubjectID()
		if in.PaymentIntent != "" {
			upd.SetProcessorObjectID(in.PaymentIntent)
		}
		if in.FailureCode != "" {
			upd.SetFailureCode(in.FailureCode)
		}
		if in.DeclineCode != "" {
			upd.SetDeclineCode(in.DeclineCode)
		}
		return upd.Exec(ctx)
	})
}

// Confirm statuses and reasons.
const (
	ConfirmPaid    = "paid"
	ConfirmPending = "pending"
	ConfirmFailed  = "failed"
)

// ConfirmRetry settles a retry the member finished in the app (3-D Secure):
// it reads the invoice from Stripe and applies it; reason says why a
// failed confirm failed (not_started, not_completed, cancelled).
func (s *Service) ConfirmRetry(ctx context.Context, memberID, invoiceID uuid.UUID, intentID string) (status, reason string, err error) {
	row, err := s.MyInvoice(ctx, memberID, invoiceID, false)
	if err != nil {
		return "", "", err
	}
	if row.Status == invoice.StatusPaid {
		return ConfirmPaid, "", nil
	}
	if err := s.refuseExternalInvoice(ctx, row); err != nil { // external_cards.go
		return "", "", err
	}
	at, err := s.client.PaymentAttempt.Query().
		Where(paymentattempt.SubjectID(row.ID), paymentattempt.ProcessorObjectID(intentID)).
		Order(ent.Desc(paymentattempt.FieldNumber)).First(ctx)
	if ent.IsNotFound(err) {
		return ConfirmFailed, "not_started", nil
	}
	if err != nil {
		return "", "", err
	}
	vp, err := s.pay.Chargeable(ctx)
	if err != nil {
		return "", "", err
	}
	inv, err := s.port.GetInvoice(ctx, *vp.AccountID, *row.ProcessorInvoiceID)
	if err != nil {
		return "", "", stripeError()
	}
	sub, err := s.client.Subscription.Get(ctx, *row.SubscriptionID)
	if err != nil {
		return "", "", err
	}
	switch inv.Status {
	case "paid":
		if err := s.applyRetry(ctx, at, sub, row, inv, paymentattempt.StateSucceeded); err != nil {
			return "", "", err
		}
		return ConfirmPaid, "", nil
	case "void", "uncollectible":
		return ConfirmFailed, "cancelled", s.closeAttempt(ctx, at, paymentattempt.StateCanceled)
	}
	if at.State == paymentattempt.StateRequiresAction || at.State == paymentattempt.StateProcessing {
		if failed, err := s.authenticationFailed(ctx, at, inv); failed || err != nil { // waiting.go
			return ConfirmFailed, "not_completed", err
		}
		return ConfirmPending, "", nil
	}
	return ConfirmFailed, "not_completed", nil
}
