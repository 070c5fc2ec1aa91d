package billing

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/venueplatform/venue/ent"
	"github.com/venueplatform/venue/ent/invoice"
	"github.com/venueplatform/venue/ent/paymentattempt"
	"github.com/venueplatform/venue/ent/subscription"
	"github.com/venueplatform/venue/internal/audit"
	"github.com/venueplatform/venue/internal/events"
	"github.com/venueplatform/venue/internal/payments"
	"github.com/venueplatform/venue/internal/payments/stripeport"
)

// A settlement out of band (an external settlement, a comp) keeps what
// staff asked on its attempt (payment_attempts.intent: the settlement's
// kind, method and time, the audit entry with the note, who asked) before
// Stripe is told. When the request cannot finish our rows (Stripe's answer
// lost, our write failed), whoever finishes them later does it as asked:
// Stripe's invoice.paid (paid out of band, inbound.go) or the reconcile of
// the attempt (reconcile.go), which reads the invoice and, when it is still
// open, sends the settlement again under the attempt's key. The payment row
// keeps the staff's method, the audit entry their note, marked with
// finished_by (stripe_event, reconcile) and the requester as its actor.

// settleIntent is the intent of a settlement out of band.
func settleIntent(ctx context.Context, st settlement, entry audit.Entry) map[string]any {
	at := st.at
	if at.IsZero() {
		at = time.Now()
	}
	return requester(ctx, map[string]any{"kind": intentSettlement, "settlement": string(st.kind), "method": st.method,
		"silent": st.silent, "at": at.UTC().Format(time.RFC3339Nano), "audit_action": entry.Action,
		"audit_target": entry.Target, "audit_details": entry.Details})
}

// settlementOf reads a settlement intent back.
func (s *Service) settlementOf(in map[string]any) (settlement, audit.Entry) {
	st := settlement{kind: invoice.Settlement(intentString(in, "settlement")), method: intentString(in, "method")}
	if st.kind == "" {
		st.kind = invoice.SettlementExternal
	}
	st.silent, _ = in["silent"].(bool)
	if t, err := time.Parse(time.RFC3339Nano, intentString(in, "at")); err == nil {
		st.at = t
	} else {
		st.at = s.now()
	}
	details := map[string]any{}
	if d, ok := in["audit_details"].(map[string]any); ok {
		for k, v := range d {
			details[k] = v
		}
	}
	entry := audit.Entry{Action: intentString(in, "audit_action"), Target: intentString(in, "audit_target"), Details: details}
	if entry.Action == "" {
		entry.Action = AuditSettledExternally
	}
	return st, asRequested(entry, in)
}

// openSettlement is the settlement attempt of an invoice left unfinished
// (in flight or unknown), nil when none.
func openSettlement(ctx context.Context, tx *ent.Tx, row *ent.Invoice) (*ent.PaymentAttempt, error) {
	at, err := tx.PaymentAttempt.Query().Where(paymentattempt.SubjectID(row.ID),
		paymentattempt.PurposeEQ(paymentattempt.PurposeInvoicePay), paymentattempt.IntentNotNil(),
		paymentattempt.StateIn(paymentattempt.StateInFlight, paymentattempt.StateUnknown)).
		Order(ent.Desc(paymentattempt.FieldNumber)).First(ctx)
	if ent.IsNotFound(err) {
		return nil, nil
	}
	if err != nil || intentKind(at) != intentSettlement {
		return nil, err
	}
	return at, nil
}

// outOfBandSettlement is how Stripe's invoice.paid (paid out of band)
// settles row, under its subscription's lock: as the staff asked when a
// settlement of theirs was left unfinished (its audit entry recorded and
// its attempt closed here, in the event's transaction), else external,
// silent, method other.
func (s *Service) outOfBandSettlement(ctx context.Context, tx *ent.Tx, row *ent.Invoice) (settlement, error) {
	plain := settlement{kind: invoice.SettlementExternal, at: s.now(), silent: true}
	if row.Status == invoice.StatusPaid {
		return plain, nil
	}
	at, err := openSettlement(ctx, tx, row)
	if err != nil || at == nil {
		return plain, err
	}
	st, entry := s.settlementOf(at.Intent)
	entry.Details["finished_by"] = "stripe_event"
	entry.Details["attempt_id"] = at.ID.String()
	if _, err := audit.Record(ctx, tx.Client(), entry); err != nil {
		return plain, err
	}
	return st, tx.PaymentAttempt.UpdateOneID(at.ID).SetState(paymentattempt.StateSucceeded).ClearLiveSubjectID().Exec(ctx)
}

