package stripetest

import (
	"encoding/json"
	"net/http"
	"strings"
)

// cardDesk is the fake's state of the staff's card writes: detaching saved
// cards and scripted refusals of card writes.
type cardDesk struct {
	failDetach, failUpdate int
	detached               []string
}

// FailCardWrites makes the next detach calls (detach) and customer updates
// (update) answer 400, as Stripe refusing the write would.
func (f *Fake) FailCardWrites(detach, update int) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.desk.failDetach, f.desk.failUpdate = detach, update
}

// Detached returns the payment methods detached so far, in order.
func (f *Fake) Detached() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]string(nil), f.desk.detached...)
}

func refused(w http.ResponseWriter) {
	writeRaw(w, 400, []byte(`{"error":{"type":"invalid_request_error","code":"parameter_invalid","message":"refused by the fake"}}`))
}

// serveCardDesk answers detaches and the scripted refusals of customer
// updates; false leaves the request to the other handlers.
func (f *Fake) serveCardDesk(w http.ResponseWriter, r *http.Request, key string) bool {
	if r.Method != http.MethodPost {
		return false
	}
	switch {
	case strings.HasPrefix(r.URL.Path, "/v1/customers/"):
		f.mu.Lock()
		fail := f.desk.failUpdate > 0
		if fail {
			f.desk.failUpdate--
		}
		f.mu.Unlock()
		if fail {
			refused(w)
		}
		return fail
	case strings.HasPrefix(r.URL.Path, "/v1/payment_methods/") && strings.HasSuffix(r.URL.Path, "/detach"):
		id := strings.TrimSuffix(strings.TrimPrefix(r.URL.Path, "/v1/payment_methods/"), "/detach")
		f.mu.Lock()
		defer f.mu.Unlock()
		if raw, ok := f.stored[key]; ok && key != "" {
			writeRaw(w, 200, raw)
			return true
		}
		if f.desk.failDetach > 0 {
			f.desk.failDetach--
			refused(w)
			return true
		}
		for cus, cards := range f.customers {
			for i, pm := range cards {
				if pm["id"] != id {
					continue
				}
				f.customers[cus] = append(cards[:i:i], cards[i+1:]...)
				if f.defaults[cus] == id {
					f.defaults[cus] = ""
				}
				f.desk.detached = append(f.desk.detached, id)
				out := map[string]any{}
				for k, v := range pm {
					out[k] = v
				}
				out["customer"] = nil
				raw, _ := json.Marshal(out)
				if key != "" {
					f.stored[key] = raw
				}
				writeRaw(w, 200, raw)
				return true
			}
		}
		notFound(w)
		return true
	}
	return false
}
