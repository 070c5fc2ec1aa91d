package billing

import (
	"context"
	"net/http"

	"github.com/google/uuid"

	"github.com/venueplatform/venue/ent"
	"github.com/venueplatform/venue/ent/paymentattempt"
	"github.com/venueplatform/venue/internal/payments"
	"github.com/venueplatform/venue/internal/payments/stripeport"
)

// Invoice charges that wait: a retry whose intent waits on the member's
// authentication (3-D Secure, requires_action) or on the bank (processing,
// a bank debit). The attempt keeps the invoice's live slot, so every other
// charge of the invoice, the member's or staff's, is PAYMENT_PENDING and
// nothing is charged twice; Stripe's finishing event (invoice.paid,
// invoice.payment_failed) settles the attempt once, as the member's
// confirm does when it reads the invoice paid.

// waitRetry records a retry Stripe left waiting: the attempt takes the
// intent's state (processing, else requires_action) and the result the
// client secret the app authenticates with.
func (s *Service) waitRetry(ctx context.Context, at *ent.PaymentAttempt, inv *stripeport.Invoice, res *RetryResult) error {
	st, status := paymentattempt.StateRequiresAction, RetryRequiresAction
	if inv.IntentStatus == "processing" {
		st, status = paymentattempt.StateProcessing, RetryProcessing
	}
	upd := s.client.PaymentAttempt.UpdateOne(at).SetState(st)
	if inv.PaymentIntent != "" {
		upd.SetProcessorObjectID(inv.PaymentIntent)
	}
	if err := upd.Exec(ctx); err != nil {
		return err
	}
	res.Status, res.IntentID = status, inv.PaymentIntent
	if status == RetryRequiresAction {
		res.ClientSecret = inv.ClientSecret
	}
	return nil
}

// settleWaitingPay settles the invoice's waiting retry on Stripe's
// finishing event, in the event's transaction: invoice.paid makes it
// succeeded, invoice.payment_failed (of the same intent) failed with the
// failure's codes; either frees the invoice's live slot. An attempt already
// settled is left alone, so a repeated event changes nothing.
func (s *Service) settleWaitingPay(ctx context.Context, tx *ent.Tx, invoiceID uuid.UUID, typ string, in *stripeport.Invoice) error {
	paid := typ == "invoice.paid" || in.Status == "paid"
	if !paid && typ != "invoice.payment_failed" {
		return nil
	}
	at, err := tx.PaymentAttempt.Query().Where(paymentattempt.LiveSubjectID(invoiceID),
		paymentattempt.PurposeEQ(paymentattempt.PurposeInvoicePay),
		paymentattempt.StateIn(paymentattempt.StateRequiresAction, paymentattempt.StateProcessing)).ForUpdate().Only(ctx)
	if ent.IsNotFound(err) {
		return nil
	}
	if err != nil {
		return err
	}
	if !paid && in.PaymentIntent != "" && at.ProcessorObjectID != nil && *at.ProcessorObjectID != in.PaymentIntent {
		return nil // another charge's failure (Stripe's own retry)
	}
	upd := tx.PaymentAttempt.UpdateOneID(at.ID).ClearLiveSubjectID().SetState(paymentattempt.StateSucceeded)
	if !paid {
		upd.SetState(paymentattempt.StateFailed)
		if in.FailureCode != "" {
			upd.SetFailureCode(in.FailureCode)
		}
		if in.DeclineCode != "" {
			upd.SetDeclineCode(in.DeclineCode)
		}
	}
	return upd.Exec(ctx)
}

// authenticationFailed settles a waiting attempt whose intent Stripe has
// given up on (the member failed or abandoned 3-D Secure, or the bank
// refused): the intent is back at requires_payment_method or canceled.
// The attempt fails and frees the invoice, which stays open for the next
// retry; true means it did.
func (s *Service) authenticationFailed(ctx context.Context, at *ent.PaymentAttempt, inv *stripeport.Invoice) (bool, error) {
	if at.ProcessorObjectID == nil || inv.PaymentIntent != *at.ProcessorObjectID {
		return false, nil
	}
	if inv.IntentStatus != "requires_payment_method" && inv.IntentStatus != "canceled" {
		return false, nil
	}
	upd := s.client.PaymentAttempt.UpdateOneID(at.ID).
		Where(paymentattempt.StateIn(paymentattempt.StateRequiresAction, paymentattempt.StateProcessing)).
		SetState(paymentattempt.StateFailed).ClearLiveSubjectID()
	if inv.FailureCode != "" {
		upd.SetFailureCode(inv.FailureCode)
	}
	if err := upd.Exec(ctx); err != nil && !ent.IsNotFound(err) {
		return false, err
	}
	return true, nil
}

// requireCard refuses a charge of an invoice to a saved payment method
// that is not a card (a bank debit): 422 NOT_A_CARD, nothing charged. A
// payment method the member has not saved is left to Stripe's answer.
func (s *Service) requireCard(ctx context.Context, vp *ent.VenuePayments, memberID uuid.UUID, pm string) error {
	pc, err := s.pay.Customer(ctx, vp, memberID, false)
	if err != nil || pc == nil {
		return err
	}
	cards, err := s.port.ListCards(ctx, *vp.AccountID, pc.CustomerID)
	if err != nil {
		return stripeError()
	}
	if c := findCard(cards, pm); c != nil && !c.IsCard {
		return notACard()
	}
	return nil
}

func notACard() error {
	return refusal(http.StatusUnprocessableEntity, payments.CodeNotACard,
		"this saved payment method is not a card; only a card can be charged here", "update_card")
}
