package stripetest

import (
	"encoding/json"
	"net/http"
	"strings"
)

// cancelIntent cancels an intent that has not succeeded (Stripe's rule: a
// succeeded or cancelled intent answers 400 payment_intent_unexpected_state);
// a repeated idempotency key replays the first answer.
func (f *Fake) cancelIntent(w http.ResponseWriter, r *http.Request, key string) {
	id := strings.TrimSuffix(strings.TrimPrefix(r.URL.Path, "/v1/payment_intents/"), "/cancel")
	f.mu.Lock()
	if raw, ok := f.stored[key]; ok && key != "" {
		st := f.storedSt[key]
		f.mu.Unlock()
		writeRaw(w, st, raw)
		return
	}
	pi, ok := f.intents[id]
	if !ok {
		f.mu.Unlock()
		notFound(w)
		return
	}
	status, code := http.StatusOK, ""
	switch pi["status"] {
	case "succeeded", "canceled":
		status, code = http.StatusBadRequest, "payment_intent_unexpected_state"
	default:
		pi["status"] = "canceled"
		pi["cancellation_reason"] = r.PostForm.Get("cancellation_reason")
	}
	var raw []byte
	if code != "" {
		raw, _ = json.Marshal(map[string]any{"error": map[string]any{"type": "invalid_request_error", "code": code,
			"message": "this PaymentIntent's status does not allow cancelling it"}})
	} else {
		raw, _ = json.Marshal(pi)
	}
	if key != "" {
		f.stored[key], f.storedSt[key] = raw, status
	}
	f.mu.Unlock()
	writeRaw(w, status, raw)
}

// Cancels counts the cancel requests the fake received for intent id
// (repeats of one idempotency key included).
func (f *Fake) Cancels(id string) int {
	f.mu.Lock()
	defer f.mu.Unlock()
	n := 0
	for _, r := range f.requests {
		if r.Method == http.MethodPost && r.Path == "/v1/payment_intents/"+id+"/cancel" {
			n++
		}
	}
	return n
}
