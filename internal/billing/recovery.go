package billing

import (
	"context"
	"fmt"
	"net/http"

	"github.com/google/uuid"

	"github.com/venueplatform/venue/ent"
	"github.com/venueplatform/venue/ent/invoice"
	"github.com/venueplatform/venue/ent/pass"
	"github.com/venueplatform/venue/ent/paymentattempt"
	"github.com/venueplatform/venue/ent/paymentcustomer"
	"github.com/venueplatform/venue/ent/subscription"
	"github.com/venueplatform/venue/internal/apperr"
	"github.com/venueplatform/venue/internal/audit"
	"github.com/venueplatform/venue/internal/events"
	"github.com/venueplatform/venue/internal/money"
	"github.com/venueplatform/venue/internal/notify"
)

// Renewal recovery: staff read a membership's failed renewal and recover it
// by charging the saved card or by sending the member a pay link. The
// contract's renewal_recovery capability is passes.manage (a pay link also
// needs notifications.send, as every client notification does).

// Error codes and audit actions of renewal recovery.
const (
	CodeRenewalRequiresAction   = "RENEWAL_REQUIRES_ACTION"
	CodeRenewalChargeFailed     = "RENEWAL_CHARGE_FAILED"
	CodeRenewalPaymentLinkFail  = "RENEWAL_PAYMENT_LINK_FAILED"
	CodeChannelRequired         = "CHANNEL_REQUIRED"
	AuditRenewalPaymentLinkSent = "membership.renewal_payment_link_sent"
	// KindRenewalPaymentLink is the notification kind of a pay link.
	KindRenewalPaymentLink = "billing.renewal_payment_link"
)

// Recovery is what staff see of a membership's failed renewal and what can
// be done about it.
type Recovery struct {
	Pass         *ent.Pass
	Subscription *ent.Subscription // nil: the pass does not renew
	// Invoice is the oldest unpaid renewal invoice (nil: nothing to recover).
	Invoice *ent.Invoice
	// ChargeInProgress: a charge of the invoice is in flight (a retry, a
	// settlement); a new charge would be PAYMENT_PENDING.
	ChargeInProgress bool
	// CardPayments: the venue takes card payments now.
	CardPayments bool
	// SavedCard: the member has a card to charge (the subscription's or
	// their default at the venue's account).
	SavedCard bool
	// LateFee is the pass's oldest pending late fee (nil: none), charged
	// with the renewal (latefee.go).
	LateFee *ent.LateFee
}

// AmountDue is what a recovery charge takes: the invoice's balance and the
// pending late fee.
func (r *Recovery) AmountDue() int64 {
	var due int64
	if r.Invoice != nil {
		due = Balance(r.Invoice)
	}
	if r.LateFee != nil {
		due += r.LateFee.AmountMinor
	}
	return due
}

// CanCharge reports whether a charge of the saved card can start now.
func (r *Recovery) CanCharge() bool {
	if r.Invoice == nil && r.LateFee != nil {
		return r.CardPayments && r.SavedCard && !r.ChargeInProgress
	}
	return r.Invoice != nil && r.Invoice.ProcessorInvoiceID != nil && r.CardPayments && r.SavedCard && !r.ChargeInProgress
}

// CanWaiveLateFee reports whether a late fee is pending.
func (r *Recovery) CanWaiveLateFee() bool { return r.LateFee != nil }

// CanSendLink reports whether a pay link can be sent.
func (r *Recovery) CanSendLink() bool { return r.Invoice != nil }

func noOpenInvoice() *apperr.Error {
	return refusal(http.StatusUnprocessableEntity, CodeNoOpenInvoice, "the membership has no unpaid renewal", nil)
}

// recoveryTarget reads a pass of the viewer's venue, its subscription (nil
// when none) and its oldest unpaid invoice (nil when none).
func (s *Service) recoveryTarget(ctx context.Context, passID uuid.UUID) (*ent.Pass, *ent.Subscription, *ent.Invoice, error) {
	p, err := s.client.Pass.Query().Where(pass.ID(passID)).Only(ctx)
	if ent.IsNotFound(err) {
		return nil, nil, nil, passNotFound()
	}
	if err != nil {
		return nil, nil, nil, err
	}
	sub, err := s.client.Subscription.Query().Where(subscription.PassID(passID)).Only(ctx)
	if err != nil && !ent.IsNotFound(err) {
		return nil, nil, nil, err
	}
	inv, err := s.client.Invoice.Query().Where(invoice.PassID(passID), invoice.StatusIn(unpaid...)).
		Order(ent.Asc(invoice.FieldDueDate), ent.Asc(invoice.FieldIssuedAt), ent.Asc(invoice.FieldID)).First(ctx)
	if err != nil && !ent.IsNotFound(err) {
		return nil, nil, nil, err
	}
	return p, sub, inv, nil
}

