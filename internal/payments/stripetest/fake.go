// Package stripetest is a fake Stripe at the network boundary for tests: an
// httptest server that speaks the few endpoints the payments port calls,
// records every request's Idempotency-Key and Stripe-Account, replays a
// repeated idempotency key like Stripe does, and scripts what stripe-mock
// cannot: declines with decline codes, requires_action, processing, a 500
// before success, a slow answer or a timeout, a dropped connection after the
// charge.
package stripetest

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/stripe/stripe-go/v79"

	"github.com/venueplatform/venue/internal/payments/stripeport"
)

// Outcome scripts the answer to one payment intent creation.
type Outcome struct {
	// Status of the created intent: requires_action, processing,
	// requires_payment_method; empty means succeeded when a payment method
	// confirms it, else requires_payment_method.
	Status string
	// Decline refuses the card with this decline code (HTTP 402).
	Decline string
	// Fail500 answers 500 this many times before handling the request.
	Fail500 int
	// Drop records the charge, then closes the connection without an answer,
	// this many times (every later try is replayed from the stored answer).
	Drop int
	// Hang records the charge, then waits this long before answering (a
	// client with a shorter timeout sees no answer), HangTimes times.
	Hang      time.Duration
	HangTimes int
	// Delay slows every answer (a slow processor).
	Delay time.Duration
}

// Request is one request the fake received.
type Request struct {
	Method, Path, IdempotencyKey, StripeAccount string
}

// Fake is the fake Stripe.
type Fake struct {
	*httptest.Server

	mu       sync.Mutex
	requests []Request
	intents  map[string]map[string]any
	order    []string
	stored   map[string][]byte // idempotency key -> answer of a 200 or 402
	storedSt map[string]int
	script   []Outcome
	byKey    map[string]*Outcome // the outcome a key drew, for its retries
	accounts map[string]map[string]any
	// customers holds each customer's cards (payment method objects).
	customers map[string][]map[string]any
	defaults  map[string]string
	setups    map[string]map[string]any
	// Default is the outcome when the script is empty.
	Default Outcome
	seq     int
	// refunds is the refunds' state (refunds.go).
	refunds refundState
	// bill is Stripe Billing (billing.go); pending its events not yet taken.
	bill    *billingState
	pending []SignedEvent
	// items are pending and invoiced invoice items (invoiceitems.go).
	items     map[string]*fakeItem
	itemOrder []string
	// desk is the staff's card writes (detach.go).
	desk cardDesk
	// subFaults scripts subscription updates (subfaults.go).
	subFaults subFaults
	// methods are the payment method faults (methods.go).
	methods methodFaults
	// schedFaults scripts schedule phase writes (schedfaults.go).
	schedFaults schedFaults
	// autoAdvanceWrites counts, per invoice, the updates of its
	// auto_advance (autoadvance.go).
	autoAdvanceWrites map[string]int
}

// New starts a fake; it stops when the test ends (t.Cleanup by the caller
// through Close).
func New() *Fake {
	f := &Fake{intents: map[string]map[string]any{}, stored: map[string][]byte{}, storedSt: map[string]int{},
		byKey: map[string]*Outcome{}, accounts: map[string]map[string]any{},
		customers: map[string][]map[string]any{}, defaults: map[string]string{}, setups: map[string]map[string]any{},
		autoAdvanceWrites: map[string]int{}}
	f.Server = httptest.NewServer(http.HandlerFunc(f.serve))
	return f
}

// Script queues outcomes for the next intent creations, in order.
func (f *Fake) Script(o ...Outcome) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.script = append(f.script, o...)
}

// Requests returns the requests so far.
func (f *Fake) Requests() []Request {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]Request(nil), f.requests...)
}

// Intents returns the ids of the intents created, in order: every charge
// the fake made.
func (f *Fake) Intents() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]string(nil), f.order...)
}

// Intent returns a copy of an intent.
func (f *Fake) Intent(id string) map[string]any {
	f.mu.Lock()
	defer f.mu.Unlock()
	out := map[string]any{}
	for k, v := range f.intents[id] {
		out[k] = v
	}
	return out
}

// SetStatus moves an intent to status, as the member's bank or 3-D Secure
// would; it returns the intent as a JSON object.
func (f *Fake) SetStatus(id, status string) []byte {
	f.mu.Lock()
	defer f.mu.Unlock()
	pi := f.intents[id]
	pi["status"] = status
	raw, _ := json.Marshal(pi)
	return raw
}

