package billing

import (
	"context"
	"errors"
	"net/http"
	"time"

	"github.com/google/uuid"

	"github.com/venueplatform/venue/ent"
	"github.com/venueplatform/venue/ent/auditlog"
	"github.com/venueplatform/venue/ent/invoice"
	"github.com/venueplatform/venue/ent/pass"
	"github.com/venueplatform/venue/ent/paymentattempt"
	"github.com/venueplatform/venue/ent/subscription"
	"github.com/venueplatform/venue/internal/apperr"
	"github.com/venueplatform/venue/internal/audit"
	"github.com/venueplatform/venue/internal/events"
	"github.com/venueplatform/venue/internal/payments"
	"github.com/venueplatform/venue/internal/payments/stripeport"
)

// The staff's subscription lifecycle: the timeline of a membership, moving
// its next charge, changing what each period costs, and reactivating a pass
// that ended. Stripe writes follow the attempt-row discipline: an attempt of
// purpose subscription_update whose live slot is the subscription, so two
// changes of one membership never cross (the second is PAYMENT_PENDING).

// PermBillingManage is the permission of the billing changes (shift the next
// charge, change the recurring amount).
const PermBillingManage = "billing.manage"

// Audit actions of the lifecycle.
const (
	AuditPassReactivated     = "pass_reactivated"
	AuditNextChargeShifted   = "membership.next_charge_shifted"
	AuditRecurringAmountSet  = "membership.recurring_amount_changed"
	CodeRecurringUnsupported = "RECURRING_UNSUPPORTED"
)

// lifecycleActions are the audit actions a timeline shows.
var lifecycleActions = []string{AuditPassSuspended, AuditPassUnsuspended, AuditPassReactivated, AuditNextChargeShifted,
	AuditRecurringAmountSet, AuditSettledExternally, AuditComped, AuditRenewalPaymentLinkSent, AuditCollectionChanged}

func init() {
	// A price change whose answer was lost is finished; another update
	// (a date) is dropped and may simply be made again (pricechange.go).
	payments.RegisterReconciler(paymentattempt.PurposeSubscriptionUpdate, reconcileSubscriptionUpdate)
}

func notEligible(msg string, st pass.Status) *apperr.Error {
	return (&apperr.Error{Status: http.StatusUnprocessableEntity, Code: CodePassNotEligible, Message: msg}).
		With("status", string(st)).With("next_step", nil)
}

// Timeline is a membership's history for staff: its subscription, its
// invoices newest first, and the staff's changes to it newest first.
type Timeline struct {
	Pass         *ent.Pass
	Subscription *ent.Subscription
	Invoices     []*ent.Invoice
	Changes      []*ent.AuditLog
}

// SubscriptionTimeline reads a recurring pass's timeline from our rows (the
// truth; Stripe is not asked). A pass that does not renew is 422
// PASS_ACTION_NOT_ELIGIBLE.
func (s *Service) SubscriptionTimeline(ctx context.Context, passID uuid.UUID) (*Timeline, error) {
	p, err := s.client.Pass.Query().Where(pass.ID(passID)).Only(ctx)
	if ent.IsNotFound(err) {
		return nil, passNotFound()
	}
	if err != nil {
		return nil, err
	}
	sub, err := s.client.Subscription.Query().Where(subscription.PassID(passID)).Only(ctx)
	if ent.IsNotFound(err) {
		return nil, notEligible("the pass does not renew: it has no subscription", p.Status)
	}
	if err != nil {
		return nil, err
	}
	invs, err := s.client.Invoice.Query().Where(invoice.SubscriptionID(sub.ID)).
		Order(ent.Desc(invoice.FieldIssuedAt), ent.Desc(invoice.FieldID)).Limit(36).All(ctx)
	if err != nil {
		return nil, err
	}
	changes, err := s.client.AuditLog.Query().
		Where(auditlog.Target("pass:"+passID.String()), auditlog.ActionIn(lifecycleActions...)).
		Order(ent.Desc(auditlog.FieldCreatedAt), ent.Desc(auditlog.FieldID)).Limit(50).All(ctx)
	if err != nil {
		return nil, err
	}
	return &Timeline{Pass: p, Subscription: sub, Invoices: invs, Changes: changes}, nil
}