// RenewalRecovery reads a pass's failed renewal and what can be done.
func (s *Service) RenewalRecovery(ctx context.Context, passID uuid.UUID) (*Recovery, error) {
	p, sub, inv, err := s.recoveryTarget(ctx, passID)
	if err != nil {
		return nil, err
	}
	r := &Recovery{Pass: p, Subscription: sub, Invoice: inv}
	if r.LateFee, err = s.PendingLateFee(ctx, passID); err != nil {
		return nil, err
	}
	if inv == nil && (r.LateFee == nil || sub == nil) {
		return r, nil
	}
	live := []uuid.UUID{}
	memberID := p.MemberID
	if inv != nil {
		live, memberID = append(live, inv.ID), inv.MemberID
	}
	if r.LateFee != nil {
		live = append(live, r.LateFee.ID)
	}
	n, err := s.client.PaymentAttempt.Query().Where(paymentattempt.LiveSubjectIDIn(live...)).Count(ctx)
	if err != nil {
		return nil, err
	}
	r.ChargeInProgress = n > 0
	vp, err := s.pay.Chargeable(ctx)
	if err != nil {
		return r, nil // card payments unavailable: no charge offered
	}
	r.CardPayments = true
	if sub != nil && deref(sub.PaymentMethodID) != "" {
		r.SavedCard = true
		return r, nil
	}
	pc, err := s.client.PaymentCustomer.Query().
		Where(paymentcustomer.MemberID(memberID), paymentcustomer.AccountID(*vp.AccountID)).Only(ctx)
	if err != nil && !ent.IsNotFound(err) {
		return nil, err
	}
	r.SavedCard = pc != nil && deref(pc.DefaultPaymentMethodID) != ""
	return r, nil
}

// RecoveryChargeParams charge a failed renewal to a saved card.
type RecoveryChargeParams struct {
	PassID uuid.UUID
	// PaymentMethod charges this saved card instead of the subscription's
	// or the default.
	PaymentMethod string
	// Expected, when set, must equal the balance (else BALANCE_CHANGED).
	Expected *int64
}

// RecoveryCharge charges the oldest unpaid renewal of a pass to the
// member's saved card through the invoice retry (its order of checks and its
// one charge per invoice at a time, whoever asks). A charge waiting on the
// member's authentication is 402 RENEWAL_REQUIRES_ACTION, a declined one 422
// RENEWAL_CHARGE_FAILED (the decline is recorded like any other); a paid one
// answers the invoice paid and the pass rolled on.
func (s *Service) RecoveryCharge(ctx context.Context, p RecoveryChargeParams) (*ent.Invoice, *RetryResult, error) {
	_, _, inv, err := s.recoveryTarget(ctx, p.PassID)
	if err != nil {
		return nil, nil, err
	}
	fee, err := s.PendingLateFee(ctx, p.PassID)
	if err != nil {
		return nil, nil, err
	}
	if inv == nil && fee == nil {
		return nil, nil, noOpenInvoice()
	}
	if err := s.refuseExternalPass(ctx, p.PassID); err != nil { // external_cards.go
		return nil, nil, err
	}
	if inv == nil {
		// The renewal is paid; only its late fee is left (its charge was
		// declined after the renewal went through).
		if p.Expected != nil && *p.Expected != fee.AmountMinor {
			return nil, nil, balanceChanged(fee.AmountMinor)
		}
		if _, _, err := s.ChargePendingLateFee(ctx, p.PassID, p.PaymentMethod); err != nil {
			return nil, nil, err
		}
		row, err := s.client.Invoice.Get(ctx, fee.InvoiceID)
		if err != nil {
			return nil, nil, err
		}
		return row, &RetryResult{Status: RetrySucceeded, InvoiceID: row.ID, AlreadySettled: true, LateFee: LateFeePaid}, nil
	}
	expected := p.Expected
	if expected != nil {
		// expected_amount_minor is the amount due: the balance and the
		// invoice's pending late fee.
		bal, due := Balance(inv), Balance(inv)
		if fee != nil && fee.InvoiceID == inv.ID {
			due += fee.AmountMinor
		}
		if *expected != due {
			return nil, nil, balanceChanged(due)
		}
		expected = &bal
	}
	res, err := s.Retry(ctx, RetryParams{InvoiceID: inv.ID, Expected: expected, PaymentMethod: p.PaymentMethod})
	if err != nil {
		return nil, nil, err
	}
	switch res.Status {
	case RetryRequiresAction:
		return nil, nil, refusal(http.StatusPaymentRequired, CodeRenewalRequiresAction,
			"the member's bank asks the member to confirm the payment in the app", nil).
			With("invoice_id", inv.ID.String()).With("payment_intent_id", res.IntentID).
			With("reason", "authentication_required")
	case RetryFailed:
		return nil, nil, refusal(http.StatusUnprocessableEntity, CodeRenewalChargeFailed,
			"the card was declined", "update_card").
			With("invoice_id", inv.ID.String()).With("failure_code", res.FailureCode).With("decline_code", res.DeclineCode)
	}
	row, err := s.client.Invoice.Get(ctx, inv.ID)
	if err != nil {
		return nil, nil, err
	}
	return row, res, nil
}

