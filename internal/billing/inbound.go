package billing

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/google/uuid"

	"github.com/venueplatform/venue/ent"
	"github.com/venueplatform/venue/ent/invoice"
	"github.com/venueplatform/venue/ent/organization"
	"github.com/venueplatform/venue/ent/pass"
	"github.com/venueplatform/venue/ent/payment"
	"github.com/venueplatform/venue/ent/subscription"
	"github.com/venueplatform/venue/internal/audit"
	"github.com/venueplatform/venue/internal/events"
	"github.com/venueplatform/venue/internal/model"
	"github.com/venueplatform/venue/internal/payments"
	"github.com/venueplatform/venue/internal/payments/stripeport"
)

func init() {
	payments.RegisterEventHandler("invoice.", func(ctx context.Context, p *payments.Service, ev *stripeport.Event) (string, error) {
		inv, err := stripeport.InvoiceFromObject(ev.Object)
		if err != nil {
			return "malformed", nil
		}
		return New(p).OnInvoice(ctx, ev.Type, inv)
	})
	payments.RegisterEventHandler("customer.subscription.", func(ctx context.Context, p *payments.Service, ev *stripeport.Event) (string, error) {
		sub, err := stripeport.SubscriptionFromObject(ev.Object)
		if err != nil {
			return "malformed", nil
		}
		return New(p).OnSubscription(ctx, ev.Type, sub)
	})
}

// ours finds the subscription row an object's metadata names, in its venue;
// nil when the object is not one of ours.
func (s *Service) ours(ctx context.Context, meta map[string]string) (context.Context, uuid.UUID, bool) {
	org, err := uuid.Parse(meta["organization_id"])
	if err != nil {
		return nil, uuid.Nil, false
	}
	id, err := uuid.Parse(meta["subscription_id"])
	if err != nil {
		return nil, uuid.Nil, false
	}
	return inVenue(ctx, org), id, true
}

// OnInvoice handles invoice.created, invoice.finalized, invoice.paid,
// invoice.payment_failed and the invoice's other events, under the
// subscription's row lock: the invoice row is found or created (with its
// number), then moved monotonically.
func (s *Service) OnInvoice(ctx context.Context, typ string, in *stripeport.Invoice) (string, error) {
	vctx, subID, ok := s.ours(ctx, in.Metadata)
	if !ok {
		return "not_ours", nil
	}
	outcome := "invoice_recorded"
	var paid uuid.UUID // a renewal Stripe reported paid by card (latefee_auto.go)
	err := events.WithTx(vctx, s.client, func(ctx context.Context, tx *ent.Tx) error {
		sub, err := tx.Subscription.Query().Where(subscription.ID(subID)).ForUpdate().Only(ctx)
		if ent.IsNotFound(err) {
			outcome = "not_ours"
			return nil
		}
		if err != nil {
			return err
		}
		row, err := s.invoiceRow(ctx, tx, sub, in)
		if err != nil {
			return err
		}
		if (typ == "invoice.paid" || in.Status == "paid") && !in.PaidOutOfBand {
			paid = row.ID
		}
		switch {
		case typ == "invoice.paid" || in.Status == "paid":
			st := settlement{kind: invoice.SettlementCard, intentID: in.PaymentIntent, at: in.Created}
			if in.PaidOutOfBand {
				// Staff recorded it paid outside Stripe; their request settles
				// our row, this only finishes one that crashed before it did.
				if st, err = s.outOfBandSettlement(ctx, tx, row); err != nil { // external_settle.go
					return err
				}
			}
			done, err := s.settle(ctx, tx, sub, row, st)
			if err != nil {
				return err
			}
			outcome = "invoice_paid"
			if !done {
				outcome = "invoice_already_paid"
			}
		case typ == "invoice.payment_failed":
			changed, err := s.fail(ctx, tx, sub, row, in)
			if err != nil {
				return err
			}
			outcome = "invoice_failed"
			if !changed {
				outcome = "invoice_failure_ignored"
			}
		case typ == "invoice.payment_action_required":
			// The renewal's card asks the member to authenticate (3-D Secure):
			// the invoice stays open and the member is told once (action.go).
			if err := s.tellAuthenticate(ctx, tx, row, in); err != nil {
				return err
			}
			outcome = "invoice_action_required"
		case in.Status == "void" || in.Status == "uncollectible":
			if row.Status != invoice.StatusPaid {
				if err := tx.Invoice.UpdateOne(row).SetStatus(invoice.Status(in.Status)).Exec(ctx); err != nil {
					return err
				}
			}
			outcome = "invoice_" + in.Status
		}
		// A retry waiting on the member or the bank ends with this event (waiting.go).
		return s.settleWaitingPay(ctx, tx, row.ID, typ, in)
	})
	if err == nil && outcome != "not_ours" {
		// The next period's override reaches Stripe once this one is invoiced
		// (overrides.go); a failure retries the event, which changes nothing twice.
		err = s.SyncOverrides(vctx, subID)
		if err == nil {
			// A rate lock ends before the first renewal on or after its day (ratelock.go).
			err = s.expireRateLocks(vctx, subID)
		}
		if err == nil && paid != uuid.Nil {
			// The renewal's pending late fee follows it (latefee_auto.go).
			var fee string
			if fee, err = s.chargeLateFeeAfterPaid(vctx, subID, paid); err == nil && fee != LateFeeNone {
				s.pay.Logger().InfoContext(vctx, "late fee after paid renewal", "invoice_id", paid, "late_fee", fee)
			}
		}
	}
	return outcome, err
}

