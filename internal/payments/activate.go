package payments

import (
	"context"
	"fmt"
	"time"

	"github.com/google/uuid"

	"github.com/venueplatform/venue/ent"
	"github.com/venueplatform/venue/ent/checkout"
	"github.com/venueplatform/venue/ent/organization"
	"github.com/venueplatform/venue/ent/pass"
	"github.com/venueplatform/venue/ent/passtype"
	"github.com/venueplatform/venue/ent/payment"
	"github.com/venueplatform/venue/ent/paymentattempt"
	"github.com/venueplatform/venue/internal/events"
	"github.com/venueplatform/venue/internal/payments/stripeport"
	"github.com/venueplatform/venue/internal/promos"
)

// attemptState maps a payment intent's status to its attempt's state.
func attemptState(in *stripeport.Intent) paymentattempt.State {
	switch in.Status {
	case "succeeded":
		return paymentattempt.StateSucceeded
	case "processing":
		return paymentattempt.StateProcessing
	case "canceled":
		return paymentattempt.StateCanceled
	case "requires_payment_method":
		if in.FailureCode != "" || in.DeclineCode != "" {
			return paymentattempt.StateFailed
		}
		return paymentattempt.StateRequiresAction
	default: // requires_action, requires_confirmation, requires_capture
		return paymentattempt.StateRequiresAction
	}
}

// terminal attempt states leave the live slot.
func terminal(st paymentattempt.State) bool {
	return st == paymentattempt.StateSucceeded || st == paymentattempt.StateFailed || st == paymentattempt.StateCanceled
}

// applyIntent records what Stripe says of an attempt's intent, monotonically:
// a settled attempt never goes back to a live state, and success (money
// moved) wins over anything. On success it activates the checkout in the same
// transaction. It returns the purchase status: succeeded, requires_action,
// requires_payment_method, processing, failed or canceled.
func (s *Service) applyIntent(ctx context.Context, attemptID uuid.UUID, in *stripeport.Intent) (string, error) {
	if st, handled, err := s.applySubjectIntent(ctx, attemptID, in); handled { // other subjects (subjects.go)
		return st, err
	}
	var status string
	err := events.WithTx(ctx, s.client, func(ctx context.Context, tx *ent.Tx) error {
		at, err := tx.PaymentAttempt.Get(ctx, attemptID)
		if err != nil {
			return err
		}
		co, err := tx.Checkout.Query().Where(checkout.ID(at.SubjectID)).ForUpdate().Only(ctx)
		if err != nil {
			return err
		}
		at, err = tx.PaymentAttempt.Get(ctx, attemptID) // re-read under the checkout's lock
		if err != nil {
			return err
		}
		next := attemptState(in)
		status = in.Status
		if next == paymentattempt.StateFailed {
			status = "failed"
		}
		if co.Status == checkout.StatusPaid {
			status = StatusPaid
		}
		if co.PaymentIntentID == nil && in.ID != "" {
			if co, err = tx.Checkout.UpdateOne(co).SetPaymentIntentID(in.ID).Save(ctx); err != nil {
				return err
			}
		}
		if at.State != next && (!terminal(at.State) || next == paymentattempt.StateSucceeded) {
			upd := tx.PaymentAttempt.UpdateOne(at).SetState(next).SetProcessorObjectID(in.ID)
			if terminal(next) {
				upd.ClearLiveSubjectID()
			}
			if in.FailureCode != "" {
				upd.SetFailureCode(in.FailureCode)
			}
			if in.DeclineCode != "" {
				upd.SetDeclineCode(in.DeclineCode)
			}
			if _, err := upd.Save(ctx); err != nil {
				return err
			}
			if next == paymentattempt.StateFailed && co.Status != checkout.StatusPaid {
				if _, err := events.Record(ctx, tx.Client(), EventPaymentFailed, map[string]any{
					"checkout_id": co.ID.String(), "member_id": co.MemberID.String(), "payment_intent_id": in.ID,
					"amount_minor": co.AmountMinor, "currency": co.Currency,
					"failure_code": in.FailureCode, "decline_code": in.DeclineCode,
				}); err != nil {
					return err
				}
			}
		}
		if next == paymentattempt.StateSucceeded {
			if in.AmountMinor != 0 && (in.AmountMinor != co.AmountMinor || in.Currency != co.Currency) {
				return fmt.Errorf("payments: intent %s charged %d %s, checkout %s froze %d %s",
					in.ID, in.AmountMinor, in.Currency, co.ID, co.AmountMinor, co.Currency)
			}
			_, err := activate(ctx, tx, co, in.ID, s.now())
			return err
		}
		return nil
	})
	return status, err
}

