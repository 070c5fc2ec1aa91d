package stripetest

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
)

// serveCreditNotes answers POST /v1/credit_notes on an open invoice with an
// out-of-band amount: the invoice's amount due falls by it (a repeated key
// replays the first answer); false means the request is another endpoint's.
func (f *Fake) serveCreditNotes(w http.ResponseWriter, r *http.Request, key string) bool {
	if r.Method != http.MethodPost || r.URL.Path != "/v1/credit_notes" {
		return false
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	if raw, ok := f.stored[key]; ok && key != "" {
		writeRaw(w, 200, raw)
		return true
	}
	inv := f.billing().invoices[r.PostForm.Get("invoice")]
	amount, _ := strconv.ParseInt(r.PostForm.Get("amount"), 10, 64)
	oob, _ := strconv.ParseInt(r.PostForm.Get("out_of_band_amount"), 10, 64)
	if inv == nil {
		notFound(w)
		return true
	}
	due, _ := inv.obj["amount_due"].(int64)
	if inv.obj["status"] != "open" || amount <= 0 || oob != amount || amount >= due {
		writeRaw(w, 400, []byte(`{"error":{"type":"invalid_request_error","code":"parameter_invalid_integer","message":"invalid credit note amount"}}`))
		return true
	}
	inv.obj["amount_due"] = due - amount
	inv.obj["amount_remaining"] = due - amount
	f.seq++
	note := map[string]any{"id": fmt.Sprintf("cn_fake%d", f.seq), "object": "credit_note", "invoice": inv.obj["id"],
		"amount": amount, "out_of_band_amount": oob, "currency": inv.obj["currency"], "status": "issued"}
	raw, _ := json.Marshal(note)
	f.stored[key] = raw
	writeRaw(w, 200, raw)
	return true
}

// InvoiceAmountDue is what Stripe would still charge of an invoice.
func (f *Fake) InvoiceAmountDue(id string) int64 {
	f.mu.Lock()
	defer f.mu.Unlock()
	if inv := f.billing().invoices[id]; inv != nil {
		due, _ := inv.obj["amount_due"].(int64)
		return due
	}
	return -1
}
