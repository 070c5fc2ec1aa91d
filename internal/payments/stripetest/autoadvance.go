package stripetest

import (
	"encoding/json"
	"net/http"
	"strings"
)

// Invoice updates in the fake: auto_advance turns Stripe's automatic
// collection of an open invoice off (the fake's own retries of a declined
// renewal stop, as Stripe's smart retries would) or on again (a retry due
// meanwhile is made at the next Advance).

// serveInvoiceUpdate answers POST /v1/invoices/{id} (auto_advance),
// replaying a repeated idempotency key; false means another endpoint.
func (f *Fake) serveInvoiceUpdate(w http.ResponseWriter, r *http.Request, key string) bool {
	id, ok := strings.CutPrefix(r.URL.Path, "/v1/invoices/")
	if r.Method != http.MethodPost || !ok || id == "" || strings.Contains(id, "/") {
		return false
	}
	f.mu.Lock()
	inv := f.billing().invoices[id]
	f.mu.Unlock()
	if inv == nil {
		notFound(w)
		return true
	}
	f.mu.Lock()
	raw, ok := f.stored[key]
	if !ok || key == "" {
		if v := r.PostForm.Get("auto_advance"); v != "" {
			inv.obj["auto_advance"] = v == "true"
			f.autoAdvanceWrites[id]++
		}
		out := map[string]any{}
		for k, v := range inv.obj {
			out[k] = v
		}
		raw, _ = json.Marshal(out)
		f.stored[key] = raw
	}
	f.mu.Unlock()
	if f.dropIf(w, &f.subFaults.invoiceUpdateDrop) {
		return true
	}
	writeRaw(w, 200, raw)
	return true
}

// DropInvoiceUpdates makes the next n invoice updates (and replays of their
// keys) close the connection without an answer after the update applied.
func (f *Fake) DropInvoiceUpdates(n int) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.subFaults.invoiceUpdateDrop = n
}

// AutoAdvance is invoice id's auto_advance: on unless an update turned it
// off; writes counts the updates that set it (a replayed key sets nothing).
func (f *Fake) AutoAdvance(id string) (on bool, writes int) {
	f.mu.Lock()
	defer f.mu.Unlock()
	inv := f.billing().invoices[id]
	if inv == nil {
		return false, 0
	}
	v, set := inv.obj["auto_advance"].(bool)
	return !set || v, f.autoAdvanceWrites[id]
}

// retries reports whether the fake retries invoice inv by itself (f.mu
// held): not while its automatic collection is off.
func (inv *fakeInvoice) retries() bool {
	v, set := inv.obj["auto_advance"].(bool)
	return !set || v
}
