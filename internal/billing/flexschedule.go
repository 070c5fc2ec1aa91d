package billing

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/google/uuid"

	"github.com/venueplatform/venue/ent"
	"github.com/venueplatform/venue/ent/paymentattempt"
	"github.com/venueplatform/venue/ent/ratelock"
	"github.com/venueplatform/venue/internal/payments"
	"github.com/venueplatform/venue/internal/payments/stripeport"
)

// A scheduled flexible change reaches Stripe as a phase of the
// subscription's schedule that starts at the change's renewal: the
// renewals before it charge the price they charge now (or a binding's
// phases), the change's renewal and those after it the change's price. The
// schedule is set again after every renewal (the price job), so the phases
// always start from the current period; a binding's schedule made at the
// start is the one updated.

// flexPhases are the phases of sub's price with p's scheduled change ch:
// cur is the subscription read from Stripe now.
func flexPhases(now time.Time, cur *stripeport.Subscription, sub *ent.Subscription, ch *changeOf, terms *scheduleTerms) (phases []stripeport.Phase, changeAt time.Time) {
	changeAt = cur.CurrentPeriodEnd.UTC()
	for i := 0; i < 240 && changeAt.Format(time.DateOnly) < ch.effectiveOn; i++ {
		changeAt = addPeriod(changeAt, string(sub.Interval), sub.IntervalCount)
	}
	price := func(start time.Time) int64 {
		switch {
		case !start.Before(changeAt):
			return ch.priceMinor
		case terms != nil && start.Before(terms.FirstEnd):
			return terms.FirstMinor
		case terms != nil:
			return terms.ThenMinor
		}
		return cur.AmountMinor
	}
	bps := []time.Time{}
	if terms != nil && terms.FirstEnd.After(now) && terms.FirstEnd.Before(changeAt) {
		bps = append(bps, terms.FirstEnd)
	}
	bps = append(bps, changeAt)
	start := now
	for _, bp := range bps {
		phases = append(phases, stripeport.Phase{AmountMinor: price(start), End: bp})
		start = bp
	}
	phases = append(phases, stripeport.Phase{AmountMinor: price(changeAt)})
	return phases, changeAt
}

// changeOf is the part of a scheduled flexible change the phases need.
type changeOf struct {
	effectiveOn string
	priceMinor  int64
}

// phasePlan is a subscription's schedule as our rows say it should be:
// the phases (Stripe's params without the key) and what the next renewal
// charges.
type phasePlan struct {
	params stripeport.PhasesParams
	next   int64
}

// planPhases reads the subscription of pass p at Stripe and plans its
// schedule: a binding's or intro's phases, the scheduled flexible change
// (or Move to Flexible) from its renewal, and, with lock set, the locked
// price in every phase (a rate lock holds all of them until it ends).
// schedule is the schedule made before ("" without one).
func (s *Service) planPhases(ctx context.Context, c *ent.Client, p *ent.Pass, sub *ent.Subscription, lock *int64) (*phasePlan, error) {
	vp, err := s.pay.Chargeable(ctx)
	if err != nil {
		return nil, err
	}
	pt, err := c.PassType.Get(ctx, p.PassTypeID)
	if err != nil {
		return nil, err
	}
	terms, err := priceTerms(ctx, c, p, pt)
	if err != nil {
		return nil, err
	}
	cur, err := s.port.GetSubscription(ctx, *vp.AccountID, *sub.ProcessorSubscriptionID)
	if err != nil {
		return nil, fmt.Errorf("billing: schedule phases: %w", err)
	}
	now := s.now()
	var phases []stripeport.Phase
	next := cur.AmountMinor
	switch ch := p.FlexibleChange; {
	case ch != nil:
		var changeAt time.Time
		phases, changeAt = flexPhases(now, cur, sub, &changeOf{effectiveOn: ch.EffectiveOn, priceMinor: ch.PriceMinor}, terms)
		next = phases[0].AmountMinor
		if !cur.CurrentPeriodEnd.Before(changeAt) {
			next = ch.PriceMinor
		}
	case terms != nil && terms.FirstEnd.After(now):
		phases = []stripeport.Phase{{AmountMinor: terms.FirstMinor, End: terms.FirstEnd}, {AmountMinor: terms.ThenMinor}}
		next = terms.ThenMinor
		if cur.CurrentPeriodEnd.Before(terms.FirstEnd) {
			next = terms.FirstMinor
		}
	case terms != nil:
		phases = []stripeport.Phase{{AmountMinor: terms.ThenMinor}}
		next = terms.ThenMinor
	default:
		phases = []stripeport.Phase{{AmountMinor: cur.AmountMinor}}
	}
	if lock != nil {
		for i := range phases {
			phases[i].AmountMinor = *lock
		}
		next = *lock
	}
	schedule, err := lastSchedule(ctx, c, sub)
	if err != nil {
		return nil, err
	}
	params := stripeport.PhasesParams{Account: *vp.AccountID, Subscription: *sub.ProcessorSubscriptionID, Schedule: schedule,
		Product: cur.Product, Currency: sub.Currency, Interval: string(sub.Interval), IntervalCount: sub.IntervalCount,
		Phases: phases}
	if cur.TrialEnd.After(now) {
		params.TrialEnd = cur.TrialEnd // the first period is paid: no invoice before it ends
	}
	return &phasePlan{params: params, next: next}, nil
}