// venueToday is the viewer's venue's calendar day now, and its time zone.
func (s *Service) venueToday(ctx context.Context) (time.Time, *time.Location, error) {
	o, err := s.client.Organization.Query().Only(ctx)
	if err != nil {
		return time.Time{}, nil, err
	}
	loc, err := time.LoadLocation(o.Timezone)
	if err != nil {
		loc = time.UTC
	}
	y, m, d := s.now().In(loc).Date()
	return time.Date(y, m, d, 0, 0, 0, 0, time.UTC), loc, nil
}

func noStripeSubscription(code string) *apperr.Error {
	return refusal(http.StatusUnprocessableEntity, code, "the membership has no live subscription at the payment processor", nil)
}

// liveSubscription reads the pass's subscription that renews at Stripe, else
// the refusal code given.
func (s *Service) liveSubscription(ctx context.Context, passID uuid.UUID, code string) (*ent.Subscription, error) {
	n, err := s.client.Pass.Query().Where(pass.ID(passID)).Count(ctx)
	if err != nil {
		return nil, err
	}
	if n == 0 {
		return nil, passNotFound()
	}
	sub, err := s.client.Subscription.Query().Where(subscription.PassID(passID)).Only(ctx)
	if ent.IsNotFound(err) {
		return nil, noStripeSubscription(code)
	}
	if err != nil {
		return nil, err
	}
	if sub.ProcessorSubscriptionID == nil || sub.CanceledAt != nil {
		return nil, noStripeSubscription(code)
	}
	return sub, nil
}

// updateAttempt claims the subscription's live slot with a new attempt of
// purpose subscription_update; a change in flight is PAYMENT_PENDING.
func (s *Service) updateAttempt(ctx context.Context, sub *ent.Subscription) (*ent.PaymentAttempt, error) {
	var at *ent.PaymentAttempt
	err := events.WithTx(ctx, s.client, func(ctx context.Context, tx *ent.Tx) error {
		if _, err := tx.Subscription.Query().Where(subscription.ID(sub.ID)).ForUpdate().Only(ctx); err != nil {
			return err
		}
		if n, err := tx.PaymentAttempt.Query().Where(paymentattempt.LiveSubjectID(sub.ID)).Count(ctx); err != nil {
			return err
		} else if n > 0 {
			return refusal(http.StatusConflict, payments.CodePending, "another change of this membership is in progress", "refresh")
		}
		n, err := tx.PaymentAttempt.Query().Where(paymentattempt.SubjectID(sub.ID)).Count(ctx)
		if err != nil {
			return err
		}
		at, err = tx.PaymentAttempt.Create().SetPurpose(paymentattempt.PurposeSubscriptionUpdate).
			SetSubjectID(sub.ID).SetNumber(n + 1).SetState(paymentattempt.StateInFlight).
			SetLiveSubjectID(sub.ID).Save(ctx)
		return err
	})
	if ent.IsConstraintError(err) {
		return nil, refusal(http.StatusConflict, payments.CodePending, "another change of this membership is in progress", "refresh")
	}
	return at, err
}

// stripeUpdate sends one subscription update under attempt at and closes
// the attempt on a refusal; an unknown outcome leaves it for the sweep.
func (s *Service) stripeUpdate(ctx context.Context, at *ent.PaymentAttempt, u stripeport.SubscriptionUpdate) (*stripeport.Subscription, error) {
	u.IdempotencyKey = payments.IdempotencyKey(string(at.Purpose), at.ID.String(), "update")
	out, err := s.port.UpdateSubscription(ctx, u)
	if errors.Is(err, stripeport.ErrUnknownOutcome) {
		return nil, unknownOutcome()
	}
	if err != nil {
		_ = s.client.PaymentAttempt.UpdateOne(at).SetState(paymentattempt.StateFailed).
			SetFailureCode("processor_refused").ClearLiveSubjectID().Exec(ctx)
		s.pay.Logger().ErrorContext(ctx, "subscription update refused", "attempt_id", at.ID, "error", err)
		return nil, stripeError()
	}
	return out, nil
}

