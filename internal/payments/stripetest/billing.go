package stripetest

import (
	"encoding/json"
	"fmt"
	"net/http"
	"sort"
	"strconv"
	"strings"
	"time"
)

// Stripe Billing in the fake: products, subscriptions that renew on a
// billing clock the test moves (Advance, as Stripe's test clocks do), their
// invoices, charged off session with scripted declines, paid again through
// /v1/invoices/{id}/pay or by the fake's own retry (Stripe's smart retries),
// and the signed events Stripe would post about them.

// RetryAfter is how long after a declined renewal the fake charges the
// invoice again by itself, as Stripe's automatic retries would.
const RetryAfter = 3 * 24 * time.Hour

// SignedEvent is one event as Stripe would post it.
type SignedEvent struct {
	ID, Type  string
	Body      []byte
	Signature string
}

type fakeSub struct {
	obj       map[string]any
	account   string
	amount    int64
	currency  string
	interval  string
	count     int
	periodEnd time.Time
	canceled  bool
	cancelAt  time.Time // cancel_at: the subscription ends instead of renewing then
	schedule  string    // its subscription schedule (schedules.go)
	// collection is send_invoice for a subscription the customer pays by
	// other means: its renewals are invoiced and left open, never charged.
	collection   string
	daysUntilDue int64
	phases       []fakePhase
}

type fakeInvoice struct {
	obj       map[string]any
	account   string
	sub       *fakeSub
	nextRetry time.Time
	// payWith is the payment method an invoice pay named (methods.go).
	payWith string
}

type billingState struct {
	subs     map[string]*fakeSub
	subOrder []string
	invoices map[string]*fakeInvoice
	invOrder []string
	charges  int
	events   int
	secret   string
	// decide says whether an invoice charge is declined (a decline code)
	// or succeeds (""), by subscription id, the invoice's number in the
	// subscription (1, 2, ...) and the attempt (1, 2, ...).
	decide func(sub string, invoice, attempt int) string
	perSub map[string]int
	// unreadable are subscriptions whose reads fail (setups.go).
	unreadable map[string]bool
}

func (f *Fake) billing() *billingState {
	if f.bill == nil {
		f.bill = &billingState{subs: map[string]*fakeSub{}, invoices: map[string]*fakeInvoice{}, perSub: map[string]int{}}
	}
	return f.bill
}

// SetEventSecret sets the secret the fake signs its billing events with.
func (f *Fake) SetEventSecret(secret string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.billing().secret = secret
}

// DeclineRenewals scripts renewal charges: decide returns a decline code for
// a declined charge, "" for a successful one.
func (f *Fake) DeclineRenewals(decide func(sub string, invoice, attempt int) string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.billing().decide = decide
}

// InvoiceCharges is how many invoice charges the fake made (successful or
// declined): every charge attempt of a renewal.
func (f *Fake) InvoiceCharges() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.billing().charges
}

// Subscriptions returns the ids of the subscriptions created, in order.
func (f *Fake) Subscriptions() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]string(nil), f.billing().subOrder...)
}

// InvoiceObject returns an invoice as a JSON object.
func (f *Fake) InvoiceObject(id string) []byte {
	f.mu.Lock()
	defer f.mu.Unlock()
	inv := f.billing().invoices[id]
	if inv == nil {
		return nil
	}
	raw, _ := json.Marshal(inv.obj)
	return raw
}

// Advance moves the billing clock of every subscription to now: each
// subscription whose period ends by then is invoiced and charged, period by
// period, and each declined invoice whose retry falls by then is charged
// again. It returns the events Stripe would post, in order.
func (f *Fake) Advance(now time.Time) []SignedEvent {
	f.mu.Lock()
	defer f.mu.Unlock()
	b := f.billing()
	var out []SignedEvent
	for {
		// The earliest thing due: a renewal or a retry.
		var (
			due  time.Time
			sub  *fakeSub
			inv  *fakeInvoice
			some bool
		)
		for _, id := range b.subOrder {
			s := b.subs[id]
			if !s.canceled && !s.periodEnd.After(now) && (!some || s.periodEnd.Before(due)) {
				due, sub, inv, some = s.periodEnd, s, nil, true
			}
		}
		for _, id := range b.invOrder {
			i := b.invoices[id]
			if !i.nextRetry.IsZero() && i.retries() && !i.nextRetry.After(now) && (!some || i.nextRetry.Before(due)) {
				due, sub, inv, some = i.nextRetry, nil, i, true
			}
		}
		if !some {
			return out
		}
		if inv != nil {
			out = append(out, f.chargeInvoice(inv, due)...)
			continue
		}
		if !sub.cancelAt.IsZero() && !sub.periodEnd.Before(sub.cancelAt) {
			sub.canceled = true
			sub.obj["status"], sub.obj["canceled_at"] = "canceled", due.Unix()
			out = append(out, f.event("customer.subscription.deleted", sub.account, sub.obj))
			continue
		}
		out = append(out, f.renew(sub, due)...)
	}
}

