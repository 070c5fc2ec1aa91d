package billing_test

import (
	"flag"
	"testing"
	"time"
)

var benchMembers = flag.Int("billing.members", 200, "memberships of BenchmarkYearOfRenewals")

// BenchmarkYearOfRenewals runs a year of monthly renewals (13 invoices per
// membership, about one in ten declined once and recovered by the retry
// three days later, one in a hundred declined twice and left overdue)
// through the billing clock and the real inbound path, and reports
// renewals/s (invoices settled or left overdue per second of the run) and
// mismatches (invoices paid other than exactly once, gaps in the numbers,
// paid totals against the payment rows, declines not recorded once):
//
//	go test ./internal/billing -run '^$' -bench YearOfRenewals -benchtime 1x -args -billing.members 2000
func BenchmarkYearOfRenewals(b *testing.B) {
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		e := newEnv(b, *benchMembers)
		b.StartTimer()
		began := time.Now()
		runYear(b, e)
		elapsed := time.Since(began)
		b.StopTimer()
		l := e.ledger(b)
		mismatches := len(l.gaps)
		for _, n := range l.perInvoicePayments {
			if n != 1 {
				mismatches++
			}
		}
		if l.paid != l.succeeded {
			mismatches++
		}
		if l.paidTotal != l.paymentTotal {
			mismatches++
		}
		if l.invoices != l.paid+l.open || l.open != l.overdue {
			mismatches++
		}
		if e.fake.InvoiceCharges()-l.paid != l.failed {
			mismatches++
		}
		if l.invoices != 13**benchMembers {
			mismatches++
		}
		b.ReportMetric(float64(l.invoices)/elapsed.Seconds(), "renewals/s")
		b.ReportMetric(float64(mismatches), "mismatches")
		b.ReportMetric(float64(l.invoices), "invoices")
		b.ReportMetric(float64(l.failed), "declines")
		b.ReportMetric(float64(l.open), "left_overdue")
	}
}
