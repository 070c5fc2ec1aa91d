package billing

import (
	"bytes"
	"context"
	"html/template"
	"time"

	"github.com/venueplatform/venue/ent"
	"github.com/venueplatform/venue/ent/organization"
	"github.com/venueplatform/venue/internal/money"
)

var documentTmpl = template.Must(template.New("invoice").Parse(`<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>Invoice {{.Number}}</title>
<style>
body{font-family:Helvetica,Arial,sans-serif;color:#111;max-width:720px;margin:32px auto;padding:0 16px}
h1{font-size:22px;margin:0 0 4px}table{width:100%;border-collapse:collapse;margin-top:24px}
th,td{text-align:left;padding:8px;border-bottom:1px solid #ddd}td.n,th.n{text-align:right}
.totals td{border:none;padding:4px 8px}.status{display:inline-block;padding:2px 8px;border:1px solid #999;border-radius:4px}
@media print{body{margin:0}.status{border-color:#000}}
</style></head><body>
<h1>{{.Venue}}</h1>
<p>Invoice <strong>{{.Number}}</strong> <span class="status">{{.Status}}</span></p>
<p>Issued {{.Issued}} &middot; Due {{.Due}}{{if .Paid}} &middot; Paid {{.Paid}}{{end}}</p>
<table><thead><tr><th>Description</th><th>Period</th><th class="n">VAT</th><th class="n">Amount</th></tr></thead><tbody>
{{range .Lines}}<tr><td>{{.Description}}</td><td>{{.Period}}</td><td class="n">{{.VAT}} ({{.Rate}})</td><td class="n">{{.Amount}}</td></tr>
{{end}}</tbody></table>
<table class="totals">
<tr><td class="n">Subtotal</td><td class="n">{{.Subtotal}}</td></tr>
<tr><td class="n">Discount</td><td class="n">{{.Discount}}</td></tr>
<tr><td class="n">VAT included</td><td class="n">{{.VAT}}</td></tr>
<tr><td class="n"><strong>Total</strong></td><td class="n"><strong>{{.Total}}</strong></td></tr>
<tr><td class="n">Paid</td><td class="n">{{.AmountPaid}}</td></tr>
<tr><td class="n"><strong>Balance due</strong></td><td class="n"><strong>{{.Balance}}</strong></td></tr>
</table>
</body></html>
`))

type docLine struct{ Description, Period, VAT, Rate, Amount string }

// Document renders an invoice as a self-contained, print-ready HTML page.
func (s *Service) Document(ctx context.Context, row *ent.Invoice) ([]byte, error) {
	org, err := s.client.Organization.Query().Where(organization.ID(row.OrganizationID)).Only(ctx)
	if err != nil {
		return nil, err
	}
	f := func(minor int64) string { return money.Format(minor, row.Currency) }
	data := map[string]any{"Venue": org.Name, "Number": row.Number, "Status": string(row.Status),
		"Issued": row.IssuedAt.UTC().Format(time.DateOnly), "Due": row.DueDate.Format(time.DateOnly),
		"Subtotal": f(row.SubtotalMinor), "Discount": f(row.DiscountMinor), "VAT": f(row.VatMinor),
		"Total": f(row.TotalMinor), "AmountPaid": f(row.AmountPaidMinor), "Balance": f(Balance(row))}
	if row.PaidAt != nil {
		data["Paid"] = row.PaidAt.UTC().Format(time.DateOnly)
	}
	var lines []docLine
	for _, l := range row.Lines {
		period := ""
		if l.PeriodStart != "" {
			period = l.PeriodStart + " to " + l.PeriodEnd
		}
		lines = append(lines, docLine{Description: l.Description, Period: period, VAT: f(l.VatMinor),
			Rate: percent(l.VatRateBp), Amount: f(l.AmountMinor)})
	}
	data["Lines"] = lines
	var b bytes.Buffer
	if err := documentTmpl.Execute(&b, data); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

func percent(bp int) string {
	whole, frac := bp/100, bp%100
	if frac == 0 {
		return itoa(whole) + " %"
	}
	f := itoa(frac)
	if frac < 10 {
		f = "0" + f
	}
	return itoa(whole) + "." + f + " %"
}

func itoa(n int) string {
	if n == 0 {
		return "0"
	}
	var b []byte
	for n > 0 {
		b = append([]byte{byte('0' + n%10)}, b...)
		n /= 10
	}
	return string(b)
}
