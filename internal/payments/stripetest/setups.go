package stripetest

// SetSubscriptionStatus sets a subscription's status as Stripe reports it
// (a membership setup whose first payment never came: incomplete_expired).
func (f *Fake) SetSubscriptionStatus(id, status string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if s := f.billing().subs[id]; s != nil {
		s.obj["status"] = status
	}
}

// FailSubscriptionReads makes reads of subscription id fail with a
// processor error while on (Stripe's state cannot be learned).
func (f *Fake) FailSubscriptionReads(id string, on bool) {
	f.mu.Lock()
	defer f.mu.Unlock()
	b := f.billing()
	if b.unreadable == nil {
		b.unreadable = map[string]bool{}
	}
	b.unreadable[id] = on
}