// renew invoices one period of s at clock time at (f.mu held).
func (f *Fake) renew(s *fakeSub, at time.Time) []SignedEvent {
	b := f.billing()
	start := s.periodEnd
	s.applyPhase(start)
	end := addInterval(start, s.interval, s.count)
	s.periodEnd = end
	s.obj["current_period_start"] = start.Unix()
	s.obj["current_period_end"] = end.Unix()
	s.obj["trial_end"] = nil
	f.seq++
	id := fmt.Sprintf("in_fake%d", f.seq)
	b.perSub[s.obj["id"].(string)]++
	meta, _ := s.obj["metadata"].(map[string]string)
	obj := map[string]any{"id": id, "object": "invoice", "status": "open", "subscription": s.obj["id"],
		"customer": s.obj["customer"], "currency": s.currency, "amount_due": s.amount, "amount_paid": 0,
		"amount_remaining": s.amount, "total": s.amount, "subtotal": s.amount, "attempt_count": 0,
		"created": at.Unix(), "period_start": start.Unix(), "period_end": start.Unix(),
		"billing_reason": "subscription_cycle", "collection_method": "charge_automatically",
		"subscription_details": map[string]any{"metadata": meta},
		"metadata":             map[string]string{"sequence": strconv.Itoa(b.perSub[s.obj["id"].(string)])},
		"lines": map[string]any{"object": "list", "has_more": false, "url": "/v1/invoices/" + id + "/lines",
			"data": []any{map[string]any{"id": "il_" + id, "object": "line_item", "type": "subscription", "amount": s.amount, "currency": s.currency,
				"description": "1 x membership", "quantity": 1,
				"period": map[string]any{"start": start.Unix(), "end": end.Unix()}}}},
	}
	if extra, sum := f.takeItems(s.obj["id"].(string), id, start); len(extra) > 0 {
		lines := obj["lines"].(map[string]any)
		lines["data"] = append(lines["data"].([]any), extra...)
		due := s.amount + sum
		obj["amount_due"], obj["amount_remaining"], obj["total"], obj["subtotal"] = due, due, due, due
	}
	inv := &fakeInvoice{obj: obj, account: s.account, sub: s}
	b.invoices[id] = inv
	b.invOrder = append(b.invOrder, id)
	out := []SignedEvent{f.event("invoice.created", s.account, obj)}
	if obj["amount_due"].(int64) <= 0 {
		// Stripe pays an invoice of nothing to pay at once, charging nothing.
		obj["status"], obj["amount_remaining"], obj["next_payment_attempt"] = "paid", int64(0), nil
		obj["status_transitions"] = map[string]any{"paid_at": at.Unix()}
		return append(out, f.event("invoice.paid", s.account, obj))
	}
	if s.collection == "send_invoice" {
		// Sent to the customer to pay by other means: open until paid out
		// of band, never charged, no retries.
		obj["collection_method"] = "send_invoice"
		obj["due_date"] = at.Add(time.Duration(s.daysUntilDue) * 24 * time.Hour).Unix()
		obj["next_payment_attempt"] = nil
		return out
	}
	return append(out, f.chargeInvoice(inv, at)...)
}

