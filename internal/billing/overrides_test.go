package billing_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/stretchr/testify/require"

	"github.com/venueplatform/venue/ent/invoice"
	"github.com/venueplatform/venue/ent/paymentoverride"
	"github.com/venueplatform/venue/ent/subscription"
	"github.com/venueplatform/venue/internal/billing"
	"github.com/venueplatform/venue/internal/venue"
	"github.com/venueplatform/venue/internal/viewer"
)

func date(t testing.TB, s string) time.Time {
	t.Helper()
	d, err := time.Parse(time.DateOnly, s)
	require.NoError(t, err)
	return d
}

// overrideCount is how many override rows the venue holds.
func (e *env) overrideCount(t testing.TB) int {
	t.Helper()
	var n int
	require.NoError(t, e.pool.QueryRow(context.Background(), `SELECT count(*) FROM payment_overrides WHERE organization_id = $1`, e.org).Scan(&n))
	return n
}

// TestPaymentOverridesRenew: a comped period is invoiced at zero and nothing
// is charged, an overridden one charges the override, the next one the
// price again; the override of the next period is a pending invoice item at
// Stripe, the one after gets its item once the period before is invoiced;
// invoiced overrides are locked; bad choices change nothing.
func TestPaymentOverridesRenew(t *testing.T) {
	e := newEnv(t, 1)
	ctx := context.Background()
	e.clock.Now = e.start.Add(-48 * time.Hour)
	pass := e.passes[0]
	sub := e.client.Subscription.Query().Where(subscription.PassID(pass)).OnlyX(e.op)

	ov, err := e.svc.ListOverrides(e.op, pass, 6)
	require.NoError(t, err)
	require.Len(t, ov.Periods, 6)
	p1, p2, p3 := ov.Periods[0], ov.Periods[1], ov.Periods[2]
	require.True(t, p1.Start.Equal(e.start), "the next period starts at the pass's end")
	require.Equal(t, int64(49900), p1.Amount)
	_, err = e.svc.ListOverrides(e.op, pass, 37)
	require.Error(t, err)

	comp, err := e.svc.CreateOverrides(e.op, pass, billing.OverrideChoice{Mode: "periods", Dates: []time.Time{date(t, p1.Date)}}, 0, "injury")
	require.NoError(t, err)
	require.Len(t, comp, 1)
	require.Equal(t, []int64{-49900}, e.fake.InvoiceItemsOf(*sub.ProcessorSubscriptionID), "the next period's item at Stripe")
	half, err := e.svc.CreateOverrides(e.op, pass, billing.OverrideChoice{Mode: "range", From: date(t, p2.Date), To: date(t, p2.Date).AddDate(0, 0, 3)}, 25000, "")
	require.NoError(t, err)
	require.Len(t, half, 1)
	require.Len(t, e.fake.InvoiceItemsOf(*sub.ProcessorSubscriptionID), 1, "a later period waits for the one before")

	// Refusals change nothing.
	before := e.overrideCount(t)
	for _, c := range []struct {
		choice billing.OverrideChoice
		amount int64
		code   string
	}{
		{billing.OverrideChoice{Mode: "periods", Dates: []time.Time{date(t, p1.Date)}}, 100, billing.CodeOverrideConflict},
		{billing.OverrideChoice{Mode: "periods", Dates: []time.Time{date(t, p3.Date), date(t, p2.Date)}}, 100, billing.CodeOverrideConflict},
		{billing.OverrideChoice{Mode: "periods", Dates: []time.Time{date(t, p3.Date).AddDate(0, 0, 1)}}, 100, billing.CodeInvalidRange},
		{billing.OverrideChoice{Mode: "periods", Dates: []time.Time{date(t, p1.Date).AddDate(0, -1, 0)}}, 100, billing.CodeInvalidRange},
		{billing.OverrideChoice{Mode: "range", From: date(t, p3.Date), To: date(t, p2.Date)}, 100, billing.CodeInvalidRange},
		{billing.OverrideChoice{Mode: "range", From: date(t, p3.Date).AddDate(0, 0, 1), To: date(t, p3.Date).AddDate(0, 0, 5)}, 100, billing.CodeInvalidRange},
		{billing.OverrideChoice{Mode: "range", From: date(t, p1.Date).AddDate(4, 0, 0), To: date(t, p1.Date).AddDate(5, 0, 0)}, 100, billing.CodeInvalidRange},
		{billing.OverrideChoice{Mode: "periods", Dates: []time.Time{date(t, p3.Date)}}, -1, "VALIDATION_ERROR"},
	} {
		_, err := e.svc.CreateOverrides(e.op, pass, c.choice, c.amount, "")
		require.Equal(t, c.code, code(t, err), fmt.Sprintf("%+v", c))
	}
	_, err = e.svc.CreateOverrides(e.op, uuid.New(), billing.OverrideChoice{Mode: "periods", Dates: []time.Time{date(t, p3.Date)}}, 0, "")
	require.Equal(t, "NOT_FOUND", code(t, err))
	// Another venue's staff see no such pass.
	other, err := venue.Create(ctx, e.client, venue.CreateParams{Name: "Elsewhere", Slug: "elsewhere-overrides"})
	require.NoError(t, err)
	elsewhere := viewer.NewContext(ctx, viewer.Operator{Org: other.ID, Name: "test"})
	_, err = e.svc.ListOverrides(elsewhere, pass, 6)
	require.Equal(t, "NOT_FOUND", code(t, err))
	_, err = e.svc.CreateOverrides(elsewhere, pass, billing.OverrideChoice{Mode: "periods", Dates: []time.Time{date(t, p3.Date)}}, 0, "")
	require.Equal(t, "NOT_FOUND", code(t, err))
	require.Equal(t, billing.CodeOverrideApplied+"|NOT_FOUND", billing.CodeOverrideApplied+"|"+code(t, e.svc.DeleteOverride(elsewhere, pass, comp[0].ID)))
	require.Equal(t, before, e.overrideCount(t))

	ov, err = e.svc.ListOverrides(e.op, pass, 3)
	require.NoError(t, err)
	require.Equal(t, []int64{0, 25000, 49900}, []int64{ov.Periods[0].Amount, ov.Periods[1].Amount, ov.Periods[2].Amount})

	// The comped period: a zero invoice, paid, nothing charged, the pass rolled on.
	_, err = e.clock.Advance(ctx, e.start.Add(time.Hour))
	require.NoError(t, err)
	require.Zero(t, e.fake.InvoiceCharges(), "a comped period charges nothing")
	inv1 := e.client.Invoice.Query().Where(invoice.SubscriptionID(sub.ID)).OnlyX(e.op)
	require.Equal(t, invoice.StatusPaid, inv1.Status)
	require.Zero(t, inv1.TotalMinor)
	require.True(t, e.client.Pass.GetX(e.op, pass).ValidTo.Equal(p1.End))
	got := e.client.PaymentOverride.GetX(e.op, comp[0].ID)
	require.Equal(t, paymentoverride.StatusApplied, got.Status)
	require.Equal(t, inv1.ID, *got.InvoiceID)
	require.Equal(t, []int64{25000 - 49900}, e.fake.InvoiceItemsOf(*sub.ProcessorSubscriptionID), "the next override reached Stripe after the invoice")

	// Locked now.
	amt := int64(100)
	_, err = e.svc.UpdateOverride(e.op, pass, comp[0].ID, &amt, nil)
	require.Equal(t, billing.CodeOverrideApplied, code(t, err))
	require.Equal(t, billing.CodeOverrideApplied, code(t, e.svc.DeleteOverride(e.op, pass, comp[0].ID)))
	require.Equal(t, int64(0), e.client.PaymentOverride.GetX(e.op, comp[0].ID).AmountMinor)

	// Patch the second before its period: Stripe's item follows.
	amt = 30000
	upd, err := e.svc.UpdateOverride(e.op, pass, half[0].ID, &amt, nil)
	require.NoError(t, err)
	require.Equal(t, int64(30000), upd.AmountMinor)
	require.Equal(t, []int64{30000 - 49900}, e.fake.InvoiceItemsOf(*sub.ProcessorSubscriptionID))

	_, err = e.clock.Advance(ctx, p2.Start.Add(time.Hour))
	require.NoError(t, err)
	_, err = e.clock.Advance(ctx, p3.Start.Add(time.Hour))
	require.NoError(t, err)
	require.Equal(t, []int64{0, 30000, 49900}, e.fake.InvoiceAmounts(*sub.ProcessorSubscriptionID))
	require.Equal(t, 2, e.fake.InvoiceCharges())
	require.Equal(t, paymentoverride.StatusApplied, e.client.PaymentOverride.GetX(e.op, half[0].ID).Status)
	l := e.ledger(t)
	require.Equal(t, int64(30000+49900), l.paymentTotal, "the payment rows hold what was charged")
	require.Equal(t, l.paidTotal, l.paymentTotal)

	// Bulk: set two periods, restore one; a locked one among them changes nothing.
	ov, err = e.svc.ListOverrides(e.op, pass, 3)
	require.NoError(t, err)
	d4, d5 := date(t, ov.Periods[0].Date), date(t, ov.Periods[1].Date)
	set, err := e.svc.BulkOverrides(e.op, pass, "set", billing.OverrideChoice{Mode: "periods", Dates: []time.Time{d4, d5}}, 10000, "promo")
	require.NoError(t, err)
	require.Len(t, set, 2)
	require.Equal(t, []int64{10000 - 49900}, e.fake.InvoiceItemsOf(*sub.ProcessorSubscriptionID))
	_, err = e.svc.BulkOverrides(e.op, pass, "restore", billing.OverrideChoice{Mode: "periods", Dates: []time.Time{d4}}, 0, "")
	require.NoError(t, err)
	require.Empty(t, e.fake.InvoiceItemsOf(*sub.ProcessorSubscriptionID), "restoring the next period drops its item")
	seven := make([]time.Time, 0, 7)
	for _, p := range ov.Periods[:3] {
		seven = append(seven, date(t, p.Date))
	}
	ov7, err := e.svc.ListOverrides(e.op, pass, 7)
	require.NoError(t, err)
	for _, p := range ov7.Periods[3:7] {
		seven = append(seven, date(t, p.Date))
	}
	before = e.overrideCount(t)
	_, err = e.svc.BulkOverrides(e.op, pass, "set", billing.OverrideChoice{Mode: "periods", Dates: seven}, 1, "")
	require.Equal(t, billing.CodeInvalidRange, code(t, err), "at most six")
	require.Equal(t, before, e.overrideCount(t))
	_, err = e.clock.Advance(ctx, d4.Add(25*time.Hour))
	require.NoError(t, err)
	require.Equal(t, []int64{0, 30000, 49900, 49900}, e.fake.InvoiceAmounts(*sub.ProcessorSubscriptionID))
	require.Equal(t, []int64{10000 - 49900}, e.fake.InvoiceItemsOf(*sub.ProcessorSubscriptionID), "the fifth period's override is next")
	var audits int
	require.NoError(t, e.pool.QueryRow(ctx, `SELECT count(*) FROM audit_logs WHERE organization_id = $1 AND action LIKE 'membership.payment_override%'`, e.org).Scan(&audits))
	require.Equal(t, 5, audits, "two creates, one update, two bulks")
}
