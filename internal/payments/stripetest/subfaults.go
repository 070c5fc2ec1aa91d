package stripetest

import (
	"encoding/json"
	"net/http"
	"strings"
)

// subFaults scripts the answers to subscription updates (POST
// /v1/subscriptions/{id}) and counts the updates applied.
type subFaults struct {
	fail500, drop, refuse int
	// createDrop and payDrop drop the answers of subscription creations and
	// invoice payments.
	createDrop, payDrop int
	// payRefuse refuses invoice payments (a 400 before anything happens).
	payRefuse int
	// payFail500 answers invoice payments 500 before anything happens.
	payFail500 int
	// invoiceUpdateDrop drops the answers of invoice updates (auto_advance).
	invoiceUpdateDrop int
	// applied counts, per subscription, the updates that changed something
	// (a replay of a key changes nothing).
	applied map[string]int
	// refuseOf refuses every update of these subscriptions (400).
	refuseOf map[string]bool
}

// FailSubscriptionUpdates scripts the next subscription updates: the first
// fail500 are answered 500 before anything happens, the next drop answers
// are dropped (the update applied, or its answer replayed, then the
// connection closed), the next refuse are refused (400). A retry with the same idempotency key of an
// applied update replays its answer.
func (f *Fake) FailSubscriptionUpdates(fail500, drop, refuse int) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.subFaults.fail500, f.subFaults.drop, f.subFaults.refuse = fail500, drop, refuse
}

// RefuseSubscriptionUpdatesOf makes Stripe refuse (400) every update of
// subscription id while on is true, whatever the other subscriptions'
// updates do: one of several subscriptions a change writes refuses it.
func (f *Fake) RefuseSubscriptionUpdatesOf(id string, on bool) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.subFaults.refuseOf == nil {
		f.subFaults.refuseOf = map[string]bool{}
	}
	f.subFaults.refuseOf[id] = on
}

// SubscriptionUpdates counts the updates applied to subscription id.
func (f *Fake) SubscriptionUpdates(id string) int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.subFaults.applied[id]
}

// subUpdateBefore answers a scripted 500 or refusal, or replays the stored
// answer of key; true means the request is answered.
func (f *Fake) subUpdateBefore(w http.ResponseWriter, key, id string) bool {
	f.mu.Lock()
	switch {
	case f.subFaults.refuseOf[id]:
		f.mu.Unlock()
		refused(w)
		return true
	case f.subFaults.fail500 > 0:
		f.subFaults.fail500--
		f.mu.Unlock()
		writeRaw(w, 500, []byte(`{"error":{"type":"api_error","message":"an error occurred"}}`))
		return true
	case f.subFaults.refuse > 0:
		f.subFaults.refuse--
		f.mu.Unlock()
		refused(w)
		return true
	}
	raw, ok := f.stored[key]
	f.mu.Unlock()
	if ok && key != "" && strings.HasPrefix(string(raw), "{") {
		if !f.subDrop(w) {
			writeRaw(w, 200, raw)
		}
		return true
	}
	return false
}

// subDrop closes the connection without an answer when a drop is scripted.
func (f *Fake) subDrop(w http.ResponseWriter) bool {
	f.mu.Lock()
	drop := f.subFaults.drop > 0
	if drop {
		f.subFaults.drop--
	}
	f.mu.Unlock()
	if drop {
		if hj, ok := w.(http.Hijacker); ok {
			if conn, _, err := hj.Hijack(); err == nil {
				_ = conn.Close()
				return true
			}
		}
	}
	return false
}

// subUpdateAfter stores the answer of an applied update under key, counts
// it, and drops the connection when scripted; true means the request is
// answered (or dropped).
func (f *Fake) subUpdateAfter(w http.ResponseWriter, key, id string, raw []byte) bool {
	f.mu.Lock()
	if f.subFaults.applied == nil {
		f.subFaults.applied = map[string]int{}
	}
	f.subFaults.applied[id]++
	if key != "" {
		f.stored[key] = raw
	}
	f.mu.Unlock()
	return f.subDrop(w)
}

// DropSubscriptionCreates makes the next n subscription creations (and
// replays of their keys) close the connection without an answer after the
// subscription is made.
func (f *Fake) DropSubscriptionCreates(n int) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.subFaults.createDrop = n
}

// DropInvoicePays makes the next n invoice payments on request (and replays
// of their keys) close the connection without an answer after the charge.
func (f *Fake) DropInvoicePays(n int) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.subFaults.payDrop = n
}

// dropIf closes the connection when *n > 0 (decrementing it).
func (f *Fake) dropIf(w http.ResponseWriter, n *int) bool {
	f.mu.Lock()
	drop := *n > 0
	if drop {
		*n--
	}
	f.mu.Unlock()
	if drop {
		if hj, ok := w.(http.Hijacker); ok {
			if conn, _, err := hj.Hijack(); err == nil {
				_ = conn.Close()
				return true
			}
		}
	}
	return false
}

// createSubscriptionAnswer answers POST /v1/subscriptions: made once per key,
// replayed after, dropped when scripted.
func (f *Fake) createSubscriptionAnswer(w http.ResponseWriter, r *http.Request, key, account string) {
	f.mu.Lock()
	raw, ok := f.stored[key]
	if !ok || key == "" {
		raw, _ = json.Marshal(f.createSubscription(r, account))
		f.stored[key] = raw
	}
	f.mu.Unlock()
	if f.dropIf(w, &f.subFaults.createDrop) {
		return
	}
	writeRaw(w, 200, raw)
}

// searchSubscriptions answers GET /v1/subscriptions/search for the query
// metadata['attempt_id']:'<id>'.
func (f *Fake) searchSubscriptions(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query().Get("query")
	want := strings.TrimSuffix(strings.TrimPrefix(q, "metadata['attempt_id']:'"), "'")
	f.mu.Lock()
	data := []any{}
	for _, id := range f.billing().subOrder {
		s := f.billing().subs[id]
		if meta, _ := s.obj["metadata"].(map[string]string); meta["attempt_id"] == want && want != "" {
			data = append(data, s.obj)
		}
	}
	raw, _ := json.Marshal(map[string]any{"object": "search_result", "data": data, "has_more": false, "url": "/v1/subscriptions/search"})
	f.mu.Unlock()
	writeRaw(w, 200, raw)
}

// serveScheduleRead answers GET /v1/subscription_schedules/{id}; false
// means another endpoint.
func (f *Fake) serveScheduleRead(w http.ResponseWriter, r *http.Request) bool {
	id, ok := strings.CutPrefix(r.URL.Path, "/v1/subscription_schedules/")
	if r.Method != http.MethodGet || !ok {
		return false
	}
	f.mu.Lock()
	var raw []byte
	for _, s := range f.billing().subs {
		if s.schedule == id && id != "" {
			raw, _ = json.Marshal(scheduleObject(s))
		}
	}
	f.mu.Unlock()
	if raw == nil {
		notFound(w)
		return true
	}
	writeRaw(w, 200, raw)
	return true
}

// RefuseInvoicePays makes the next n invoice payments on request answer a
// refusal (400, nothing paid).
func (f *Fake) RefuseInvoicePays(n int) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.subFaults.payRefuse = n
}

// FailInvoicePays makes the next n invoice payments on request answer 500
// before anything is paid (the client cannot know: an unknown outcome).
func (f *Fake) FailInvoicePays(n int) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.subFaults.payFail500 = n
}
