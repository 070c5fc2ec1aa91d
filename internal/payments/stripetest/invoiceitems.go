package stripetest

import (
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// Pending invoice items in the fake: created on a subscription, they are
// added to its next invoice (renew), as Stripe does; a pending one can be
// deleted, an invoiced one cannot. An invoice whose total is zero (a comped
// period) is paid at once without a charge, as Stripe pays a zero invoice.

type fakeItem struct {
	obj      map[string]any
	sub      string
	amount   int64
	invoiced bool
}

// InvoiceItemsOf returns the amounts of the pending (not yet invoiced)
// items of a subscription.
func (f *Fake) InvoiceItemsOf(sub string) []int64 {
	f.mu.Lock()
	defer f.mu.Unlock()
	var out []int64
	for _, it := range f.items {
		if it.sub == sub && !it.invoiced {
			out = append(out, it.amount)
		}
	}
	return out
}

// InvoiceAmounts returns the amount due of each invoice of a subscription,
// in order.
func (f *Fake) InvoiceAmounts(sub string) []int64 {
	f.mu.Lock()
	defer f.mu.Unlock()
	var out []int64
	for _, id := range f.billing().invOrder {
		inv := f.billing().invoices[id]
		if inv.sub != nil && inv.sub.obj["id"] == sub {
			out = append(out, inv.obj["amount_due"].(int64))
		}
	}
	return out
}

// serveInvoiceItems answers /v1/invoiceitems; false means another endpoint.
func (f *Fake) serveInvoiceItems(w http.ResponseWriter, r *http.Request, key string) bool {
	switch {
	case r.Method == http.MethodPost && r.URL.Path == "/v1/invoiceitems":
		f.mu.Lock()
		sub := f.billing().subs[r.PostForm.Get("subscription")]
		f.mu.Unlock()
		if sub == nil {
			notFound(w)
			return true
		}
		f.replayOr(w, key, func() map[string]any {
			f.seq++
			amount, _ := strconv.ParseInt(r.PostForm.Get("amount"), 10, 64)
			meta := map[string]string{}
			for k, v := range r.PostForm {
				if strings.HasPrefix(k, "metadata[") && len(v) > 0 {
					meta[strings.TrimSuffix(strings.TrimPrefix(k, "metadata["), "]")] = v[0]
				}
			}
			obj := map[string]any{"id": fmt.Sprintf("ii_fake%d", f.seq), "object": "invoiceitem", "amount": amount,
				"currency": r.PostForm.Get("currency"), "customer": r.PostForm.Get("customer"),
				"subscription": r.PostForm.Get("subscription"), "description": r.PostForm.Get("description"),
				"metadata": meta, "invoice": nil, "date": time.Now().Unix()}
			if f.items == nil {
				f.items = map[string]*fakeItem{}
			}
			f.items[obj["id"].(string)] = &fakeItem{obj: obj, sub: r.PostForm.Get("subscription"), amount: amount}
			f.itemOrder = append(f.itemOrder, obj["id"].(string))
			return obj
		})
	case r.Method == http.MethodDelete && strings.HasPrefix(r.URL.Path, "/v1/invoiceitems/"):
		id := strings.TrimPrefix(r.URL.Path, "/v1/invoiceitems/")
		f.mu.Lock()
		it := f.items[id]
		switch {
		case it == nil:
			f.mu.Unlock()
			notFound(w)
		case it.invoiced:
			f.mu.Unlock()
			writeRaw(w, 400, []byte(`{"error":{"type":"invalid_request_error","code":"invoice_item_invoiced","message":"This invoice item has already been invoiced"}}`))
		default:
			delete(f.items, id)
			f.mu.Unlock()
			writeRaw(w, 200, []byte(`{"id":"`+id+`","object":"invoiceitem","deleted":true}`))
		}
	default:
		return false
	}
	return true
}

// takeItems returns the lines of the pending items of sub and their sum,
// marking them invoiced (f.mu held).
func (f *Fake) takeItems(sub, invoice string, start time.Time) (lines []any, sum int64) {
	for _, id := range f.itemOrder {
		it := f.items[id]
		if it == nil || it.sub != sub || it.invoiced {
			continue
		}
		it.invoiced = true
		it.obj["invoice"] = invoice
		sum += it.amount
		lines = append(lines, map[string]any{"id": "il_" + id, "object": "line_item", "type": "invoiceitem",
			"amount": it.amount, "currency": it.obj["currency"], "description": it.obj["description"], "quantity": 1,
			"invoice_item": id, "period": map[string]any{"start": start.Unix(), "end": start.Unix()}})
	}
	return lines, sum
}
