package handlers_test

import (
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/stretchr/testify/require"

	"github.com/venueplatform/venue/ent/passtype"
	"github.com/venueplatform/venue/ent/subscription"
	"github.com/venueplatform/venue/internal/billing"
	"github.com/venueplatform/venue/internal/billing/billingclock"
	api "github.com/venueplatform/venue/internal/gen/api"
	"github.com/venueplatform/venue/internal/model"
)

// bindEnv is a member's monthly membership (599.00 a month) bought online
// with a binding tier or an intro offer, its renewals started.
type bindEnv struct {
	*payEnv
	pass  uuid.UUID
	sub   string
	clock *billingclock.Clock
}

func newBindEnv(t *testing.T, q func(e *payEnv) api.GetCheckoutPreviewParams) *bindEnv {
	t.Helper()
	e := &bindEnv{payEnv: newPayEnv(t, false, false)}
	e.fake.SetEventSecret(paySecret)
	e.studio.client.PassType.Update().Where(passtype.Slug("unlimited")).
		SetBindingTiers([]model.BindingTier{{Months: 6, PriceMinor: 54900}}).ExecX(e.op)
	res, err := e.preview(e.member, q(e.payEnv))
	require.NoError(t, err)
	bought, err := e.buy(e.member, res.Data.DirectPurchaseQuote.Value, "pm_card_visa", "sched-1")
	require.NoError(t, err)
	e.pass = bought.Data.PassID.Value
	sub, err := billing.New(e.svc).Start(e.op, e.pass)
	require.NoError(t, err)
	e.sub = *sub.ProcessorSubscriptionID
	e.clock = &billingclock.Clock{Fake: e.fake, Pay: e.svc, Now: time.Now()}
	return e
}

// renewals moves the billing clock past n renewals, one at a time.
func (e *bindEnv) renewals(t *testing.T, n int) {
	t.Helper()
	for range n {
		_, next := e.fake.SubscriptionAmount(e.sub)
		_, err := e.clock.Advance(e.op, next.Add(time.Hour))
		require.NoError(t, err)
	}
}

// TestBindingScheduleYear: a six-month binding at 549.00 renews through a
// subscription schedule: five renewals at the tier's price (today's payment
// is the sixth month), then the normal 599.00; a year of invoices on the
// billing clock shows the switch at the binding's end, and the
// subscription's amount follows it. Starting again changes nothing.
func TestBindingScheduleYear(t *testing.T) {
	e := newBindEnv(t, func(*payEnv) api.GetCheckoutPreviewParams {
		return api.GetCheckoutPreviewParams{PassTypeSlug: "unlimited", BindingMonths: api.NewOptInt(6)}
	})
	sched, phases := e.fake.ScheduleOf(e.sub)
	require.NotEmpty(t, sched, "the subscription has a schedule")
	require.Equal(t, []int64{54900, 59900}, phases)
	row := e.studio.client.Subscription.Query().Where(subscription.PassID(e.pass)).OnlyX(e.op)
	require.Equal(t, int64(54900), row.AmountMinor)

	_, err := billing.New(e.svc).Start(e.op, e.pass)
	require.NoError(t, err)
	again, _ := e.fake.ScheduleOf(e.sub)
	require.Equal(t, sched, again, "one schedule per subscription")

	e.renewals(t, 12)
	want := []int64{54900, 54900, 54900, 54900, 54900, 59900, 59900, 59900, 59900, 59900, 59900, 59900}
	require.Equal(t, want, e.fake.InvoiceAmounts(e.sub))
	var total int64
	for _, inv := range e.studio.client.Invoice.Query().AllX(e.op) {
		total += inv.TotalMinor
	}
	require.Equal(t, int64(5*54900+7*59900), total, "our invoice rows are Stripe's amounts")
	row = e.studio.client.Subscription.GetX(e.op, row.ID)
	require.Equal(t, int64(59900), row.AmountMinor)
}

// TestIntroSchedule: an offer's intro price pays the first period through
// intro_through; the schedule's first phase ends that day and every renewal
// after it is at the normal price.
func TestIntroSchedule(t *testing.T) {
	e := newBindEnv(t, func(p *payEnv) api.GetCheckoutPreviewParams {
		pt := p.studio.client.PassType.Query().Where(passtype.Slug("unlimited")).OnlyX(p.op)
		fs := p.offer(t, "Intro", 99, 20, 0, pt.ID)
		return api.GetCheckoutPreviewParams{PassTypeSlug: "unlimited", FlashSaleID: api.NewOptUUID(fs.ID)}
	})
	sched, phases := e.fake.ScheduleOf(e.sub)
	require.NotEmpty(t, sched)
	require.Equal(t, []int64{59900, 59900}, phases)
	_, first := e.fake.SubscriptionAmount(e.sub)
	require.Equal(t, e.localToday().AddDate(0, 0, 20), first, "the first renewal falls at the intro's end")
	e.renewals(t, 3)
	require.Equal(t, []int64{59900, 59900, 59900}, e.fake.InvoiceAmounts(e.sub))
}
