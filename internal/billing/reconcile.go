package billing

import (
	"context"
	"fmt"

	"github.com/venueplatform/venue/ent"
	"github.com/venueplatform/venue/ent/paymentattempt"
	"github.com/venueplatform/venue/internal/events"
	"github.com/venueplatform/venue/internal/payments"
)

// The reconcile of billing's own Stripe writes left unknown (an answer lost
// to a timeout or a dropped connection, marked unknown by the payments
// sweep): they are not payment intents of ours, so the reconcile reads what
// they made, the invoice or the subscription, and settles the attempt as
// the lost answer would have.
func init() {
	payments.RegisterDomainReconciler(paymentattempt.PurposeInvoicePay, func(ctx context.Context, p *payments.Service, at *ent.PaymentAttempt) error {
		return New(p).reconcileInvoicePay(ctx, at)
	})
	payments.RegisterDomainReconciler(paymentattempt.PurposeSubscriptionCreate, func(ctx context.Context, p *payments.Service, at *ent.PaymentAttempt) error {
		return New(p).reconcileSubscriptionCreate(ctx, at)
	})
}

// reconcileInvoicePay reads the invoice a retry paid (or not): paid settles
// it once, as the retry's answer would have; a charge Stripe tried and that
// was declined records the failure; a charge waiting on the member (3-D
// Secure) keeps the attempt in requires_action; an invoice Stripe never
// charged frees the invoice for the next retry (the attempt is canceled).
func (s *Service) reconcileInvoicePay(ctx context.Context, at *ent.PaymentAttempt) error {
	if done, err := s.reconcileOutOfBand(ctx, at); done { // external_settle.go
		return err
	}
	row, err := s.client.Invoice.Get(ctx, at.SubjectID)
	if err != nil {
		return fmt.Errorf("billing: reconcile invoice pay: %w", err)
	}
	if row.ProcessorInvoiceID == nil || row.SubscriptionID == nil {
		return s.settleUnknown(ctx, at, paymentattempt.StateCanceled, "")
	}
	sub, err := s.client.Subscription.Get(ctx, *row.SubscriptionID)
	if err != nil {
		return fmt.Errorf("billing: reconcile invoice pay: %w", err)
	}
	vp, err := s.client.VenuePayments.Query().Only(ctx)
	if err != nil || vp.AccountID == nil {
		return fmt.Errorf("billing: reconcile invoice pay: venue account: %v", err)
	}
	inv, err := s.port.GetInvoice(ctx, *vp.AccountID, *row.ProcessorInvoiceID)
	if err != nil {
		return fmt.Errorf("billing: reconcile invoice pay: read: %w", err) // the job tries again
	}
	tried := inv.AttemptCount > int64(row.AttemptCount)
	switch {
	case inv.Status == "paid":
		return s.applyRetry(ctx, at, sub, row, inv, paymentattempt.StateSucceeded)
	case tried && (inv.FailureCode != "" || inv.DeclineCode != ""):
		return s.applyRetry(ctx, at, sub, row, inv, paymentattempt.StateFailed)
	case tried && inv.PaymentIntent != "" && inv.IntentStatus == "processing":
		// The bank answers later: the attempt waits, keeping the invoice's
		// live slot, until invoice.paid or invoice.payment_failed.
		return s.settleUnknown(ctx, at, paymentattempt.StateProcessing, inv.PaymentIntent)
	case tried && inv.PaymentIntent != "":
		return s.settleUnknown(ctx, at, paymentattempt.StateRequiresAction, inv.PaymentIntent)
	}
	return s.settleUnknown(ctx, at, paymentattempt.StateCanceled, "")
}

// settleUnknown moves an unknown attempt to st (freeing its live slot
// unless it waits on the member), naming the processor object when given.
func (s *Service) settleUnknown(ctx context.Context, at *ent.PaymentAttempt, st paymentattempt.State, object string) error {
	upd := s.client.PaymentAttempt.UpdateOneID(at.ID).Where(paymentattempt.StateEQ(paymentattempt.StateUnknown)).SetState(st)
	if st != paymentattempt.StateRequiresAction && st != paymentattempt.StateProcessing {
		upd.ClearLiveSubjectID()
	}
	if object != "" {
		upd.SetProcessorObjectID(object)
	}
	if err := upd.Exec(ctx); err != nil && !ent.IsNotFound(err) {
		return err
	}
	return nil
}

// reconcileSubscriptionCreate searches Stripe for the subscription the
// attempt created (its metadata names the attempt): found, our row takes it
// as Start's answer would have, and the membership's schedule follows;
// none yet, the job asks again until Stripe's search has caught up; none
// after that, the attempt is canceled and Start (its job retried, with the
// same key) makes the subscription.
func (s *Service) reconcileSubscriptionCreate(ctx context.Context, at *ent.PaymentAttempt) error {
	sub, err := s.client.Subscription.Get(ctx, at.SubjectID)
	if err != nil {
		return fmt.Errorf("billing: reconcile subscription create: %w", err)
	}
	if sub.ProcessorSubscriptionID != nil {
		return s.settleUnknown(ctx, at, paymentattempt.StateSucceeded, *sub.ProcessorSubscriptionID)
	}
	vp, err := s.client.VenuePayments.Query().Only(ctx)
	if err != nil || vp.AccountID == nil {
		return fmt.Errorf("billing: reconcile subscription create: venue account: %v", err)
	}
	out, err := s.port.FindSubscription(ctx, *vp.AccountID, at.ID.String())
	if err != nil {
		return fmt.Errorf("billing: reconcile subscription create: search: %w", err)
	}
	if out == nil {
		if s.now().Sub(at.CreatedAt) < payments.SearchLag {
			return fmt.Errorf("billing: reconcile subscription create: none found yet for attempt %s", at.ID)
		}
		return s.settleUnknown(ctx, at, paymentattempt.StateCanceled, "")
	}
	err = events.WithTx(ctx, s.client, func(ctx context.Context, tx *ent.Tx) error {
		upd := tx.Subscription.UpdateOneID(sub.ID).SetProcessorSubscriptionID(out.ID).SetProcessorStatus(out.Status)
		if !out.CurrentPeriodEnd.IsZero() {
			upd.SetCurrentPeriodEnd(out.CurrentPeriodEnd).SetNextChargeAt(out.CurrentPeriodEnd)
		}
		if err := upd.Exec(ctx); err != nil {
			return err
		}
		return tx.PaymentAttempt.UpdateOneID(at.ID).SetState(paymentattempt.StateSucceeded).
			SetProcessorObjectID(out.ID).ClearLiveSubjectID().Exec(ctx)
	})
	if err != nil {
		return err
	}
	_, err = s.Start(ctx, sub.PassID) // started now: gives the membership its schedule, if it has one
	return err
}