// chargeInvoice charges an open invoice at clock time at (f.mu held) and
// returns the events of the outcome.
func (f *Fake) chargeInvoice(inv *fakeInvoice, at time.Time) []SignedEvent {
	b := f.billing()
	inv.nextRetry = time.Time{}
	if inv.obj["status"] != "open" {
		return nil
	}
	decline := f.decline(inv)
	b.charges++
	inv.obj["attempt_count"] = inv.obj["attempt_count"].(int) + 1
	f.seq++
	pi := map[string]any{"id": fmt.Sprintf("pi_fake%d", f.seq), "object": "payment_intent", "amount": inv.obj["amount_due"],
		"currency": inv.obj["currency"], "status": "succeeded", "invoice": inv.obj["id"], "created": at.Unix()}
	if decline != "" {
		pi["status"] = "requires_payment_method"
		pi["last_payment_error"] = map[string]any{"type": "card_error", "code": "card_declined", "decline_code": decline}
	}
	inv.obj["payment_intent"] = pi
	if decline == "" {
		if evs, held := f.holdInvoiceCharge(inv, pi, at); held { // methods.go
			return evs
		}
	}
	if decline != "" {
		inv.nextRetry = at.Add(RetryAfter)
		inv.obj["next_payment_attempt"] = inv.nextRetry.Unix()
		inv.sub.obj["status"] = "past_due"
		return []SignedEvent{f.event("invoice.payment_failed", inv.account, inv.obj),
			f.event("customer.subscription.updated", inv.account, inv.sub.obj)}
	}
	inv.obj["status"] = "paid"
	inv.obj["amount_paid"] = inv.obj["amount_due"]
	inv.obj["amount_remaining"] = 0
	inv.obj["next_payment_attempt"] = nil
	inv.obj["status_transitions"] = map[string]any{"paid_at": at.Unix()}
	out := []SignedEvent{f.event("invoice.paid", inv.account, inv.obj)}
	if inv.sub.obj["status"] != "active" {
		inv.sub.obj["status"] = "active"
		out = append(out, f.event("customer.subscription.updated", inv.account, inv.sub.obj))
	}
	return out
}

func (f *Fake) decline(inv *fakeInvoice) string {
	b := f.billing()
	if b.decide == nil {
		return ""
	}
	var n int
	if m, ok := inv.obj["metadata"].(map[string]string); ok {
		n, _ = strconv.Atoi(m["sequence"])
	}
	return b.decide(inv.sub.obj["id"].(string), n, inv.obj["attempt_count"].(int)+1)
}

// event signs an event about obj (f.mu held).
func (f *Fake) event(typ, account string, obj map[string]any) SignedEvent {
	b := f.billing()
	b.events++
	f.seq++
	id := fmt.Sprintf("evt_fake%d", f.seq)
	raw, _ := json.Marshal(obj)
	body, sig := Event(id, typ, account, raw, b.secret)
	return SignedEvent{ID: id, Type: typ, Body: body, Signature: sig}
}

func addInterval(t time.Time, interval string, n int) time.Time {
	switch interval {
	case "day":
		return t.AddDate(0, 0, n)
	case "week":
		return t.AddDate(0, 0, 7*n)
	case "year":
		return t.AddDate(n, 0, 0)
	}
	return t.AddDate(0, n, 0)
}

// serveBilling answers the Billing endpoints; false means the request is
// another endpoint's.
func (f *Fake) serveBilling(w http.ResponseWriter, r *http.Request, key string) bool {
	account := r.Header.Get("Stripe-Account")
	if f.serveInvoiceItems(w, r, key) || f.serveCreditNotes(w, r, key) || f.serveInvoiceUpdate(w, r, key) || f.serveScheduleRead(w, r) || f.serveSchedules(w, r, key) {
		return true
	}
	switch {
	case r.Method == http.MethodPost && r.URL.Path == "/v1/products":
		f.replayOr(w, key, func() map[string]any {
			f.seq++
			return map[string]any{"id": fmt.Sprintf("prod_fake%d", f.seq), "object": "product", "name": r.PostForm.Get("name")}
		})
	case r.Method == http.MethodPost && r.URL.Path == "/v1/subscriptions":
		f.createSubscriptionAnswer(w, r, key, account) // subfaults.go
	case r.Method == http.MethodGet && r.URL.Path == "/v1/subscriptions/search":
		f.searchSubscriptions(w, r) // subfaults.go
	case r.Method == http.MethodPost && strings.HasPrefix(r.URL.Path, "/v1/subscriptions/"):
		if f.subUpdateBefore(w, key, strings.TrimPrefix(r.URL.Path, "/v1/subscriptions/")) {
			return true
		}
		f.mu.Lock()
		s := f.billing().subs[strings.TrimPrefix(r.URL.Path, "/v1/subscriptions/")]
		var raw []byte
		if s != nil {
			if v := r.PostForm.Get("trial_end"); v != "" {
				sec, _ := strconv.ParseInt(v, 10, 64)
				s.periodEnd = time.Unix(sec, 0).UTC()
				s.obj["trial_end"] = sec
				s.obj["current_period_end"] = sec
			}
			if v := r.PostForm.Get("cancel_at"); v != "" {
				sec, _ := strconv.ParseInt(v, 10, 64)
				s.cancelAt = time.Unix(sec, 0).UTC()
				s.obj["cancel_at"] = sec
			}
			if v := r.PostForm.Get("collection_method"); v != "" {
				s.collection = v
				s.obj["collection_method"] = v
				s.daysUntilDue, _ = strconv.ParseInt(r.PostForm.Get("days_until_due"), 10, 64)
				s.obj["days_until_due"] = s.daysUntilDue
			}
			if v := r.PostForm.Get("items[0][price_data][unit_amount]"); v != "" {
				s.amount, _ = strconv.ParseInt(v, 10, 64)
				s.obj["items"] = items(s)
			}
			raw, _ = json.Marshal(s.obj)
		}
		f.mu.Unlock()
		if s == nil {
			notFound(w)
			return true
		}
		if f.subUpdateAfter(w, key, strings.TrimPrefix(r.URL.Path, "/v1/subscriptions/"), raw) {
			return true
		}
		writeRaw(w, 200, raw)
	case r.Method == http.MethodGet && strings.HasPrefix(r.URL.Path, "/v1/subscriptions/"):
		f.getSubscription(w, strings.TrimPrefix(r.URL.Path, "/v1/subscriptions/"))
	case r.Method == http.MethodGet && strings.HasPrefix(r.URL.Path, "/v1/invoices/"):
		f.mu.Lock()
		inv := f.billing().invoices[strings.TrimPrefix(r.URL.Path, "/v1/invoices/")]
		var raw []byte
		if inv != nil {
			raw, _ = json.Marshal(inv.obj)
		}
		f.mu.Unlock()
		if inv == nil {
			notFound(w)
			return true
		}
		writeRaw(w, 200, raw)
	case r.Method == http.MethodPost && strings.HasPrefix(r.URL.Path, "/v1/invoices/") && strings.HasSuffix(r.URL.Path, "/pay"):
		f.payInvoice(w, key, strings.TrimSuffix(strings.TrimPrefix(r.URL.Path, "/v1/invoices/"), "/pay"), r.PostForm.Get("paid_out_of_band") == "true",
			r.PostForm.Get("payment_method"))
	default:
		return false
	}
	return true
}

