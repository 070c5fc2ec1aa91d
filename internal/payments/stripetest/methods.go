package stripetest

import (
	"encoding/json"
	"fmt"
	"net/http"
	"time"
)

// Payment method faults: answers a card (or a customer) gives that the
// scripted outcomes cannot, for the charges of invoices (renewals, their
// retries) and of payment intents (desk charges):
//   - RequireAuthentication: the charge waits on 3-D Secure; an invoice pay
//     is answered 402 invoice_payment_intent_requires_action, its intent
//     requires_action with a client secret;
//   - ProcessSlowly: the intent is processing (a bank debit) until
//     FinishPayment;
//   - AttachPaymentMethod: a saved payment method of another type than card
//     (sepa_debit, us_bank_account);
//   - RefuseNext: the next charges are refused outright (400), as a
//     processor refusing the request rather than the card would.

// methodFaults is the fake's state of payment method faults.
type methodFaults struct {
	auth, slow map[string]bool // payment method or customer ids
	refuse     int
	// waiting are the charges left requires_action or processing, oldest
	// first, until FinishPayment.
	waiting []waitingCharge
}

type waitingCharge struct {
	inv *fakeInvoice   // nil: a payment intent of its own
	pi  map[string]any // the intent
}

func (m *methodFaults) mark(set *map[string]bool, ids []string) {
	if *set == nil {
		*set = map[string]bool{}
	}
	for _, id := range ids {
		(*set)[id] = true
	}
}

// RequireAuthentication makes every charge of these payment methods or
// customers wait on the member's authentication (3-D Secure).
func (f *Fake) RequireAuthentication(ids ...string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.methods.mark(&f.methods.auth, ids)
}

// ProcessSlowly makes every charge of these payment methods or customers
// stay processing until FinishPayment.
func (f *Fake) ProcessSlowly(ids ...string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.methods.mark(&f.methods.slow, ids)
}

// RefuseNext makes the next n charges (an invoice pay, a payment intent)
// answer 400, charging nothing.
func (f *Fake) RefuseNext(n int) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.methods.refuse = n
}

// AttachPaymentMethod saves a payment method of type typ (card,
// sepa_debit, us_bank_account, ...) on a customer.
func (f *Fake) AttachPaymentMethod(customer, id, typ string) {
	if typ == "card" {
		f.AttachCard(customer, id, "visa", "4242", "")
		return
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	f.customers[customer] = append(f.customers[customer], map[string]any{"id": id, "object": "payment_method",
		"type": typ, "customer": customer, typ: map[string]any{"last4": "3000"}})
}

// Waiting is how many charges wait on authentication or processing.
func (f *Fake) Waiting() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return len(f.methods.waiting)
}

// methodStatus is the status a charge of paymentMethod by customer takes
// by its faults: requires_action, processing or "" (f.mu held).
func (f *Fake) methodStatus(paymentMethod, customer string) string {
	m := &f.methods
	switch {
	case m.auth[paymentMethod] || m.auth[customer]:
		return "requires_action"
	case m.slow[paymentMethod] || m.slow[customer]:
		return "processing"
	}
	return ""
}

// refuseCharge reports (and counts) a scripted refusal (f.mu held).
func (f *Fake) refuseCharge() bool {
	if f.methods.refuse <= 0 {
		return false
	}
	f.methods.refuse--
	return true
}

func refusedCharge(w http.ResponseWriter) {
	writeRaw(w, 400, []byte(`{"error":{"type":"invalid_request_error","code":"payment_method_unactivated","message":"The payment method cannot be charged"}}`))
}