// invoiceRow finds the invoice row of a Stripe invoice or creates it, with
// the venue's next number of the invoice's year and its line with VAT.
func (s *Service) invoiceRow(ctx context.Context, tx *ent.Tx, sub *ent.Subscription, in *stripeport.Invoice) (*ent.Invoice, error) {
	row, err := tx.Invoice.Query().Where(invoice.ProcessorInvoiceID(in.ID)).Only(ctx)
	if err == nil || !ent.IsNotFound(err) {
		return row, err
	}
	if !strings.EqualFold(in.Currency, sub.Currency) {
		return nil, fmt.Errorf("billing: invoice %s in %s, subscription %s in %s", in.ID, in.Currency, sub.ID, sub.Currency)
	}
	org, err := tx.Organization.Query().Where(organization.ID(sub.OrganizationID)).Only(ctx)
	if err != nil {
		return nil, err
	}
	loc, err := time.LoadLocation(org.Timezone)
	if err != nil {
		loc = time.UTC
	}
	issued := in.Created
	if issued.IsZero() {
		issued = s.now()
	}
	local := issued.In(loc)
	seq, number, err := nextNumber(ctx, tx, local.Year())
	if err != nil {
		return nil, err
	}
	total := in.Total
	if total == 0 {
		total = in.AmountDue
	}
	vat := payments.VATShare(total, sub.VatRateBp)
	line := model.InvoiceLine{Description: in.LineDescription, Quantity: 1, AmountMinor: total, VatMinor: vat, VatRateBp: sub.VatRateBp}
	if pt, err := tx.PassType.Get(ctx, sub.PassTypeID); err == nil {
		line.Description = pt.Name
	}
	c := tx.Invoice.Create().SetMemberID(sub.MemberID).SetPassID(sub.PassID).SetSubscriptionID(sub.ID).
		SetProcessorInvoiceID(in.ID).SetYear(local.Year()).SetSequence(seq).SetNumber(number).
		SetStatus(invoice.StatusSent).SetLines([]model.InvoiceLine{line}).
		SetSubtotalMinor(total).SetVatMinor(vat).SetTotalMinor(total).SetCurrency(sub.Currency).
		SetIssuedAt(issued).SetDueDate(time.Date(local.Year(), local.Month(), local.Day(), 0, 0, 0, 0, time.UTC))
	if !in.PeriodStart.IsZero() {
		c.SetPeriodStart(in.PeriodStart)
		line.PeriodStart = in.PeriodStart.In(loc).Format(time.DateOnly)
	}
	if !in.PeriodEnd.IsZero() {
		c.SetPeriodEnd(in.PeriodEnd)
		line.PeriodEnd = in.PeriodEnd.In(loc).Format(time.DateOnly)
	}
	c.SetLines([]model.InvoiceLine{line})
	if in.Status == "draft" {
		c.SetStatus(invoice.StatusDraft)
	}
	row, err = c.Save(ctx)
	if err != nil {
		return nil, err
	}
	return row, lockOverrides(ctx, tx, sub, row) // overrides.go
}

