package stripetest

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"strings"
)

// RefundOutcome scripts the answer to one refund creation.
type RefundOutcome struct {
	// Status of the created refund; empty means succeeded.
	Status string
	// Refuse answers 400 (the processor refuses the refund) and creates
	// nothing.
	Refuse bool
	// Drop creates the refund, then closes the connection without an
	// answer, this many times (retries with the key included); later tries
	// are replayed from the stored answer.
	Drop int
}

// refundState is the fake's refunds, under Fake.mu.
type refundState struct {
	byID   map[string]map[string]any
	order  []string
	script []RefundOutcome
	// refunded is what each intent has had refunded.
	refunded map[string]int64
	// drops is how many more answers of a key are dropped.
	drops map[string]int
}

// ScriptRefunds queues outcomes for the next refund creations, in order.
func (f *Fake) ScriptRefunds(o ...RefundOutcome) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.refunds.script = append(f.refunds.script, o...)
}

// Refunds returns the ids of the refunds created, in order: every refund
// the fake made.
func (f *Fake) Refunds() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]string(nil), f.refunds.order...)
}

// Refund returns a refund as a JSON object (for a signed event).
func (f *Fake) Refund(id string) []byte {
	f.mu.Lock()
	defer f.mu.Unlock()
	raw, _ := json.Marshal(f.refunds.byID[id])
	return raw
}

// SetRefundStatus moves a refund to status (the bank settled or failed it);
// it returns the refund as a JSON object.
func (f *Fake) SetRefundStatus(id, status string) []byte {
	f.mu.Lock()
	defer f.mu.Unlock()
	rf := f.refunds.byID[id]
	rf["status"] = status
	raw, _ := json.Marshal(rf)
	return raw
}

// Charge returns the charge of an intent as a JSON object, with what it has
// had refunded (charge.refunded).
func (f *Fake) Charge(intentID string) []byte {
	f.mu.Lock()
	defer f.mu.Unlock()
	pi := f.intents[intentID]
	raw, _ := json.Marshal(map[string]any{"id": "ch_" + intentID, "object": "charge", "amount": pi["amount"],
		"currency": pi["currency"], "payment_intent": intentID, "amount_refunded": f.refunds.refunded[intentID],
		"refunded": f.refunds.refunded[intentID] >= toInt64(pi["amount"])})
	return raw
}

// RefundOutside refunds amount of an intent as the Stripe dashboard would,
// with no request of the service; it returns the charge as a JSON object.
func (f *Fake) RefundOutside(intentID string, amount int64) []byte {
	f.mu.Lock()
	if f.refunds.refunded == nil {
		f.refunds.refunded = map[string]int64{}
	}
	f.refunds.refunded[intentID] += amount
	f.mu.Unlock()
	return f.Charge(intentID)
}

func toInt64(v any) int64 {
	switch n := v.(type) {
	case int64:
		return n
	case float64:
		return int64(n)
	case int:
		return int64(n)
	}
	return 0
}

// serveRefunds answers the refund endpoints; false for any other request.
func (f *Fake) serveRefunds(w http.ResponseWriter, r *http.Request, key string) bool {
	switch {
	case r.Method == http.MethodPost && r.URL.Path == "/v1/refunds":
		f.createRefund(w, r, key)
	case r.Method == http.MethodGet && r.URL.Path == "/v1/refunds":
		pi := r.URL.Query().Get("payment_intent")
		f.mu.Lock()
		data := []json.RawMessage{}
		for _, id := range f.refunds.order {
			if rf := f.refunds.byID[id]; rf["payment_intent"] == pi {
				raw, _ := json.Marshal(rf)
				data = append(data, raw)
			}
		}
		f.mu.Unlock()
		raw, _ := json.Marshal(map[string]any{"object": "list", "data": data, "has_more": false, "url": "/v1/refunds"})
		writeRaw(w, 200, raw)
	default:
		return false
	}
	return true
}

func (f *Fake) createRefund(w http.ResponseWriter, r *http.Request, key string) {
	f.mu.Lock()
	if raw, ok := f.stored[key]; ok && key != "" {
		st := f.storedSt[key]
		drop := f.refunds.drops[key] > 0
		if drop {
			f.refunds.drops[key]--
		}
		f.mu.Unlock()
		if drop && hangUp(w) {
			return
		}
		writeRaw(w, st, raw)
		return
	}
	var o RefundOutcome
	if len(f.refunds.script) > 0 {
		o, f.refunds.script = f.refunds.script[0], f.refunds.script[1:]
	}
	pi := r.PostForm.Get("payment_intent")
	amount, _ := strconv.ParseInt(r.PostForm.Get("amount"), 10, 64)
	intent, ok := f.intents[pi]
	if f.refunds.refunded == nil {
		f.refunds.refunded = map[string]int64{}
		f.refunds.byID = map[string]map[string]any{}
	}
	if f.refunds.byID == nil {
		f.refunds.byID = map[string]map[string]any{}
	}
	if !ok || o.Refuse || amount <= 0 || f.refunds.refunded[pi]+amount > toInt64(intent["amount"]) {
		f.mu.Unlock()
		writeRaw(w, 400, []byte(`{"error":{"type":"invalid_request_error","code":"amount_too_large","message":"Refund amount is greater than unrefunded amount on charge"}}`))
		return
	}
	meta := map[string]string{}
	for k, v := range r.PostForm {
		if strings.HasPrefix(k, "metadata[") && len(v) > 0 {
			meta[strings.TrimSuffix(strings.TrimPrefix(k, "metadata["), "]")] = v[0]
		}
	}
	status := o.Status
	if status == "" {
		status = "succeeded"
	}
	f.seq++
	id := fmt.Sprintf("re_fake%d", f.seq)
	rf := map[string]any{"id": id, "object": "refund", "amount": amount, "currency": intent["currency"],
		"payment_intent": pi, "status": status, "metadata": meta, "charge": "ch_" + pi}
	f.refunds.byID[id] = rf
	f.refunds.order = append(f.refunds.order, id)
	f.refunds.refunded[pi] += amount
	raw, _ := json.Marshal(rf)
	f.stored[key], f.storedSt[key] = raw, 200
	if o.Drop > 1 {
		if f.refunds.drops == nil {
			f.refunds.drops = map[string]int{}
		}
		f.refunds.drops[key] = o.Drop - 1
	}
	f.mu.Unlock()
	if o.Drop > 0 && hangUp(w) {
		return
	}
	writeRaw(w, 200, raw)
}

// hangUp closes the connection without an answer.
func hangUp(w http.ResponseWriter) bool {
	if hj, ok := w.(http.Hijacker); ok {
		if conn, _, err := hj.Hijack(); err == nil {
			_ = conn.Close()
			return true
		}
	}
	return false
}
