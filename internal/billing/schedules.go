package billing

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/venueplatform/venue/ent"
	"github.com/venueplatform/venue/ent/checkout"
	"github.com/venueplatform/venue/ent/paymentattempt"
	"github.com/venueplatform/venue/internal/model"
	"github.com/venueplatform/venue/internal/payments"
	"github.com/venueplatform/venue/internal/payments/stripeport"
)

// Intro prices and binding months renew through a Stripe subscription
// schedule made from the membership's subscription: a first phase (the
// binding tier's price through the end of the binding, or the intro period
// the first payment paid) and then the pass type's normal price, after
// which the schedule releases the subscription to renew by itself.

// scheduleTerms are the two phases of a membership's price.
type scheduleTerms struct {
	// FirstMinor is each period's price until FirstEnd (the binding tier's;
	// the normal price through an intro period, which is paid already).
	FirstMinor int64
	FirstEnd   time.Time
	// ThenMinor is each period's price from FirstEnd on.
	ThenMinor int64
	// BindingEndsOn is the day the binding ends (nil without one).
	BindingEndsOn *time.Time
}

// termsOf reads the phases of pass p of pass type pt from the checkout that
// sold it; nil when it was sold without an intro price or binding tier (or
// not online).
func termsOf(ctx context.Context, client *ent.Client, p *ent.Pass, pt *ent.PassType) (*scheduleTerms, error) {
	if p.ValidTo == nil || pt.BillingInterval == nil {
		return nil, nil
	}
	co, err := client.Checkout.Query().Where(checkout.PassID(p.ID), checkout.StatusEQ(checkout.StatusPaid)).
		Order(ent.Asc(checkout.FieldCreatedAt)).First(ctx)
	if ent.IsNotFound(err) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("billing: schedule terms: %w", err)
	}
	normal := payments.PeriodPrice(p, pt)
	switch {
	case co.BindingMonths != nil && *co.BindingMonths > 0:
		price := co.AmountMinor + co.CreditAppliedMinor // what the tier sold at, if the tier is gone since
		if i := slices.IndexFunc(pt.BindingTiers, func(t model.BindingTier) bool { return t.Months == *co.BindingMonths }); i >= 0 {
			price = pt.BindingTiers[i].PriceMinor
		}
		org, err := client.Organization.Query().Only(ctx)
		if err != nil {
			return nil, fmt.Errorf("billing: schedule terms: %w", err)
		}
		loc, err := time.LoadLocation(org.Timezone)
		if err != nil {
			loc = time.UTC
		}
		sold := co.CreatedAt
		if co.ActivatedAt != nil {
			sold = *co.ActivatedAt
		}
		end := bindingEnd(dateOf(sold.In(loc)), pt, *co.BindingMonths)
		return &scheduleTerms{FirstMinor: price, FirstEnd: end, ThenMinor: normal, BindingEndsOn: &end}, nil
	case co.IntroThrough != nil:
		return &scheduleTerms{FirstMinor: normal, FirstEnd: *co.IntroThrough, ThenMinor: normal}, nil
	}
	return nil, nil
}

// bindingEnd is the day a binding of months sold on the venue-local day
// sold ends: the first renewal on or after the day months later (as the
// purchase obligation's commitment_ends_on counts it).
func bindingEnd(sold time.Time, pt *ent.PassType, months int) time.Time {
	bind := sold.AddDate(0, months, 0)
	n := 1
	if pt.BillingIntervalCount != nil {
		n = *pt.BillingIntervalCount
	}
	d := addPeriod(sold, string(*pt.BillingInterval), n)
	for d.Before(bind) {
		next := addPeriod(d, string(*pt.BillingInterval), n)
		if !next.After(d) {
			break
		}
		d = next
	}
	if d.Before(bind) {
		d = bind
	}
	return d
}

func addPeriod(t time.Time, interval string, n int) time.Time {
	switch interval {
	case "day":
		return t.AddDate(0, 0, n)
	case "week":
		return t.AddDate(0, 0, 7*n)
	case "year":
		return t.AddDate(n, 0, 0)
	}
	return t.AddDate(0, n, 0)
}