// settlement is how an invoice is being paid.
type settlement struct {
	kind     invoice.Settlement
	intentID string
	at       time.Time
	// silent sends no receipt (staff did not ask to tell the client).
	silent bool
	// amount is what an external settlement received (0: the balance).
	amount int64
	// method is how an external settlement was paid (the payment row's
	// method; empty: other).
	method string
	// opFailed answers 502 OPERATION_FAILED when our rows fail after Stripe
	// took the settlement (external.go); the attempt is left for the
	// reconcile and Stripe's invoice.paid.
	opFailed bool
}

// settle pays an invoice once, under its subscription's lock: the payment row
// of the remaining balance, the invoice paid, the pass rolled to the end of
// the period the invoice bills (active again, clips reset), the receipt and
// the outbound events. It reports false when the invoice was paid before.
func (s *Service) settle(ctx context.Context, tx *ent.Tx, sub *ent.Subscription, row *ent.Invoice, st settlement) (bool, error) {
	row, err := tx.Invoice.Query().Where(invoice.ID(row.ID)).ForUpdate().Only(ctx)
	if err != nil {
		return false, err
	}
	if row.Status == invoice.StatusPaid {
		return false, nil
	}
	now := st.at
	if now.IsZero() {
		now = s.now()
	}
	rest := row.TotalMinor - row.AmountPaidMinor
	var pay *ent.Payment
	if rest > 0 && st.kind != invoice.SettlementComp {
		pc := tx.Payment.Create().SetMemberID(row.MemberID).SetAmountMinor(rest).SetCurrency(row.Currency).
			SetStatus(payment.StatusSucceeded).SetKind(payment.KindRenewal).SetPaidAt(now)
		if row.PassID != nil {
			pc.SetPassID(*row.PassID)
		}
		if st.method != "" {
			pc.SetMethod(payment.Method(st.method))
		}
		if st.intentID != "" {
			pc.SetProcessorPaymentID(st.intentID)
		} else if st.kind == invoice.SettlementCard && row.ProcessorInvoiceID != nil {
			pc.SetProcessorPaymentID(*row.ProcessorInvoiceID)
		}
		if pay, err = pc.Save(ctx); err != nil {
			return false, err
		}
	}
	upd := tx.Invoice.UpdateOne(row).SetStatus(invoice.StatusPaid).SetAmountPaidMinor(row.TotalMinor).
		SetPaidAt(now).SetSettlement(st.kind)
	if pay != nil {
		upd.SetPaymentID(pay.ID)
	}
	if st.intentID != "" {
		upd.SetPaymentIntentID(st.intentID)
	}
	if row, err = upd.Save(ctx); err != nil {
		return false, err
	}
	validTo, err := s.rollPass(ctx, tx, sub, row)
	if err != nil {
		return false, err
	}
	if err := s.flexAfterRenewal(ctx, tx, sub, row); err != nil { // flexadmin.go
		return false, err
	}
	if err := s.scheduleAfterRenewal(ctx, tx, sub, row); err != nil { // schedules.go
		return false, err
	}
	data := map[string]any{"pass_id": sub.PassID.String(), "member_id": row.MemberID.String(),
		"invoice_id": row.ID.String(), "invoice_number": row.Number, "amount_minor": rest, "currency": row.Currency,
		"valid_to": validTo, "settlement": string(st.kind)}
	if pay != nil {
		data["payment_id"] = pay.ID.String()
		if _, err := events.Record(ctx, tx.Client(), events.PaymentSucceeded, map[string]any{
			"payment_id": pay.ID.String(), "invoice_id": row.ID.String(), "member_id": row.MemberID.String(),
			"payment_intent_id": st.intentID, "amount_minor": rest, "currency": row.Currency,
			"vat_minor": payments.VATShare(rest, sub.VatRateBp),
		}); err != nil {
			return false, err
		}
	}
	if _, err := events.Record(ctx, tx.Client(), events.MembershipRenewed, data); err != nil {
		return false, err
	}
	if pay != nil && !st.silent {
		if err := s.sendReceipt(ctx, tx, row, pay); err != nil {
			return false, err
		}
	}
	return true, nil
}

