package stripetest

import "net/http"

// schedFaults scripts the answers to schedule phase writes (POST
// /v1/subscription_schedules/{id}).
type schedFaults struct {
	fail500, refuse int
	// writes counts the phase writes answered 200 (replays included).
	writes int
}

// FailScheduleWrites scripts the next writes of a schedule's phases: the
// first fail500 are answered 500 before anything happens (stripe-go retries
// one with the same key, so two make an unknown outcome), the next refuse
// are refused (400, nothing changed).
func (f *Fake) FailScheduleWrites(fail500, refuse int) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.schedFaults.fail500, f.schedFaults.refuse = fail500, refuse
}

// ScheduleWrites counts the phase writes answered 200.
func (f *Fake) ScheduleWrites() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.schedFaults.writes
}

// schedWriteBefore answers a scripted 500 or refusal; true means the
// request is answered. Otherwise the write counts.
func (f *Fake) schedWriteBefore(w http.ResponseWriter) bool {
	f.mu.Lock()
	switch {
	case f.schedFaults.fail500 > 0:
		f.schedFaults.fail500--
		f.mu.Unlock()
		writeRaw(w, 500, []byte(`{"error":{"type":"api_error","message":"an error occurred"}}`))
		return true
	case f.schedFaults.refuse > 0:
		f.schedFaults.refuse--
		f.mu.Unlock()
		refused(w)
		return true
	}
	f.schedFaults.writes++
	f.mu.Unlock()
	return false
}