// ShiftNextCharge moves a membership's next charge to newDate (a venue-local
// day after today and at most a year ahead, else 422 INVALID_BILLING_DATE):
// the Stripe subscription's trial end (its billing anchor) moves to the
// start of that day in the venue's time zone, without proration, and in one
// transaction the subscription's next charge, the pass's last day and the
// audit entry membership.next_charge_shifted follow. A pass without a live
// Stripe subscription is 422 NO_STRIPE_SUBSCRIPTION.
//
// A database failure is 500 DB_ERROR (the cause logged, never shown), which
// leaves the request's Idempotency-Key free for the retry; a failure after
// Stripe took the date closes the attempt (failure code local_write_failed)
// so the retry is not PAYMENT_PENDING and simply sends the same date again.
func (s *Service) ShiftNextCharge(ctx context.Context, passID uuid.UUID, newDate time.Time, reason string) (*ent.Subscription, error) {
	out, err := s.shiftNextCharge(ctx, passID, newDate, reason)
	return out, dbError(err)
}

func (s *Service) shiftNextCharge(ctx context.Context, passID uuid.UUID, newDate time.Time, reason string) (*ent.Subscription, error) {
	sub, err := s.liveSubscription(ctx, passID, CodeNoStripeSubscription)
	if err != nil {
		return nil, err
	}
	today, loc, err := s.venueToday(ctx)
	if err != nil {
		return nil, err
	}
	day := dateOf(newDate)
	if !day.After(today) || day.After(today.AddDate(1, 0, 0)) {
		return nil, refusal(http.StatusUnprocessableEntity, CodeInvalidBillingDate,
			"new_date must be a day after today and at most one year ahead", nil).
			With("earliest", today.AddDate(0, 0, 1).Format(time.DateOnly)).With("latest", today.AddDate(1, 0, 0).Format(time.DateOnly))
	}
	vp, err := s.pay.Chargeable(ctx)
	if err != nil {
		return nil, err
	}
	at, err := s.updateAttempt(ctx, sub)
	if err != nil {
		return nil, err
	}
	charge := time.Date(day.Year(), day.Month(), day.Day(), 0, 0, 0, 0, loc)
	if _, err := s.stripeUpdate(ctx, at, stripeport.SubscriptionUpdate{Account: *vp.AccountID,
		ID: *sub.ProcessorSubscriptionID, NextChargeAt: charge}); err != nil {
		return nil, err
	}
	var out *ent.Subscription
	err = events.WithTx(ctx, s.client, func(ctx context.Context, tx *ent.Tx) error {
		cur, err := tx.Subscription.Query().Where(subscription.ID(sub.ID)).ForUpdate().Only(ctx)
		if err != nil {
			return err
		}
		if out, err = tx.Subscription.UpdateOne(cur).SetNextChargeAt(charge).SetCurrentPeriodEnd(charge).Save(ctx); err != nil {
			return err
		}
		p, err := tx.Pass.Query().Where(pass.ID(passID)).ForUpdate().Only(ctx)
		if err != nil {
			return err
		}
		if err := tx.Pass.UpdateOne(p).SetValidTo(day).Exec(ctx); err != nil {
			return err
		}
		from := ""
		if cur.NextChargeAt != nil {
			from = cur.NextChargeAt.In(loc).Format(time.DateOnly)
		}
		if _, err := audit.Record(ctx, tx.Client(), audit.Entry{Action: AuditNextChargeShifted, Target: "pass:" + passID.String(),
			Details: map[string]any{"subscription_id": sub.ID.String(), "member_id": sub.MemberID.String(),
				"from": from, "to": day.Format(time.DateOnly), "reason": reason}}); err != nil {
			return err
		}
		return tx.PaymentAttempt.UpdateOneID(at.ID).SetState(paymentattempt.StateSucceeded).
			SetProcessorObjectID(*sub.ProcessorSubscriptionID).ClearLiveSubjectID().Exec(ctx)
	})
	if err != nil {
		s.pay.Logger().ErrorContext(ctx, "next charge shifted at the processor, our write failed", "attempt_id", at.ID, "error", err)
		_ = s.client.PaymentAttempt.UpdateOneID(at.ID).Where(paymentattempt.StateEQ(paymentattempt.StateInFlight)).
			SetState(paymentattempt.StateFailed).SetFailureCode("local_write_failed").ClearLiveSubjectID().Exec(ctx)
		return nil, err
	}
	return out, nil
}