func items(s *fakeSub) map[string]any {
	return map[string]any{"object": "list", "data": []any{map[string]any{"id": "si_" + s.obj["id"].(string), "object": "subscription_item",
		"price": map[string]any{"id": "price_" + s.obj["id"].(string), "object": "price", "unit_amount": s.amount, "currency": s.currency,
			"product": s.obj["product"], "recurring": map[string]any{"interval": s.interval, "interval_count": s.count}}}}}
}

// createSubscription makes a subscription (f.mu held by replayOr).
func (f *Fake) createSubscription(r *http.Request, account string) map[string]any {
	b := f.billing()
	f.seq++
	id := fmt.Sprintf("sub_fake%d", f.seq)
	amount, _ := strconv.ParseInt(r.PostForm.Get("items[0][price_data][unit_amount]"), 10, 64)
	count, _ := strconv.Atoi(r.PostForm.Get("items[0][price_data][recurring][interval_count]"))
	if count == 0 {
		count = 1
	}
	trial, _ := strconv.ParseInt(r.PostForm.Get("trial_end"), 10, 64)
	meta := map[string]string{}
	for k, v := range r.PostForm {
		if strings.HasPrefix(k, "metadata[") && len(v) > 0 {
			meta[strings.TrimSuffix(strings.TrimPrefix(k, "metadata["), "]")] = v[0]
		}
	}
	s := &fakeSub{account: account, amount: amount, currency: r.PostForm.Get("items[0][price_data][currency]"),
		interval: r.PostForm.Get("items[0][price_data][recurring][interval]"), count: count,
		periodEnd: time.Unix(trial, 0).UTC()}
	s.obj = map[string]any{"id": id, "object": "subscription", "status": "trialing", "customer": r.PostForm.Get("customer"),
		"default_payment_method": r.PostForm.Get("default_payment_method"), "metadata": meta,
		"product":   r.PostForm.Get("items[0][price_data][product]"),
		"trial_end": trial, "current_period_end": trial, "created": time.Now().Unix()}
	s.obj["items"] = items(s)
	b.subs[id] = s
	b.subOrder = append(b.subOrder, id)
	return s.obj
}