// ensureSchedule gives the started subscription sub of pass p its schedule
// when the pass was sold with an intro price or a binding tier; done once
// (a succeeded attempt names the schedule). The Stripe calls carry a key of
// the subscription row, so a retry after an unknown outcome replays them.
func (s *Service) ensureSchedule(ctx context.Context, vp *ent.VenuePayments, sub *ent.Subscription, p *ent.Pass, pt *ent.PassType) error {
	if sub.ProcessorSubscriptionID == nil || sub.CanceledAt != nil {
		return nil
	}
	t, err := termsOf(ctx, s.client, p, pt)
	if t == nil || err != nil {
		return err
	}
	done, err := s.client.PaymentAttempt.Query().Where(paymentattempt.SubjectID(sub.ID),
		paymentattempt.PurposeEQ(paymentattempt.PurposeSubscriptionUpdate), paymentattempt.StateEQ(paymentattempt.StateSucceeded),
		paymentattempt.ProcessorObjectIDHasPrefix("sub_sched_")).Exist(ctx)
	if done || err != nil {
		return err
	}
	cur, err := s.port.GetSubscription(ctx, *vp.AccountID, *sub.ProcessorSubscriptionID)
	if err != nil {
		return fmt.Errorf("billing: schedule: %w", err)
	}
	at, err := s.updateAttempt(ctx, sub)
	if err != nil {
		return err
	}
	out, err := s.port.ScheduleSubscription(ctx, stripeport.ScheduleParams{Account: *vp.AccountID,
		IdempotencyKey: payments.IdempotencyKey("subscription_schedule", sub.ID.String(), "schedule"),
		Subscription:   *sub.ProcessorSubscriptionID, Product: cur.Product, Currency: sub.Currency,
		Interval: string(sub.Interval), IntervalCount: sub.IntervalCount,
		FirstAmountMinor: t.FirstMinor, FirstEnd: t.FirstEnd, TrialEnd: *p.ValidTo, ThenAmountMinor: t.ThenMinor})
	if err != nil {
		st := paymentattempt.StateFailed
		if errors.Is(err, stripeport.ErrUnknownOutcome) {
			st = paymentattempt.StateUnknown // the job's retry replays the same keys
		}
		_ = s.client.PaymentAttempt.UpdateOne(at).SetState(st).SetFailureCode("processor_refused").ClearLiveSubjectID().Exec(ctx)
		return fmt.Errorf("billing: schedule: %w", err)
	}
	return s.client.PaymentAttempt.UpdateOne(at).SetState(paymentattempt.StateSucceeded).
		SetProcessorObjectID(out.ID).ClearLiveSubjectID().Exec(ctx)
}

// scheduleAfterRenewal runs in the transaction that settled a renewal
// invoice of sub: the subscription row's amount follows the schedule (the
// price of the period after the one paid).
func (s *Service) scheduleAfterRenewal(ctx context.Context, tx *ent.Tx, sub *ent.Subscription, row *ent.Invoice) error {
	if row.PeriodEnd == nil {
		return nil
	}
	p, err := tx.Pass.Get(ctx, sub.PassID)
	if err != nil {
		return err
	}
	pt, err := tx.PassType.Get(ctx, p.PassTypeID)
	if err != nil {
		return err
	}
	t, err := priceTerms(ctx, tx.Client(), p, pt)
	if t == nil || err != nil {
		return err
	}
	if lock, err := appliedLock(ctx, tx.Client(), p.ID); lock != nil || err != nil {
		return err // the lock holds every phase's price (flexschedule.go)
	}
	next := t.ThenMinor
	if row.PeriodEnd.Before(t.FirstEnd) {
		next = t.FirstMinor
	}
	if next == sub.AmountMinor {
		return nil
	}
	return tx.Subscription.UpdateOneID(sub.ID).SetAmountMinor(next).Exec(ctx)
}