// Activate is the one activation of a paid checkout, under its row lock:
// the pass, the payment row, the checkout marked paid, and the outbound
// events payment.succeeded and pass.activated. Called by confirm, the
// inbound event and reconcile, whichever comes first; the others find it
// done and change nothing. It returns the checkout as it is after.
func activate(ctx context.Context, tx *ent.Tx, co *ent.Checkout, intentID string, now time.Time) (*ent.Checkout, error) {
	co, err := tx.Checkout.Query().Where(checkout.ID(co.ID)).ForUpdate().Only(ctx)
	if err != nil {
		return nil, err
	}
	if co.Status == checkout.StatusPaid {
		return co, nil
	}
	pt, err := tx.PassType.Get(ctx, co.PassTypeID)
	if err != nil {
		return nil, err
	}
	org, err := tx.Organization.Query().Where(organization.ID(co.OrganizationID)).Only(ctx)
	if err != nil {
		return nil, err
	}
	loc, err := time.LoadLocation(org.Timezone)
	if err != nil {
		loc = time.UTC
	}
	local := now.In(loc)
	today := time.Date(local.Year(), local.Month(), local.Day(), 0, 0, 0, 0, time.UTC)
	if co.StartsOn != nil { // the start date the member chose: validity and the first period count from it
		today = dateOnly(*co.StartsOn)
	}
	var validTo *time.Time
	if pt.ValidityDays != nil {
		validTo = ptrTime(today.AddDate(0, 0, *pt.ValidityDays))
	}
	if end, ok := firstPeriodEnd(pt, today); ok {
		validTo = &end
	}
	if co.IntroThrough != nil { // an offer's intro price pays through its last day
		validTo = co.IntroThrough
	}
	if err := reclaimReleased(ctx, tx, co); err != nil { // money that came after the hold lapsed (abandon.go)
		return nil, err
	}
	if err := promos.Redeem(ctx, tx, co.ID, now); err != nil { // its promo code's use counts now
		return nil, err
	}
	var p *ent.Pass
	if co.PassID != nil { // a membership's reservation (resume.go): its pending pass becomes the active one
		p, err = tx.Pass.UpdateOneID(*co.PassID).SetStatus(pass.StatusActive).SetValidFrom(today).
			SetNillableValidTo(validTo).SetNillableClipsRemaining(pt.Clips).Save(ctx)
	} else {
		p, err = tx.Pass.Create().SetMemberID(co.MemberID).SetPassTypeID(pt.ID).
			SetStatus(pass.StatusActive).SetValidFrom(today).
			SetNillableValidTo(validTo).SetNillableClipsRemaining(pt.Clips).Save(ctx)
	}
	if err != nil {
		return nil, err
	}
	upd := tx.Checkout.UpdateOne(co).SetStatus(checkout.StatusPaid).SetPassID(p.ID).SetActivatedAt(now)
	if intentID != "" {
		upd.SetPaymentIntentID(intentID)
	}
	if co, err = upd.Save(ctx); err != nil {
		return nil, err
	}
	if _, err := tx.PaymentAttempt.Update().
		Where(paymentattempt.SubjectID(co.ID), paymentattempt.StateIn(liveStates...)).
		SetState(paymentattempt.StateSucceeded).ClearLiveSubjectID().Save(ctx); err != nil {
		return nil, err
	}
	if co.AmountMinor > 0 { // a free start takes no money and writes no payment row
		pay, err := tx.Payment.Create().SetMemberID(co.MemberID).SetPassID(p.ID).
			SetAmountMinor(co.AmountMinor).SetCurrency(co.Currency).
			SetStatus(payment.StatusSucceeded).SetKind(payment.KindPassPurchase).
			SetPaidAt(now).SetProcessorPaymentID(intentID).SetMethod(activationMethod(ctx)).Save(ctx)
		if err != nil {
			return nil, err
		}
		if _, err := events.Record(ctx, tx.Client(), EventPaymentSucceeded, map[string]any{
			"payment_id": pay.ID.String(), "checkout_id": co.ID.String(), "member_id": co.MemberID.String(),
			"payment_intent_id": intentID, "amount_minor": co.AmountMinor, "currency": co.Currency,
			"vat_minor": co.VatMinor,
		}); err != nil {
			return nil, err
		}
	}
	if _, err := events.Record(ctx, tx.Client(), EventPassActivated, map[string]any{
		"pass_id": p.ID.String(), "pass_type_id": pt.ID.String(), "member_id": co.MemberID.String(),
		"checkout_id": co.ID.String(), "status": string(p.Status),
	}); err != nil {
		return nil, err
	}
	if pt.IsRecurring && co.AmountMinor > 0 && activationMethod(ctx) == payment.MethodCard {
		if err := runRecurringHooks(ctx, tx, p, co); err != nil {
			return nil, err
		}
	}
	return co, nil
}

// firstPeriodEnd is the last day paid by a membership's first payment:
// one billing period (interval x count) from today. Renewals are not charged
// here: they come with the renewals (Stripe subscriptions).
func firstPeriodEnd(pt *ent.PassType, today time.Time) (time.Time, bool) {
	if !pt.IsRecurring || pt.BillingInterval == nil {
		return time.Time{}, false
	}
	n := 1
	if pt.BillingIntervalCount != nil {
		n = *pt.BillingIntervalCount
	}
	switch *pt.BillingInterval {
	case passtype.BillingIntervalDay:
		return today.AddDate(0, 0, n), true
	case passtype.BillingIntervalWeek:
		return today.AddDate(0, 0, 7*n), true
	case passtype.BillingIntervalMonth:
		return today.AddDate(0, n, 0), true
	case passtype.BillingIntervalYear:
		return today.AddDate(n, 0, 0), true
	}
	return time.Time{}, false
}

func ptrTime(t time.Time) *time.Time { return &t }

// Outbound event types of payments (package events catalogue).
const (
	EventPaymentSucceeded = events.PaymentSucceeded
	EventPaymentFailed    = events.PaymentFailed
	EventPassActivated    = events.PassActivated
)