// AddAccount registers a connected account.
func (f *Fake) AddAccount(id string, chargesEnabled bool) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.accounts[id] = map[string]any{"id": id, "object": "account", "charges_enabled": chargesEnabled,
		"details_submitted": chargesEnabled, "country": "DK"}
}

// Event returns an event of typ about object, signed with secret, as Stripe
// would post it: the body and its Stripe-Signature header.
func Event(id, typ, account string, object []byte, secret string) ([]byte, string) {
	body, _ := json.Marshal(map[string]any{
		"id": id, "object": "event", "api_version": stripe.APIVersion, "type": typ, "account": account,
		"created": time.Now().Unix(), "livemode": false, "pending_webhooks": 1,
		"data": map[string]any{"object": json.RawMessage(object)},
	})
	return body, stripeport.SignedTestPayload(body, secret, time.Now())
}

func (f *Fake) serve(w http.ResponseWriter, r *http.Request) {
	_ = r.ParseForm()
	key := r.Header.Get("Idempotency-Key")
	f.mu.Lock()
	f.requests = append(f.requests, Request{Method: r.Method, Path: r.URL.Path, IdempotencyKey: key,
		StripeAccount: r.Header.Get("Stripe-Account")})
	f.mu.Unlock()
	if f.serveBilling(w, r, key) {
		return
	}
	if f.serveCardDesk(w, r, key) {
		return
	}
	switch {
	case r.Method == http.MethodPost && r.URL.Path == "/v1/payment_intents":
		f.createIntent(w, r, key)
	case r.Method == http.MethodGet && r.URL.Path == "/v1/payment_intents/search":
		f.searchIntents(w, r)
	case r.Method == http.MethodPost && strings.HasPrefix(r.URL.Path, "/v1/payment_intents/") && strings.HasSuffix(r.URL.Path, "/cancel"):
		f.cancelIntent(w, r, key)
	case r.Method == http.MethodGet && strings.HasPrefix(r.URL.Path, "/v1/payment_intents/"):
		f.mu.Lock()
		pi, ok := f.intents[strings.TrimPrefix(r.URL.Path, "/v1/payment_intents/")]
		var raw []byte
		if ok {
			raw, _ = json.Marshal(pi)
		}
		f.mu.Unlock()
		if !ok {
			notFound(w)
			return
		}
		writeRaw(w, 200, raw)
	case r.Method == http.MethodPost && r.URL.Path == "/v1/accounts":
		f.mu.Lock()
		if raw, ok := f.stored[key]; ok && key != "" {
			f.mu.Unlock()
			writeRaw(w, 200, raw)
			return
		}
		f.seq++
		id := fmt.Sprintf("acct_fake%d", f.seq)
		f.mu.Unlock()
		f.AddAccount(id, false)
		f.mu.Lock()
		raw, _ := json.Marshal(f.accounts[id])
		f.stored[key] = raw
		f.mu.Unlock()
		writeRaw(w, 200, raw)
	case r.Method == http.MethodGet && strings.HasPrefix(r.URL.Path, "/v1/accounts/"):
		f.mu.Lock()
		a, ok := f.accounts[strings.TrimPrefix(r.URL.Path, "/v1/accounts/")]
		raw, _ := json.Marshal(a)
		f.mu.Unlock()
		if !ok {
			notFound(w)
			return
		}
		writeRaw(w, 200, raw)
	case r.Method == http.MethodPost && r.URL.Path == "/v1/customers":
		f.replayOr(w, key, func() map[string]any {
			f.seq++
			id := fmt.Sprintf("cus_fake%d", f.seq)
			f.customers[id] = []map[string]any{}
			return map[string]any{"id": id, "object": "customer", "email": r.PostForm.Get("email")}
		})
	case r.Method == http.MethodPost && strings.HasPrefix(r.URL.Path, "/v1/customers/"):
		id := strings.TrimPrefix(r.URL.Path, "/v1/customers/")
		f.mu.Lock()
		_, ok := f.customers[id]
		if ok {
			f.defaults[id] = r.PostForm.Get("invoice_settings[default_payment_method]")
		}
		f.mu.Unlock()
		if !ok {
			notFound(w)
			return
		}
		raw, _ := json.Marshal(map[string]any{"id": id, "object": "customer"})
		writeRaw(w, 200, raw)
	case r.Method == http.MethodPost && r.URL.Path == "/v1/setup_intents":
		f.replayOr(w, key, func() map[string]any {
			f.seq++
			id := fmt.Sprintf("seti_fake%d", f.seq)
			meta := map[string]string{}
			for k, v := range r.PostForm {
				if strings.HasPrefix(k, "metadata[") && len(v) > 0 {
					meta[strings.TrimSuffix(strings.TrimPrefix(k, "metadata["), "]")] = v[0]
				}
			}
			si := map[string]any{"id": id, "object": "setup_intent", "status": "requires_payment_method",
				"client_secret": id + "_secret_fake", "customer": r.PostForm.Get("customer"), "metadata": meta}
			f.setups[id] = si
			return si
		})
	case r.Method == http.MethodGet && strings.HasPrefix(r.URL.Path, "/v1/setup_intents/"):
		f.mu.Lock()
		si, ok := f.setups[strings.TrimPrefix(r.URL.Path, "/v1/setup_intents/")]
		raw, _ := json.Marshal(si)
		f.mu.Unlock()
		if !ok {
			notFound(w)
			return
		}
		writeRaw(w, 200, raw)
	case r.Method == http.MethodPost && r.URL.Path == "/v1/ephemeral_keys":
		raw, _ := json.Marshal(map[string]any{"id": "ephkey_fake", "object": "ephemeral_key", "secret": "ek_test_" + r.PostForm.Get("customer"),
			"expires": time.Now().Add(time.Hour).Unix()})
		writeRaw(w, 200, raw)
	case r.Method == http.MethodGet && r.URL.Path == "/v1/payment_methods":
		f.mu.Lock()
		cards := f.customers[r.URL.Query().Get("customer")]
		raw, _ := json.Marshal(map[string]any{"object": "list", "data": cards, "has_more": false, "url": "/v1/payment_methods"})
		f.mu.Unlock()
		writeRaw(w, 200, raw)
	case r.Method == http.MethodPost && r.URL.Path == "/v1/account_links":
		raw, _ := json.Marshal(map[string]any{"object": "account_link", "url": "https://connect.stripe.test/setup/" + r.PostForm.Get("account"),
			"created": time.Now().Unix(), "expires_at": time.Now().Add(5 * time.Minute).Unix()})
		writeRaw(w, 200, raw)
	default:
		if !f.serveRefunds(w, r, key) {
			notFound(w)
		}
	}
}

