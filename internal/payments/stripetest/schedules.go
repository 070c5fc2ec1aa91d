package stripetest

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// Subscription schedules in the fake: a schedule made from a subscription
// holds the phases of its price; each renewal is invoiced at the price of
// the phase its period starts in (the last phase goes on after its start,
// as a released subscription does).

// fakePhase is one phase of a schedule: its price until end (zero: open).
type fakePhase struct {
	amount int64
	end    time.Time
}

// phaseAmount is what the period of s starting at start costs under its
// schedule; false when s has none (f.mu held).
func (s *fakeSub) phaseAmount(start time.Time) (int64, bool) {
	if len(s.phases) == 0 {
		return 0, false
	}
	for _, ph := range s.phases {
		if ph.end.IsZero() || start.Before(ph.end) {
			return ph.amount, true
		}
	}
	return s.phases[len(s.phases)-1].amount, true
}

// applyPhase gives s the price of the phase its next period starts in
// (f.mu held).
func (s *fakeSub) applyPhase(start time.Time) {
	if a, ok := s.phaseAmount(start); ok && a != s.amount {
		s.amount = a
		s.obj["items"] = items(s)
	}
}

// ScheduleOf returns the schedule id of a subscription ("" without one) and
// its phases' prices.
func (f *Fake) ScheduleOf(sub string) (string, []int64) {
	f.mu.Lock()
	defer f.mu.Unlock()
	s := f.billing().subs[sub]
	if s == nil {
		return "", nil
	}
	var out []int64
	for _, ph := range s.phases {
		out = append(out, ph.amount)
	}
	return s.schedule, out
}

// serveSchedules answers /v1/subscription_schedules; false means another
// endpoint.
func (f *Fake) serveSchedules(w http.ResponseWriter, r *http.Request, key string) bool {
	if r.Method != http.MethodPost || !strings.HasPrefix(r.URL.Path, "/v1/subscription_schedules") {
		return false
	}
	if r.URL.Path == "/v1/subscription_schedules" {
		f.mu.Lock()
		raw, ok := f.stored[key]
		if !ok || key == "" {
			s := f.billing().subs[r.PostForm.Get("from_subscription")]
			if s == nil {
				f.mu.Unlock()
				notFound(w)
				return true
			}
			if s.schedule == "" {
				f.seq++
				s.schedule = fmt.Sprintf("sub_sched_fake%d", f.seq)
				s.obj["schedule"] = s.schedule
			}
			raw, _ = json.Marshal(scheduleObject(s))
			f.stored[key] = raw
		}
		f.mu.Unlock()
		writeRaw(w, 200, raw)
		return true
	}
	id := strings.TrimPrefix(r.URL.Path, "/v1/subscription_schedules/")
	if rel, ok := strings.CutSuffix(id, "/release"); ok {
		f.mu.Lock()
		raw, ok := f.stored[key]
		if !ok || key == "" {
			obj := f.releaseSchedule(rel)
			if obj == nil {
				f.mu.Unlock()
				notFound(w)
				return true
			}
			raw, _ = json.Marshal(obj)
			f.stored[key] = raw
		}
		f.mu.Unlock()
		writeRaw(w, 200, raw)
		return true
	}
	if f.schedWriteBefore(w) { // schedfaults.go
		return true
	}
	f.mu.Lock()
	raw, ok := f.stored[key]
	if !ok || key == "" {
		var s *fakeSub
		for _, c := range f.billing().subs {
			if c.schedule == id {
				s = c
			}
		}
		if s == nil {
			f.mu.Unlock()
			notFound(w)
			return true
		}
		var phases []fakePhase
		for i := 0; ; i++ {
			p := fmt.Sprintf("phases[%d]", i)
			v := r.PostForm.Get(p + "[items][0][price_data][unit_amount]")
			if v == "" {
				break
			}
			ph := fakePhase{}
			ph.amount, _ = strconv.ParseInt(v, 10, 64)
			if e := r.PostForm.Get(p + "[end_date]"); e != "" {
				sec, _ := strconv.ParseInt(e, 10, 64)
				ph.end = time.Unix(sec, 0).UTC()
			}
			if te := r.PostForm.Get(p + "[trial_end]"); te != "" {
				sec, _ := strconv.ParseInt(te, 10, 64)
				s.periodEnd = time.Unix(sec, 0).UTC()
				s.obj["trial_end"], s.obj["current_period_end"] = sec, sec
			}
			phases = append(phases, ph)
		}
		s.phases = phases
		raw, _ = json.Marshal(scheduleObject(s))
		f.stored[key] = raw
	}
	f.mu.Unlock()
	writeRaw(w, 200, raw)
	return true
}

func scheduleObject(s *fakeSub) map[string]any {
	start := s.obj["created"]
	phases := []any{}
	if len(s.phases) == 0 {
		phases = append(phases, map[string]any{"start_date": start, "end_date": s.periodEnd.Unix()})
	}
	for _, ph := range s.phases {
		var end any
		if !ph.end.IsZero() {
			end = ph.end.Unix()
		}
		phases = append(phases, map[string]any{"start_date": start, "end_date": end,
			"items": []any{map[string]any{"price": map[string]any{"unit_amount": ph.amount, "currency": s.currency}, "quantity": 1}}})
		start = end
	}
	return map[string]any{"id": s.schedule, "object": "subscription_schedule", "status": "active",
		"subscription": s.obj["id"], "customer": s.obj["customer"], "end_behavior": "release", "phases": phases}
}

// releaseSchedule answers POST /v1/subscription_schedules/{id}/release: the
// subscription keeps its current price and renews by itself (f.mu held).
func (f *Fake) releaseSchedule(id string) map[string]any {
	for _, s := range f.billing().subs {
		if s.schedule == id {
			obj := scheduleObject(s)
			obj["status"], obj["released_subscription"] = "released", s.obj["id"]
			s.phases, s.schedule = nil, ""
			s.obj["schedule"] = nil
			return obj
		}
	}
	return nil
}
