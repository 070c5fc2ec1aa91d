package stripeport

import (
	"context"
	"strings"
	"time"

	"github.com/stripe/stripe-go/v79"
)

// Phase is one price of a schedule: each period starting before End costs
// AmountMinor (the last phase's End is zero: it goes on).
type Phase struct {
	AmountMinor int64
	End         time.Time
}

// PhasesParams give a subscription's schedule its phases from now on: the
// schedule named (its current phase keeps its start) or, when none is live,
// one made from the subscription. TrialEnd, when set, is the end of a
// period already paid (a subscription still in its first, prepaid period).
type PhasesParams struct {
	Account, IdempotencyKey string
	Subscription, Schedule  string
	Product, Currency       string
	Interval                string
	IntervalCount           int
	TrialEnd                time.Time
	Phases                  []Phase
}

// PhaseScheduler sets the phases of a subscription's price (flexible
// changes at a renewal, composed with a binding's phases).
type PhaseScheduler interface {
	SchedulePhases(ctx context.Context, p PhasesParams) (*Schedule, error)
}

func (s *stripePort) SchedulePhases(ctx context.Context, p PhasesParams) (*Schedule, error) {
	var sched *stripe.SubscriptionSchedule
	if p.Schedule != "" {
		gp := &stripe.SubscriptionScheduleParams{}
		gp.Context = ctx
		gp.SetStripeAccount(p.Account)
		got, err := s.api.SubscriptionSchedules.Get(p.Schedule, gp)
		if err != nil {
			return nil, classify(err)
		}
		if got.Status == stripe.SubscriptionScheduleStatusActive || got.Status == stripe.SubscriptionScheduleStatusNotStarted {
			sched = got
		}
	}
	if sched == nil {
		cp := &stripe.SubscriptionScheduleParams{FromSubscription: stripe.String(p.Subscription)}
		cp.Context = ctx
		cp.SetStripeAccount(p.Account)
		cp.SetIdempotencyKey(p.IdempotencyKey + ":create")
		made, err := s.api.SubscriptionSchedules.New(cp)
		if err != nil {
			return nil, classify(err)
		}
		sched = made
	}
	// The current phase keeps its start (Stripe refuses to move it).
	var start int64
	if sched.CurrentPhase != nil {
		start = sched.CurrentPhase.StartDate
	} else if len(sched.Phases) > 0 && sched.Phases[0] != nil {
		start = sched.Phases[0].StartDate
	}
	item := func(amount int64) []*stripe.SubscriptionSchedulePhaseItemParams {
		return []*stripe.SubscriptionSchedulePhaseItemParams{{Quantity: stripe.Int64(1), PriceData: &stripe.SubscriptionItemPriceDataParams{
			Currency: stripe.String(strings.ToLower(p.Currency)), Product: stripe.String(p.Product),
			UnitAmount: stripe.Int64(amount),
			Recurring: &stripe.SubscriptionItemPriceDataRecurringParams{
				Interval: stripe.String(p.Interval), IntervalCount: stripe.Int64(int64(p.IntervalCount))},
		}}}
	}
	phases := make([]*stripe.SubscriptionSchedulePhaseParams, 0, len(p.Phases))
	for i, ph := range p.Phases {
		pp := &stripe.SubscriptionSchedulePhaseParams{Items: item(ph.AmountMinor), ProrationBehavior: stripe.String("none")}
		if ph.End.IsZero() || i == len(p.Phases)-1 {
			pp.Iterations = stripe.Int64(1)
		} else {
			pp.EndDate = stripe.Int64(ph.End.Unix())
		}
		if i == 0 {
			if start != 0 {
				pp.StartDate = stripe.Int64(start)
			}
			if !p.TrialEnd.IsZero() {
				pp.TrialEnd = stripe.Int64(p.TrialEnd.Unix())
			}
		}
		phases = append(phases, pp)
	}
	up := &stripe.SubscriptionScheduleParams{EndBehavior: stripe.String("release"), Phases: phases}
	up.Context = ctx
	up.SetStripeAccount(p.Account)
	up.SetIdempotencyKey(p.IdempotencyKey + ":phases")
	sched, err := s.api.SubscriptionSchedules.Update(sched.ID, up)
	if err != nil {
		return nil, classify(err)
	}
	out := &Schedule{ID: sched.ID, Status: string(sched.Status)}
	if sched.Subscription != nil {
		out.Subscription = sched.Subscription.ID
	}
	for _, ph := range sched.Phases {
		if ph != nil {
			out.PhaseEnds = append(out.PhaseEnds, unixTime(ph.EndDate))
		}
	}
	return out, nil
}