// rollPass moves a pass on to the end of the period a paid invoice bills:
// active again (a renewal that failed and was recovered), clips reset to the
// pass type's. It returns the pass's new last day.
func (s *Service) rollPass(ctx context.Context, tx *ent.Tx, sub *ent.Subscription, row *ent.Invoice) (string, error) {
	p, err := tx.Pass.Query().Where(pass.ID(sub.PassID)).ForUpdate().Only(ctx)
	if err != nil {
		return "", err
	}
	pt, err := tx.PassType.Get(ctx, p.PassTypeID)
	if err != nil {
		return "", err
	}
	upd := tx.Pass.UpdateOne(p)
	end := p.ValidTo
	if row.PeriodEnd != nil {
		e := time.Date(row.PeriodEnd.Year(), row.PeriodEnd.Month(), row.PeriodEnd.Day(), 0, 0, 0, 0, time.UTC)
		if end == nil || e.After(*end) {
			end = &e
			upd.SetValidTo(e)
		}
	}
	if p.Status == pass.StatusPastDue || p.Status == pass.StatusExpired {
		upd.SetStatus(pass.StatusActive)
	}
	if pt.Clips != nil {
		upd.SetClipsRemaining(*pt.Clips)
	}
	if err := upd.Exec(ctx); err != nil {
		return "", err
	}
	if end == nil {
		return "", nil
	}
	return end.Format(time.DateOnly), nil
}

// fail records a declined renewal charge: a failed payment row for the
// declined charge (once per intent), the invoice overdue with the failure,
// the pass past due, the member told and the outbound event. For an invoice
// paid meanwhile (a late event) only the declined charge's row is written;
// it reports whether the invoice changed.
func (s *Service) fail(ctx context.Context, tx *ent.Tx, sub *ent.Subscription, row *ent.Invoice, in *stripeport.Invoice) (bool, error) {
	late := row.Status == invoice.StatusPaid || row.Status == invoice.StatusVoid
	if late && in.PaymentIntent == "" {
		return false, nil
	}
	if in.PaymentIntent != "" {
		n, err := tx.Payment.Query().Where(payment.ProcessorPaymentID(in.PaymentIntent), payment.StatusEQ(payment.StatusFailed)).Count(ctx)
		if err != nil {
			return false, err
		}
		if n > 0 {
			return false, nil // this declined charge was recorded
		}
	}
	at := in.Created
	if at.IsZero() {
		at = s.now()
	}
	failedAt := s.now()
	if failedAt.Before(at) {
		failedAt = at
	}
	code := in.FailureCode
	if code == "" {
		code = "card_declined"
	}
	pc := tx.Payment.Create().SetMemberID(row.MemberID).SetAmountMinor(row.TotalMinor - row.AmountPaidMinor).
		SetCurrency(row.Currency).SetStatus(payment.StatusFailed).SetKind(payment.KindRenewal)
	if row.PassID != nil {
		pc.SetPassID(*row.PassID)
	}
	if in.PaymentIntent != "" {
		pc.SetProcessorPaymentID(in.PaymentIntent)
	}
	if err := pc.Exec(ctx); err != nil {
		return false, err
	}
	if late {
		// The decline's event came after the invoice was paid (events
		// arrive in any order): the declined charge is recorded, and
		// nothing else changes.
		return false, nil
	}
	attempts := int(in.AttemptCount)
	if attempts < row.AttemptCount+1 {
		attempts = row.AttemptCount + 1
	}
	upd := tx.Invoice.UpdateOne(row).SetFailedAt(failedAt).SetFailureCode(code).SetAttemptCount(attempts)
	if in.DeclineCode != "" {
		upd.SetDeclineCode(in.DeclineCode)
	}
	if row.AmountPaidMinor > 0 {
		upd.SetStatus(invoice.StatusPartiallyPaid)
	} else {
		upd.SetStatus(invoice.StatusOverdue)
	}
	if in.PaymentIntent != "" {
		upd.SetPaymentIntentID(in.PaymentIntent)
	}
	if row, err := upd.Save(ctx); err != nil {
		return false, err
	} else if _, err := tx.Pass.Update().Where(pass.ID(sub.PassID), pass.StatusEQ(pass.StatusActive)).
		SetStatus(pass.StatusPastDue).Save(ctx); err != nil {
		return false, err
	} else {
		if _, err := events.Record(ctx, tx.Client(), events.MembershipRenewalFailed, map[string]any{
			"pass_id": sub.PassID.String(), "member_id": row.MemberID.String(), "invoice_id": row.ID.String(),
			"invoice_number": row.Number, "amount_minor": row.TotalMinor - row.AmountPaidMinor, "currency": row.Currency,
			"failure_code": code, "decline_code": in.DeclineCode, "attempt_count": attempts,
		}); err != nil {
			return false, err
		}
		if err := s.tellFailure(ctx, tx, row); err != nil {
			return false, err
		}
	}
	return true, nil
}