// reconcileOutOfBand settles an unknown settlement attempt (done false:
// the attempt is not a settlement's, the invoice retry's reconcile takes
// it). Stripe's invoice paid out of band: our rows as asked. Still open:
// the settlement is sent again under the attempt's key, then our rows (a
// lost answer: the job tries again; a refusal: the attempt failed, nothing
// changed). Paid by card meanwhile: the retry's reconcile applies it.
func (s *Service) reconcileOutOfBand(ctx context.Context, at *ent.PaymentAttempt) (done bool, err error) {
	if intentKind(at) != intentSettlement {
		return false, nil
	}
	row, err := s.client.Invoice.Get(ctx, at.SubjectID)
	if err != nil {
		return true, fmt.Errorf("billing: reconcile settlement: %w", err)
	}
	if row.ProcessorInvoiceID == nil || row.SubscriptionID == nil {
		return true, s.finishSettlement(ctx, at, "reconcile")
	}
	if row.Status == invoice.StatusPaid {
		return true, s.settleUnknown(ctx, at, paymentattempt.StateSucceeded, "")
	}
	vp, err := s.client.VenuePayments.Query().Only(ctx)
	if err != nil || vp.AccountID == nil {
		return true, fmt.Errorf("billing: reconcile settlement: venue account: %v", err)
	}
	inv, err := s.port.GetInvoice(ctx, *vp.AccountID, *row.ProcessorInvoiceID)
	if err != nil {
		return true, fmt.Errorf("billing: reconcile settlement: read: %w", err) // the job tries again
	}
	switch {
	case inv.Status == "paid" && !inv.PaidOutOfBand:
		return false, nil
	case inv.Status == "open":
		_, err := s.port.PayInvoiceOutOfBand(ctx, *vp.AccountID,
			payments.IdempotencyKey(string(at.Purpose), at.ID.String(), "out_of_band"), *row.ProcessorInvoiceID)
		if errors.Is(err, stripeport.ErrUnknownOutcome) {
			return true, fmt.Errorf("billing: reconcile settlement: %w", err)
		}
		if err != nil && stripeport.RefusalCode(err) != "invoice_already_paid" {
			s.pay.Logger().ErrorContext(ctx, "settlement refused on reconcile", "attempt_id", at.ID, "error", err)
			return true, s.settleUnknown(ctx, at, paymentattempt.StateFailed, "")
		}
	case inv.Status != "paid":
		return true, s.settleUnknown(ctx, at, paymentattempt.StateCanceled, "")
	}
	return true, s.finishSettlement(ctx, at, "reconcile")
}

// finishSettlement settles the invoice of a settlement attempt as asked,
// with its audit entry, and closes the attempt, once.
func (s *Service) finishSettlement(ctx context.Context, at *ent.PaymentAttempt, by string) error {
	st, entry := s.settlementOf(at.Intent)
	entry.Details["finished_by"] = by
	entry.Details["attempt_id"] = at.ID.String()
	return events.WithTx(ctx, s.client, func(ctx context.Context, tx *ent.Tx) error {
		row, err := tx.Invoice.Get(ctx, at.SubjectID)
		if err != nil {
			return err
		}
		if row.SubscriptionID != nil {
			sub, err := tx.Subscription.Query().Where(subscription.ID(*row.SubscriptionID)).ForUpdate().Only(ctx)
			if err != nil {
				return err
			}
			done, err := s.settle(ctx, tx, sub, row, st)
			if err != nil {
				return err
			}
			if done {
				if _, err := audit.Record(ctx, tx.Client(), entry); err != nil {
					return err
				}
			}
		}
		_, err = tx.PaymentAttempt.Update().Where(paymentattempt.ID(at.ID),
			paymentattempt.StateIn(paymentattempt.StateInFlight, paymentattempt.StateUnknown)).
			SetState(paymentattempt.StateSucceeded).ClearLiveSubjectID().Save(ctx)
		return err
	})
}