// holdInvoiceCharge leaves an invoice's charge waiting when its payment
// method asks for it (f.mu held): the invoice stays open, Stripe does not
// retry it by itself, the intent waits.
func (f *Fake) holdInvoiceCharge(inv *fakeInvoice, pi map[string]any, at time.Time) ([]SignedEvent, bool) {
	pm := inv.payWith
	if pm == "" {
		pm, _ = inv.sub.obj["default_payment_method"].(string)
	}
	cus, _ := inv.obj["customer"].(string)
	st := f.methodStatus(pm, cus)
	if st == "" {
		return nil, false
	}
	pi["status"] = st
	pi["client_secret"] = fmt.Sprint(pi["id"]) + "_secret_fake"
	if st == "requires_action" {
		pi["next_action"] = map[string]any{"type": "use_stripe_sdk"}
	}
	inv.obj["payment_intent"] = pi
	inv.obj["next_payment_attempt"] = nil
	f.methods.waiting = append(f.methods.waiting, waitingCharge{inv: inv, pi: pi})
	if st == "requires_action" {
		return []SignedEvent{f.event("invoice.payment_action_required", inv.account, inv.obj)}, true
	}
	return nil, true
}

// holdIntent leaves a payment intent waiting when its payment method asks
// for it (f.mu held); it returns the status the intent takes, if any.
func (f *Fake) holdIntent(pi map[string]any, paymentMethod string) {
	cus, _ := pi["customer"].(string)
	st := f.methodStatus(paymentMethod, cus)
	if st == "" {
		return
	}
	pi["status"] = st
	f.methods.waiting = append(f.methods.waiting, waitingCharge{pi: pi})
}

// invoicePayWaiting answers an invoice pay whose charge waits: 402
// invoice_payment_intent_requires_action with the intent for 3-D Secure,
// the open invoice for a processing one (f.mu held).
func invoicePayWaiting(inv *fakeInvoice) ([]byte, int, bool) {
	pi, _ := inv.obj["payment_intent"].(map[string]any)
	switch pi["status"] {
	case "requires_action":
		raw, _ := json.Marshal(pi)
		body, _ := json.Marshal(map[string]any{"error": map[string]any{"type": "card_error",
			"code": "invoice_payment_intent_requires_action", "message": "This payment requires additional user action before it can be completed successfully.",
			"payment_intent": json.RawMessage(raw)}})
		return body, http.StatusPaymentRequired, true
	case "processing":
		raw, _ := json.Marshal(inv.obj)
		return raw, http.StatusOK, true
	}
	return nil, 0, false
}

// FinishPayment finishes the oldest waiting charge, as the member's bank
// (or the member's 3-D Secure) would: it succeeds or fails, and the fake
// returns the events Stripe would post (invoice.paid or
// invoice.payment_failed with payment_intent.succeeded or
// payment_intent.payment_failed). Nothing waiting returns nil.
func (f *Fake) FinishPayment(succeed bool) []SignedEvent {
	f.mu.Lock()
	defer f.mu.Unlock()
	if len(f.methods.waiting) == 0 {
		return nil
	}
	w := f.methods.waiting[0]
	f.methods.waiting = f.methods.waiting[1:]
	account := ""
	if w.inv != nil {
		account = w.inv.account
	}
	var out []SignedEvent
	if succeed {
		w.pi["status"] = "succeeded"
		delete(w.pi, "next_action")
		out = append(out, f.event("payment_intent.succeeded", account, w.pi))
	} else {
		code := "payment_intent_payment_attempt_failed"
		if w.pi["status"] == "requires_action" {
			code = "payment_intent_authentication_failure"
		}
		w.pi["status"] = "requires_payment_method"
		delete(w.pi, "next_action")
		w.pi["last_payment_error"] = map[string]any{"type": "card_error", "code": code}
		out = append(out, f.event("payment_intent.payment_failed", account, w.pi))
	}
	if w.inv == nil {
		return out
	}
	inv := w.inv
	inv.obj["payment_intent"] = w.pi
	if !succeed {
		return append(out, f.event("invoice.payment_failed", inv.account, inv.obj))
	}
	now := time.Now()
	inv.obj["status"] = "paid"
	inv.obj["amount_paid"] = inv.obj["amount_due"]
	inv.obj["amount_remaining"] = 0
	inv.obj["status_transitions"] = map[string]any{"paid_at": now.Unix()}
	out = append(out, f.event("invoice.paid", inv.account, inv.obj))
	if inv.sub.obj["status"] != "active" {
		inv.sub.obj["status"] = "active"
		out = append(out, f.event("customer.subscription.updated", inv.account, inv.sub.obj))
	}
	return out
}