// OnSubscription mirrors Stripe's status of a subscription and its period
// end. A deleted subscription ends the renewals: the pass runs to the end of
// what was paid, then expires like any other.
func (s *Service) OnSubscription(ctx context.Context, typ string, in *stripeport.Subscription) (string, error) {
	vctx, subID, ok := s.ours(ctx, in.Metadata)
	if !ok {
		return "not_ours", nil
	}
	outcome := "subscription_" + in.Status
	withdrawn, err := s.cancelWithdrawn(vctx, subID, in)
	if err != nil {
		return "", err
	}
	err = events.WithTx(vctx, s.client, func(ctx context.Context, tx *ent.Tx) error {
		sub, err := tx.Subscription.Query().Where(subscription.ID(subID)).ForUpdate().Only(ctx)
		if ent.IsNotFound(err) {
			outcome = "not_ours"
			return nil
		}
		if err != nil {
			return err
		}
		if sub.CanceledAt != nil {
			outcome = "subscription_already_canceled"
			return nil // canceled is terminal
		}
		upd := tx.Subscription.UpdateOne(sub).SetProcessorStatus(in.Status)
		if sub.ProcessorSubscriptionID == nil {
			upd.SetProcessorSubscriptionID(in.ID)
		}
		if !in.CurrentPeriodEnd.IsZero() && (sub.CurrentPeriodEnd == nil || in.CurrentPeriodEnd.After(*sub.CurrentPeriodEnd)) {
			upd.SetCurrentPeriodEnd(in.CurrentPeriodEnd).SetNextChargeAt(in.CurrentPeriodEnd)
		}
		if withdrawn && sub.CancelAt != nil {
			upd.ClearCancelAt()
			if _, err := audit.Record(ctx, tx.Client(), audit.Entry{Action: AuditCancelWithdrawn, Target: "pass:" + sub.PassID.String(),
				Details: map[string]any{"subscription_id": sub.ID.String(), "member_id": sub.MemberID.String(),
					"cancel_at": sub.CancelAt.UTC().Format(time.RFC3339)}}); err != nil {
				return err
			}
		}
		if typ == "customer.subscription.deleted" || in.Status == "canceled" {
			upd.SetProcessorStatus("canceled").SetCanceledAt(s.now()).ClearNextChargeAt()
			outcome = "subscription_canceled"
		}
		return upd.Exec(ctx)
	})
	return outcome, err
}

// AuditCancelWithdrawn records a membership's cancellation withdrawn at
// Stripe (its subscription renews again).
const AuditCancelWithdrawn = "membership.cancel_withdrawn"

// cancelWithdrawn reports whether event subscription in shows the
// cancellation of our subscription subID withdrawn: ours ends (cancel_at)
// but in does not. Events come in any order, so an older event without
// cancel_at is not believed alone: Stripe's subscription is read and must
// not end either.
func (s *Service) cancelWithdrawn(ctx context.Context, subID uuid.UUID, in *stripeport.Subscription) (bool, error) {
	if !in.CancelAt.IsZero() || in.Status == "canceled" {
		return false, nil
	}
	sub, err := s.client.Subscription.Query().Where(subscription.ID(subID)).Only(ctx)
	if ent.IsNotFound(err) {
		return false, nil
	}
	if err != nil || sub.CancelAt == nil || sub.CanceledAt != nil || sub.ProcessorSubscriptionID == nil {
		return false, err
	}
	vp, err := s.client.VenuePayments.Query().Only(ctx)
	if err != nil || vp.AccountID == nil {
		return false, fmt.Errorf("billing: cancel withdrawn: venue account: %v", err)
	}
	cur, err := s.port.GetSubscription(ctx, *vp.AccountID, *sub.ProcessorSubscriptionID)
	if err != nil {
		return false, fmt.Errorf("billing: cancel withdrawn: read: %w", err) // the event job tries again
	}
	return cur.CancelAt.IsZero() && cur.Status != "canceled", nil
}
