package billing

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/venueplatform/venue/ent"
	"github.com/venueplatform/venue/ent/paymentattempt"
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

// scheduleFlexible sets the phases of the subscription of flexible
// membership p for its scheduled change, under a subscription_update
// attempt (the processor object is the schedule), and makes our
// subscription row's amount what the next renewal charges.
func (s *Service) scheduleFlexible(ctx context.Context, p *ent.Pass, sub *ent.Subscription) error {
	ch := p.FlexibleChange
	vp, err := s.pay.Chargeable(ctx)
	if err != nil {
		return err
	}
	pt, err := s.client.PassType.Get(ctx, p.PassTypeID)
	if err != nil {
		return err
	}
	terms, err := termsOf(ctx, s.client, p, pt)
	if err != nil {
		return err
	}
	cur, err := s.port.GetSubscription(ctx, *vp.AccountID, *sub.ProcessorSubscriptionID)
	if err != nil {
		return fmt.Errorf("billing: flexible schedule: %w", err)
	}
	now := s.now()
	phases, changeAt := flexPhases(now, cur, sub, &changeOf{effectiveOn: ch.EffectiveOn, priceMinor: ch.PriceMinor}, terms)
	prev, err := s.client.PaymentAttempt.Query().Where(paymentattempt.SubjectID(sub.ID),
		paymentattempt.PurposeEQ(paymentattempt.PurposeSubscriptionUpdate), paymentattempt.StateEQ(paymentattempt.StateSucceeded),
		paymentattempt.ProcessorObjectIDHasPrefix("sub_sched_")).Order(ent.Desc(paymentattempt.FieldNumber)).First(ctx)
	if err != nil && !ent.IsNotFound(err) {
		return err
	}
	schedule := ""
	if prev != nil {
		schedule = *prev.ProcessorObjectID
	}
	at, err := s.updateAttempt(ctx, sub)
	if err != nil {
		return err
	}
	params := stripeport.PhasesParams{Account: *vp.AccountID, Subscription: *sub.ProcessorSubscriptionID, Schedule: schedule,
		IdempotencyKey: payments.IdempotencyKey(string(at.Purpose), at.ID.String(), "flexible_phases"),
		Product:        cur.Product, Currency: sub.Currency, Interval: string(sub.Interval), IntervalCount: sub.IntervalCount,
		Phases: phases}
	if cur.TrialEnd.After(now) {
		params.TrialEnd = cur.TrialEnd // the first period is paid: no invoice before it ends
	}
	out, err := s.port.SchedulePhases(ctx, params)
	if err != nil {
		st := paymentattempt.StateFailed
		if errors.Is(err, stripeport.ErrUnknownOutcome) {
			st = paymentattempt.StateUnknown // the reconcile frees the slot; the job's retry sets the phases again
		}
		_ = s.client.PaymentAttempt.UpdateOne(at).SetState(st).SetFailureCode("processor_refused").ClearLiveSubjectID().Exec(ctx)
		return fmt.Errorf("billing: flexible schedule: %w", err)
	}
	next := phases[0].AmountMinor
	if !cur.CurrentPeriodEnd.Before(changeAt) {
		next = ch.PriceMinor
	}
	if err := s.client.Subscription.UpdateOneID(sub.ID).SetAmountMinor(next).Exec(ctx); err != nil {
		return err
	}
	return s.client.PaymentAttempt.UpdateOne(at).SetState(paymentattempt.StateSucceeded).
		SetProcessorObjectID(out.ID).ClearLiveSubjectID().Exec(ctx)
}
