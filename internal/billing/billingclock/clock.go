// Package billingclock moves a venue's billing clock against the fake Stripe
// (package stripetest), so tests and the bench can watch months of renewals,
// declines and recoveries in seconds: the fake invoices and charges every
// subscription whose period ends by the new time (and retries declined
// invoices, as Stripe's automatic retries would), and the clock delivers the
// signed events it made through the real inbound path (verified, recorded
// once by id, processed by the event job's function).
package billingclock

import (
	"context"
	"fmt"
	"math/rand/v2"
	"time"

	"github.com/venueplatform/venue/internal/payments"
	"github.com/venueplatform/venue/internal/payments/stripetest"
)

// Clock is a billing clock over a fake Stripe and the payments service that
// receives its events.
type Clock struct {
	Fake *stripetest.Fake
	Pay  *payments.Service
	// Now is the clock's time; Advance moves it. The payments service's
	// Config.Now should read it (the billing domain dates failures by it).
	Now time.Time
	// Shuffle delivers each step's events in a random order, each twice
	// (Stripe's at-least-once, any-order delivery); nil delivers them once,
	// in order.
	Shuffle *rand.Rand
}

// Stats counts what an Advance delivered.
type Stats struct {
	Events, Duplicates int
}

// Advance moves the clock to to and delivers every event the fake made.
func (c *Clock) Advance(ctx context.Context, to time.Time) (Stats, error) {
	var st Stats
	c.Now = to
	evs := c.Fake.Advance(to)
	evs = append(evs, c.Fake.TakeEvents()...)
	return st, c.deliver(ctx, evs, &st)
}

// Deliver delivers events made outside Advance (an invoice paid on request).
func (c *Clock) Deliver(ctx context.Context) (Stats, error) {
	var st Stats
	return st, c.deliver(ctx, c.Fake.TakeEvents(), &st)
}

// Post delivers events the caller holds (taken from the fake directly), in
// the order given: a test of disorder reverses them.
func (c *Clock) Post(ctx context.Context, evs []stripetest.SignedEvent) (Stats, error) {
	var st Stats
	return st, c.deliver(ctx, evs, &st)
}

func (c *Clock) deliver(ctx context.Context, evs []stripetest.SignedEvent, st *Stats) error {
	order := evs
	if c.Shuffle != nil {
		order = append(append([]stripetest.SignedEvent(nil), evs...), evs...)
		c.Shuffle.Shuffle(len(order), func(i, j int) { order[i], order[j] = order[j], order[i] })
	}
	for _, ev := range order {
		fresh, err := c.Pay.Receive(ctx, ev.Body, ev.Signature)
		if err != nil {
			return fmt.Errorf("billingclock: receive %s: %w", ev.ID, err)
		}
		if !fresh {
			st.Duplicates++
		} else {
			st.Events++
		}
		id, err := c.Pay.EventID(ctx, ev.ID)
		if err != nil {
			return fmt.Errorf("billingclock: event %s: %w", ev.ID, err)
		}
		if err := c.Pay.ProcessEvent(ctx, id); err != nil {
			return fmt.Errorf("billingclock: process %s %s: %w", ev.Type, ev.ID, err)
		}
	}
	return nil
}