// replayOr answers a create: the stored answer of a repeated idempotency
// key, else make's object, stored under the key.
func (f *Fake) replayOr(w http.ResponseWriter, key string, make func() map[string]any) {
	f.mu.Lock()
	raw, ok := f.stored[key]
	if !ok || key == "" {
		raw, _ = json.Marshal(make())
		f.stored[key] = raw
	}
	f.mu.Unlock()
	writeRaw(w, 200, raw)
}

// Customers returns the ids of the customers created.
func (f *Fake) Customers() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	var out []string
	for id := range f.customers {
		out = append(out, id)
	}
	return out
}

// AttachCard saves a card on a customer, as the payment sheet confirming a
// setup intent would; wallet names a wallet card (apple_pay) or is empty.
func (f *Fake) AttachCard(customer, id, brand, last4, wallet string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	card := map[string]any{"brand": brand, "last4": last4, "exp_month": 12, "exp_year": 2030}
	if wallet != "" {
		card["wallet"] = map[string]any{"type": wallet}
	}
	f.customers[customer] = append(f.customers[customer], map[string]any{"id": id, "object": "payment_method",
		"type": "card", "customer": customer, "card": card})
}

// SetSetupStatus moves a setup intent to status (the member finished the
// payment sheet); it returns the setup intent as a JSON object.
func (f *Fake) SetSetupStatus(id, status string) []byte {
	f.mu.Lock()
	defer f.mu.Unlock()
	si := f.setups[id]
	si["status"] = status
	raw, _ := json.Marshal(si)
	return raw
}

// DefaultCard returns the customer's default card as Stripe holds it.
func (f *Fake) DefaultCard(customer string) string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.defaults[customer]
}

