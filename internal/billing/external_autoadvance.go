package billing

import (
	"context"
	"errors"
	"fmt"

	"github.com/venueplatform/venue/ent"
	"github.com/venueplatform/venue/ent/invoice"
	"github.com/venueplatform/venue/ent/paymentattempt"
	"github.com/venueplatform/venue/ent/subscription"
	"github.com/venueplatform/venue/internal/payments"
	"github.com/venueplatform/venue/internal/payments/stripeport"
)

// A membership moved to external collection changes Stripe's
// collection_method for the invoices to come, but Stripe keeps charging
// (retrying) the card for the ones already open. So the change also turns
// off the automatic collection (auto_advance) of each open invoice of the
// subscription, and the change back to card turns it on again for the
// invoices the move to external turned off that are still open. The
// invoices are chosen before Stripe is asked and kept on the collection
// attempt's intent (paused_invoices or resumed_invoices); each write goes
// under a key of the attempt and the invoice, so the reconcile of a lost
// answer sends the same writes again and Stripe applies each once.

const (
	intentPaused  = "paused_invoices"
	intentResumed = "resumed_invoices"
)

// autoAdvancePlan adds to intent in the Stripe invoices whose automatic
// collection a change of sub to collection to turns off or on.
func (s *Service) autoAdvancePlan(ctx context.Context, sub *ent.Subscription, to subscription.Collection, in map[string]any) error {
	rows, err := s.client.Invoice.Query().Where(invoice.SubscriptionID(sub.ID), invoice.ProcessorInvoiceIDNotNil(),
		invoice.StatusIn(invoice.StatusSent, invoice.StatusViewed, invoice.StatusOverdue, invoice.StatusPartiallyPaid)).
		Order(ent.Asc(invoice.FieldCreatedAt)).All(ctx)
	if err != nil {
		return err
	}
	open := map[string]bool{}
	for _, r := range rows {
		open[*r.ProcessorInvoiceID] = true
	}
	if to == subscription.CollectionExternal {
		ids := []string{}
		for _, r := range rows {
			ids = append(ids, *r.ProcessorInvoiceID)
		}
		in[intentPaused] = ids
		return nil
	}
	// Back to card: what the latest move to external paused, still open.
	prev, err := s.client.PaymentAttempt.Query().Where(paymentattempt.SubjectID(sub.ID),
		paymentattempt.PurposeEQ(paymentattempt.PurposeSubscriptionUpdate), paymentattempt.StateEQ(paymentattempt.StateSucceeded),
		paymentattempt.IntentNotNil()).Order(ent.Desc(paymentattempt.FieldNumber)).All(ctx)
	if err != nil {
		return err
	}
	ids := []string{}
	for _, at := range prev {
		if intentKind(at) != intentCollection || intentString(at.Intent, "to") != string(subscription.CollectionExternal) {
			continue
		}
		for _, id := range intentStrings(at.Intent, intentPaused) {
			if open[id] {
				ids = append(ids, id)
			}
		}
		break
	}
	in[intentResumed] = ids
	return nil
}

// intentStrings reads a list of strings kept on an intent ([]string before
// it is stored, []any after).
func intentStrings(in map[string]any, k string) []string {
	switch v := in[k].(type) {
	case []string:
		return v
	case []any:
		out := make([]string, 0, len(v))
		for _, x := range v {
			if s, ok := x.(string); ok {
				out = append(out, s)
			}
		}
		return out
	}
	return nil
}

// sendAutoAdvance sends the auto_advance writes attempt at planned, each
// under its own key of the attempt. A lost answer is returned
// (stripeport.ErrUnknownOutcome) for the attempt to stay unfinished; a
// refusal is logged and passed over: the invoice is no longer open at
// Stripe (paid or void meanwhile), so nothing is left to stop or restart.
func (s *Service) sendAutoAdvance(ctx context.Context, account string, at *ent.PaymentAttempt) error {
	for _, step := range []struct {
		key string
		on  bool
	}{{intentPaused, false}, {intentResumed, true}} {
		for _, id := range intentStrings(at.Intent, step.key) {
			key := payments.IdempotencyKey(string(at.Purpose), at.ID.String(), "auto_advance:"+id)
			_, err := s.port.SetInvoiceAutoAdvance(ctx, account, key, id, step.on)
			if errors.Is(err, stripeport.ErrUnknownOutcome) {
				return fmt.Errorf("billing: invoice %s auto_advance: %w", id, err)
			}
			if err != nil {
				s.pay.Logger().WarnContext(ctx, "invoice auto_advance refused", "attempt_id", at.ID, "invoice", id, "error", err)
			}
		}
	}
	return nil
}