// ChangeRecurringAmount sets what each period of a membership costs from the
// next cycle on (amount_minor above zero, in the subscription's currency):
// the Stripe subscription's item gets the new price without proration, and
// the subscription's amount and the audit entry
// membership.recurring_amount_changed are recorded with the attempt before
// the call (the one price-change path, pricechange.go). Invoices already issued keep
// their totals. A pass without a live Stripe subscription, or one whose
// subscription has no item to price, is 422 NO_BILLABLE_ITEM.
func (s *Service) ChangeRecurringAmount(ctx context.Context, passID uuid.UUID, amountMinor int64, reason string) (*ent.Subscription, error) {
	if amountMinor <= 0 {
		return nil, apperr.Validation("amount_minor", "amount_minor must be an integer above zero")
	}
	sub, err := s.liveSubscription(ctx, passID, CodeNoBillableItem)
	if err != nil {
		return nil, err
	}
	if err := s.changePrices(ctx, priceChange{targets: []priceTarget{{sub: sub, to: amountMinor, reason: reason, always: true}}}); err != nil {
		return nil, err
	}
	return s.client.Subscription.Get(ctx, sub.ID)
}

// Reactivate makes an expired or cancelled pass that does not renew active
// again until newEnd (a venue-local day, today or later), with the audit
// entry pass_reactivated; the member is not contacted. Another state is 422
// PASS_ACTION_NOT_ELIGIBLE, a recurring pass 422 RECURRING_UNSUPPORTED (its
// renewals start through checkout), a day in the past 400 VALIDATION_ERROR.
func (s *Service) Reactivate(ctx context.Context, passID uuid.UUID, newEnd time.Time, reason string) (*ent.Pass, error) {
	today, _, err := s.venueToday(ctx)
	if err != nil {
		return nil, err
	}
	end := dateOf(newEnd)
	var out *ent.Pass
	err = events.WithTx(ctx, s.client, func(ctx context.Context, tx *ent.Tx) error {
		p, err := tx.Pass.Query().Where(pass.ID(passID)).ForUpdate().Only(ctx)
		if ent.IsNotFound(err) {
			return passNotFound()
		}
		if err != nil {
			return err
		}
		if p.Status != pass.StatusExpired && p.Status != pass.StatusCancelled {
			return notEligible("only an expired or cancelled pass can be reactivated", p.Status)
		}
		pt, err := tx.PassType.Get(ctx, p.PassTypeID)
		if err != nil {
			return err
		}
		if pt.IsRecurring {
			return refusal(http.StatusUnprocessableEntity, CodeRecurringUnsupported,
				"a recurring membership cannot be reactivated here; the member buys it again", nil)
		}
		if end.Before(today) {
			return apperr.Validation("new_end_date", "new_end_date may not be before today")
		}
		if out, err = tx.Pass.UpdateOne(p).SetStatus(pass.StatusActive).SetValidTo(end).Save(ctx); err != nil {
			return err
		}
		details := map[string]any{"member_id": p.MemberID.String(), "from": string(p.Status),
			"valid_to": end.Format(time.DateOnly), "reason": reason}
		if p.ValidTo != nil {
			details["previous_valid_to"] = p.ValidTo.Format(time.DateOnly)
		}
		_, err = audit.Record(ctx, tx.Client(), audit.Entry{Action: AuditPassReactivated, Target: "pass:" + passID.String(), Details: details})
		return err
	})
	return out, err
}