// payInvoice charges an open invoice on request (a member's or staff's
// retry), replaying a repeated idempotency key.
func (f *Fake) payInvoice(w http.ResponseWriter, key, id string, outOfBand bool, paymentMethod string) {
	f.mu.Lock()
	if raw, ok := f.stored[key]; ok && key != "" {
		st := f.storedSt[key]
		f.mu.Unlock()
		if !f.dropIf(w, &f.subFaults.payDrop) {
			writeRaw(w, st, raw)
		}
		return
	}
	if f.subFaults.payRefuse > 0 {
		f.subFaults.payRefuse--
		f.mu.Unlock()
		refused(w)
		return
	}
	if !outOfBand && f.refuseCharge() { // methods.go
		f.mu.Unlock()
		refusedCharge(w)
		return
	}
	if f.subFaults.payFail500 > 0 {
		f.subFaults.payFail500--
		f.mu.Unlock()
		writeRaw(w, 500, []byte(`{"error":{"type":"api_error","message":"an error occurred"}}`))
		return
	}
	inv := f.billing().invoices[id]
	if inv == nil {
		f.mu.Unlock()
		notFound(w)
		return
	}
	var raw []byte
	status := http.StatusOK
	if inv.obj["status"] == "paid" {
		raw, _ = json.Marshal(map[string]any{"error": map[string]any{"type": "invalid_request_error",
			"code": "invoice_already_paid", "message": "Invoice is already paid"}})
		status = http.StatusBadRequest
	} else if outOfBand {
		inv.nextRetry = time.Time{}
		inv.obj["status"] = "paid"
		inv.obj["paid_out_of_band"] = true
		inv.obj["amount_remaining"] = 0
		inv.obj["next_payment_attempt"] = nil
		raw, _ = json.Marshal(inv.obj)
		f.pending = append(f.pending, f.event("invoice.paid", inv.account, inv.obj))
	} else {
		inv.payWith = paymentMethod
		evs := f.chargeInvoice(inv, time.Now())
		inv.payWith = ""
		f.pending = append(f.pending, evs...)
		raw, _ = json.Marshal(inv.obj)
		if body, st, ok := invoicePayWaiting(inv); ok { // methods.go
			raw, status = body, st
		} else if inv.obj["status"] != "paid" {
			pim, _ := inv.obj["payment_intent"].(map[string]any)
			lpe, _ := pim["last_payment_error"].(map[string]any)
			pi, _ := json.Marshal(pim)
			raw, _ = json.Marshal(map[string]any{"error": map[string]any{"type": "card_error", "code": "card_declined",
				"decline_code": lpe["decline_code"], "message": "Your card was declined.", "payment_intent": json.RawMessage(pi)}})
			status = http.StatusPaymentRequired
		}
	}
	f.stored[key], f.storedSt[key] = raw, status
	f.mu.Unlock()
	if !f.dropIf(w, &f.subFaults.payDrop) {
		writeRaw(w, status, raw)
	}
}

// TakeEvents returns and forgets the events of invoices paid on request
// (through /v1/invoices/{id}/pay), which Stripe would post as well.
func (f *Fake) TakeEvents() []SignedEvent {
	f.mu.Lock()
	defer f.mu.Unlock()
	out := f.pending
	f.pending = nil
	return out
}

// SortEvents orders events by id (the order the fake made them).
func SortEvents(evs []SignedEvent) {
	sort.SliceStable(evs, func(i, j int) bool {
		return len(evs[i].ID) < len(evs[j].ID) || (len(evs[i].ID) == len(evs[j].ID) && evs[i].ID < evs[j].ID)
	})
}

// PaidInvoices counts the invoices paid at the fake (by a charge or out of
// band) and sums their amounts: what the venue's books must hold.
func (f *Fake) PaidInvoices() (n int, total int64) {
	f.mu.Lock()
	defer f.mu.Unlock()
	for _, inv := range f.billing().invoices {
		if inv.obj["status"] == "paid" {
			n++
			total += inv.obj["amount_due"].(int64)
		}
	}
	return n, total
}

// Invoices counts the invoices the fake made.
func (f *Fake) Invoices() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return len(f.billing().invoices)
}

// getSubscription answers GET /v1/subscriptions/{id}.
func (f *Fake) getSubscription(w http.ResponseWriter, id string) {
	f.mu.Lock()
	if f.billing().unreadable[id] {
		f.mu.Unlock()
		writeRaw(w, 400, []byte(`{"error":{"type":"api_error","code":"processing_error","message":"An error occurred while processing the request"}}`))
		return
	}
	s := f.billing().subs[id]
	var raw []byte
	if s != nil {
		raw, _ = json.Marshal(s.obj)
	}
	f.mu.Unlock()
	if s == nil {
		notFound(w)
		return
	}
	writeRaw(w, 200, raw)
}

// SubscriptionAmount is what each period of a subscription costs at the
// fake, and when its next invoice falls.
func (f *Fake) SubscriptionAmount(id string) (amount int64, next time.Time) {
	f.mu.Lock()
	defer f.mu.Unlock()
	s := f.billing().subs[id]
	if s == nil {
		return 0, time.Time{}
	}
	return s.amount, s.periodEnd
}
