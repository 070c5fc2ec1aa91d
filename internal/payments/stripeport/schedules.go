package stripeport

import (
	"context"
	"strings"
	"time"

	"github.com/stripe/stripe-go/v79"
)

// Schedules gives a membership's subscription a subscription schedule: the
// phases of its price (an intro or binding price, then the normal price).
type Schedules interface {
	// ScheduleSubscription makes a schedule from a subscription and sets
	// its phases; the subscription goes on renewing by itself (released)
	// once the last phase starts.
	ScheduleSubscription(ctx context.Context, p ScheduleParams) (*Schedule, error)
	ScheduleReleaser
}

// ScheduleParams are the two phases of a subscription: First through
// FirstEnd, then Then from FirstEnd on.
type ScheduleParams struct {
	Account, IdempotencyKey string
	Subscription            string
	Product, Currency       string
	Interval                string
	IntervalCount           int
	// FirstAmountMinor is each period's price until FirstEnd; TrialEnd,
	// when set, is the end of the period already paid (no invoice before).
	FirstAmountMinor int64
	FirstEnd         time.Time
	TrialEnd         time.Time
	// ThenAmountMinor is each period's price from FirstEnd.
	ThenAmountMinor int64
}

// Schedule is what the domain reads of a subscription schedule.
type Schedule struct {
	ID           string
	Subscription string
	Status       string
	// PhaseEnds are the phases' end times, in order.
	PhaseEnds []time.Time
}

func (s *stripePort) ScheduleSubscription(ctx context.Context, p ScheduleParams) (*Schedule, error) {
	cp := &stripe.SubscriptionScheduleParams{FromSubscription: stripe.String(p.Subscription)}
	cp.Context = ctx
	cp.SetStripeAccount(p.Account)
	cp.SetIdempotencyKey(p.IdempotencyKey + ":create")
	sched, err := s.api.SubscriptionSchedules.New(cp)
	if err != nil {
		return nil, classify(err)
	}
	// The current phase keeps its start (Stripe refuses to move it).
	var start int64
	if len(sched.Phases) > 0 && sched.Phases[0] != nil {
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
	first := &stripe.SubscriptionSchedulePhaseParams{Items: item(p.FirstAmountMinor),
		EndDate: stripe.Int64(p.FirstEnd.Unix()), ProrationBehavior: stripe.String("none")}
	if start != 0 {
		first.StartDate = stripe.Int64(start)
	}
	if !p.TrialEnd.IsZero() {
		first.TrialEnd = stripe.Int64(p.TrialEnd.Unix())
	}
	up := &stripe.SubscriptionScheduleParams{EndBehavior: stripe.String("release"),
		Phases: []*stripe.SubscriptionSchedulePhaseParams{first, {Items: item(p.ThenAmountMinor),
			Iterations: stripe.Int64(1), ProrationBehavior: stripe.String("none")}}}
	up.Context = ctx
	up.SetStripeAccount(p.Account)
	up.SetIdempotencyKey(p.IdempotencyKey + ":phases")
	sched, err = s.api.SubscriptionSchedules.Update(sched.ID, up)
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

// ScheduleReleaser lets a subscription go from its schedule: it renews by
// itself at its current price (needed before it can be cancelled).
type ScheduleReleaser interface {
	ReleaseSchedule(ctx context.Context, account, key, id string) error
}

func (s *stripePort) ReleaseSchedule(ctx context.Context, account, key, id string) error {
	params := &stripe.SubscriptionScheduleReleaseParams{}
	params.Context = ctx
	params.SetStripeAccount(account)
	params.SetIdempotencyKey(key)
	if _, err := s.api.SubscriptionSchedules.Release(id, params); err != nil {
		return classify(err)
	}
	return nil
}