func (f *Fake) createIntent(w http.ResponseWriter, r *http.Request, key string) {
	f.mu.Lock()
	o, drawn := f.byKey[key]
	if !drawn {
		next := f.Default
		if len(f.script) > 0 {
			next, f.script = f.script[0], f.script[1:]
		}
		o = &next
		f.byKey[key] = o
	}
	delay := o.Delay
	if o.Fail500 > 0 {
		o.Fail500--
		f.mu.Unlock()
		time.Sleep(delay)
		writeRaw(w, 500, []byte(`{"error":{"type":"api_error","message":"an error occurred"}}`))
		return
	}
	raw, replay := f.stored[key]
	status := f.storedSt[key]
	if !replay && f.refuseCharge() {
		f.mu.Unlock()
		refusedCharge(w)
		return
	}
	if !replay {
		raw, status = f.charge(r, o)
		f.stored[key], f.storedSt[key] = raw, status
	}
	drop := o.Drop > 0
	if drop {
		o.Drop--
	}
	hang := time.Duration(0)
	if o.HangTimes > 0 {
		o.HangTimes--
		hang = o.Hang
	}
	f.mu.Unlock()
	time.Sleep(delay + hang)
	if drop {
		if hj, ok := w.(http.Hijacker); ok {
			if conn, _, err := hj.Hijack(); err == nil {
				_ = conn.Close()
				return
			}
		}
	}
	writeRaw(w, status, raw)
}

// charge creates the intent (f.mu held) and returns the answer.
func (f *Fake) charge(r *http.Request, o *Outcome) ([]byte, int) {
	f.seq++
	id := fmt.Sprintf("pi_fake%d", f.seq)
	amount, _ := strconv.ParseInt(r.PostForm.Get("amount"), 10, 64)
	meta := map[string]string{}
	for k, v := range r.PostForm {
		if strings.HasPrefix(k, "metadata[") && len(v) > 0 {
			meta[strings.TrimSuffix(strings.TrimPrefix(k, "metadata["), "]")] = v[0]
		}
	}
	status := o.Status
	if status == "" {
		status = "succeeded"
		if r.PostForm.Get("payment_method") == "" {
			status = "requires_payment_method" // waits for the payment sheet
		}
	}
	pi := map[string]any{"id": id, "object": "payment_intent", "amount": amount, "currency": r.PostForm.Get("currency"),
		"client_secret": id + "_secret_fake", "metadata": meta, "status": status, "created": time.Now().Unix(),
		"customer": r.PostForm.Get("customer"), "setup_future_usage": r.PostForm.Get("setup_future_usage"),
		"off_session": r.PostForm.Get("off_session") == "true"}
	if o.Decline != "" {
		pi["status"] = "requires_payment_method"
		pi["last_payment_error"] = map[string]any{"type": "card_error", "code": "card_declined", "decline_code": o.Decline}
	} else if o.Status == "" && r.PostForm.Get("payment_method") != "" {
		f.holdIntent(pi, r.PostForm.Get("payment_method")) // methods.go
	}
	f.intents[id] = pi
	f.order = append(f.order, id)
	raw, _ := json.Marshal(pi)
	if o.Decline != "" {
		body, _ := json.Marshal(map[string]any{"error": map[string]any{"type": "card_error", "code": "card_declined",
			"decline_code": o.Decline, "message": "Your card was declined.", "payment_intent": json.RawMessage(raw)}})
		return body, http.StatusPaymentRequired
	}
	return raw, http.StatusOK
}

func (f *Fake) searchIntents(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query().Get("query")
	f.mu.Lock()
	var data []json.RawMessage
	for _, id := range f.order {
		pi := f.intents[id]
		if meta, ok := pi["metadata"].(map[string]string); ok && strings.Contains(q, "'"+meta["attempt_id"]+"'") {
			raw, _ := json.Marshal(pi)
			data = append(data, raw)
		}
	}
	f.mu.Unlock()
	if data == nil {
		data = []json.RawMessage{}
	}
	raw, _ := json.Marshal(map[string]any{"object": "search_result", "data": data, "has_more": false, "url": "/v1/payment_intents/search"})
	writeRaw(w, 200, raw)
}

func notFound(w http.ResponseWriter) {
	writeRaw(w, 404, []byte(`{"error":{"type":"invalid_request_error","code":"resource_missing","message":"No such object"}}`))
}

func writeRaw(w http.ResponseWriter, status int, raw []byte) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Request-Id", "req_fake")
	w.WriteHeader(status)
	_, _ = w.Write(raw)
}