// lastSchedule is the schedule a succeeded update of sub made last ("").
func lastSchedule(ctx context.Context, c *ent.Client, sub *ent.Subscription) (string, error) {
	prev, err := c.PaymentAttempt.Query().Where(paymentattempt.SubjectID(sub.ID),
		paymentattempt.PurposeEQ(paymentattempt.PurposeSubscriptionUpdate), paymentattempt.StateEQ(paymentattempt.StateSucceeded),
		paymentattempt.ProcessorObjectIDHasPrefix("sub_sched_")).Order(ent.Desc(paymentattempt.FieldNumber)).First(ctx)
	if ent.IsNotFound(err) {
		return "", nil
	}
	if err != nil {
		return "", err
	}
	return *prev.ProcessorObjectID, nil
}

// appliedLock is the locked amount of pass id's active rate lock that
// holds its price (nil without one).
func appliedLock(ctx context.Context, c *ent.Client, id uuid.UUID) (*int64, error) {
	lk, err := c.RateLock.Query().Where(ratelock.PassID(id), ratelock.StatusEQ(ratelock.StatusActive),
		ratelock.Applied(true)).First(ctx)
	if ent.IsNotFound(err) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	return &lk.AmountMinor, nil
}

// scheduleFlexible sets the phases of the subscription of flexible
// membership p for its scheduled change, under a subscription_update
// attempt (the processor object is the schedule), and makes our
// subscription row's amount what the next renewal charges.
func (s *Service) scheduleFlexible(ctx context.Context, p *ent.Pass, sub *ent.Subscription) error {
	lock, err := appliedLock(ctx, s.client, p.ID)
	if err != nil {
		return err
	}
	plan, err := s.planPhases(ctx, s.client, p, sub, lock)
	if err != nil {
		return err
	}
	at, err := s.updateAttempt(ctx, sub)
	if err != nil {
		return err
	}
	plan.params.IdempotencyKey = payments.IdempotencyKey(string(at.Purpose), at.ID.String(), "flexible_phases")
	out, err := s.port.SchedulePhases(ctx, plan.params)
	if err != nil {
		st := paymentattempt.StateFailed
		if errors.Is(err, stripeport.ErrUnknownOutcome) {
			st = paymentattempt.StateUnknown // the reconcile frees the slot; the job's retry sets the phases again
		}
		_ = s.client.PaymentAttempt.UpdateOne(at).SetState(st).SetFailureCode("processor_refused").ClearLiveSubjectID().Exec(ctx)
		return fmt.Errorf("billing: flexible schedule: %w", err)
	}
	if err := s.client.Subscription.UpdateOneID(sub.ID).SetAmountMinor(plan.next).Exec(ctx); err != nil {
		return err
	}
	return s.client.PaymentAttempt.UpdateOne(at).SetState(paymentattempt.StateSucceeded).
		SetProcessorObjectID(out.ID).ClearLiveSubjectID().Exec(ctx)
}
