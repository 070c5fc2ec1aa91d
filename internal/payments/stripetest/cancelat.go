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