// PayLinkParams send the member a link to pay their failed renewal.
type PayLinkParams struct {
	PassID  uuid.UUID
	Clients bool
	Email   bool
	SMS     bool
	// Message is an optional line from the venue (at most 500 characters).
	Message string
}

// PayLinkResult is what a pay link request queued.
type PayLinkResult struct {
	Invoice  *ent.Invoice
	Queued   int
	Channels []string
	Skipped  []notify.Skip
}

// PayPath is the member's path that pays an invoice (the app's pay link).
func PayPath(id uuid.UUID) string { return "/api/v1/me/invoices/" + id.String() + "/retry" }

// SendRenewalPayLink queues a message to the member, on the channels the
// request names (e-mail, SMS), with the amount due and the link that pays
// the oldest unpaid renewal, through the notification outbox in one
// transaction with the audit entry membership.renewal_payment_link_sent. No
// audience or channel is 400 CHANNEL_REQUIRED; a member no channel reaches
// is 422 RENEWAL_PAYMENT_LINK_FAILED and nothing is written.
func (s *Service) SendRenewalPayLink(ctx context.Context, p PayLinkParams) (*PayLinkResult, error) {
	if !p.Clients || (!p.Email && !p.SMS) {
		return nil, &apperr.Error{Status: http.StatusBadRequest, Code: CodeChannelRequired,
			Message: "a pay link needs notify.audience.clients and the email or sms channel"}
	}
	if err := notify.Authorize(ctx); err != nil {
		return nil, err
	}
	_, _, inv, err := s.recoveryTarget(ctx, p.PassID)
	if err != nil {
		return nil, err
	}
	if inv == nil {
		return nil, noOpenInvoice()
	}
	if err := s.refuseExternalPass(ctx, p.PassID); err != nil { // external_cards.go
		return nil, err
	}
	var chs []notify.Channel
	if p.Email {
		chs = append(chs, notify.Email)
	}
	if p.SMS {
		chs = append(chs, notify.SMS)
	}
	out := &PayLinkResult{Invoice: inv}
	body := fmt.Sprintf("Your membership renewal of %s (invoice %s) is unpaid. Pay it in the app: Invoices, Pay now (%s).",
		money.Format(Balance(inv), inv.Currency), inv.Number, PayPath(inv.ID))
	if fees, err := s.PendingLateFeesOf(ctx, []uuid.UUID{inv.ID}); err != nil {
		return nil, err
	} else if f := fees[inv.ID]; f != nil {
		body += fmt.Sprintf(" A late fee of %s is charged with it.", money.Format(f.AmountMinor, f.Currency))
	}
	if p.Message != "" {
		body = p.Message + "\n\n" + body
	}
	err = events.WithTx(ctx, s.client, func(ctx context.Context, tx *ent.Tx) error {
		for _, ch := range chs {
			res, err := notify.EnqueueForMembers(ctx, tx.Client(), []uuid.UUID{inv.MemberID}, ch, notify.Message{
				Kind: KindRenewalPaymentLink, Subject: "Your membership payment " + inv.Number,
				Body: body, Data: map[string]any{"invoice_id": inv.ID.String(), "pay_path": PayPath(inv.ID)},
				CorrelationID: "renewal_pay_link:" + inv.ID.String(),
			})
			if err != nil {
				return err
			}
			out.Queued += res.Queued
			out.Skipped = append(out.Skipped, res.Skipped...)
			if res.Queued > 0 {
				out.Channels = append(out.Channels, string(ch))
			}
		}
		if out.Queued == 0 {
			reasons := make([]string, 0, len(out.Skipped))
			for _, sk := range out.Skipped {
				reasons = append(reasons, string(sk.Channel)+":"+sk.Reason)
			}
			return refusal(http.StatusUnprocessableEntity, CodeRenewalPaymentLinkFail,
				"no chosen channel reaches the member", nil).With("skipped", reasons)
		}
		_, err := audit.Record(ctx, tx.Client(), audit.Entry{Action: AuditRenewalPaymentLinkSent, Target: "pass:" + p.PassID.String(),
			Details: map[string]any{"invoice_id": inv.ID.String(), "invoice_number": inv.Number, "member_id": inv.MemberID.String(),
				"amount_minor": Balance(inv), "currency": inv.Currency, "channels": out.Channels, "queued": out.Queued}})
		return err
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}
