package stripetest

import "time"

// CancelAt is the cancel_at of subscription id (zero when unset or unknown)
// and whether the subscription has ended.
func (f *Fake) CancelAt(id string) (at time.Time, ended bool) {
	f.mu.Lock()
	defer f.mu.Unlock()
	s := f.billing().subs[id]
	if s == nil {
		return time.Time{}, false
	}
	return s.cancelAt, s.canceled
}

// WithdrawCancel removes the cancel_at of subscription id, as staff would
// in Stripe's dashboard (the membership renews again), and returns the
// customer.subscription.updated event Stripe would post.
func (f *Fake) WithdrawCancel(id string) SignedEvent {
	f.mu.Lock()
	defer f.mu.Unlock()
	s := f.billing().subs[id]
	s.cancelAt = time.Time{}
	s.obj["cancel_at"] = nil
	return f.event("customer.subscription.updated", s.account, s.obj)
}
