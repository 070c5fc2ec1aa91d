package handlers_test

import (
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/stretchr/testify/require"

	"github.com/venueplatform/venue/ent/auditlog"
	"github.com/venueplatform/venue/ent/checkout"
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

func (e *bindEnv) cancel(c *api.Client, key string) (*api.MembershipCancelResponse, error) {
	return c.CancelMyMembership(e.ctx, api.CancelMyMembershipParams{ID: e.pass, XOrganizationID: e.venue.ID, IdempotencyKey: key})
}

// TestMemberCancelBinding: another member's pass is 404 and changes
// nothing; once the binding has ended the cancel releases the schedule and
// ends the subscription at the end of the paid period: no more invoices.
// (Notice inside the binding: membership_cancel_binding_test.go.)
func TestMemberCancelBinding(t *testing.T) {
	e := newBindEnv(t, func(*payEnv) api.GetCheckoutPreviewParams {
		return api.GetCheckoutPreviewParams{PassTypeSlug: "unlimited", BindingMonths: api.NewOptInt(6)}
	})
	audits := func() int {
		return e.studio.client.AuditLog.Query().Where(auditlog.Action("membership.cancel_requested")).CountX(e.op)
	}

	other := e.memberClient(t, "other@pay.example")
	_, err := e.cancel(other, "cancel-other")
	hookErr(t, err, 404, "NOT_FOUND")
	sched, _ := e.fake.ScheduleOf(e.sub)
	require.NotEmpty(t, sched, "a refused cancel keeps the schedule")
	require.Zero(t, audits())

	// Seven months on (the sale moved back), the binding has ended.
	e.studio.client.Checkout.Update().Where(checkout.PassID(e.pass)).
		SetActivatedAt(time.Now().AddDate(0, -7, 0)).ExecX(e.op)
	res, err := e.cancel(e.member, "cancel-2")
	require.NoError(t, err)
	_, next := e.fake.SubscriptionAmount(e.sub)
	require.Equal(t, next.Format(time.DateOnly), res.Data.EndsOn.Format(time.DateOnly))
	require.False(t, res.Data.BindingEndsOn.Null)
	again, err := e.cancel(e.member, "cancel-2")
	require.NoError(t, err)
	require.Equal(t, res.Data, again.Data, "a retry replays the answer")
	require.Equal(t, 1, audits())
	third, err := e.cancel(e.member, "cancel-3")
	require.NoError(t, err, "a cancel again (the schedule released already) answers the same end")
	require.Equal(t, res.Data.EndsOn, third.Data.EndsOn)
	sched, _ = e.fake.ScheduleOf(e.sub)
	require.Empty(t, sched, "the schedule is released before the cancel")

	e.renewals(t, 1)
	require.Empty(t, e.fake.InvoiceAmounts(e.sub), "the subscription ended instead of renewing")
	row := e.studio.client.Subscription.Query().Where(subscription.PassID(e.pass)).OnlyX(e.op)
	require.NotNil(t, row.CanceledAt)
}

// TestStaffCancelBinding: staff cancel under the same rules: it needs
// passes.manage (a refusal changes nothing), and notice given while the
// binding lasts ends the membership on the binding's end: the five
// renewals inside it are charged, none after.
func TestStaffCancelBinding(t *testing.T) {
	e := newBindEnv(t, func(*payEnv) api.GetCheckoutPreviewParams {
		return api.GetCheckoutPreviewParams{PassTypeSlug: "unlimited", BindingMonths: api.NewOptInt(6)}
	})
	be := &billEnv{payEnv: e.payEnv}
	staff := be.staffClient(t, "desk@pay.example", billing.PermPassesManage)
	viewer := be.staffClient(t, "look@pay.example", billing.PermViewInsights)
	cancel := func(c *api.Client, key string) (*api.MembershipCancelResponse, error) {
		return c.CancelAdminMembership(e.ctx, api.CancelAdminMembershipParams{ID: e.pass, IdempotencyKey: key})
	}
	_, err := cancel(viewer, "staff-cancel-v")
	hookErr(t, err, 403, "ACCESS_DENIED")
	sched, _ := e.fake.ScheduleOf(e.sub)
	require.NotEmpty(t, sched)

	res, err := cancel(staff, "staff-cancel-1")
	require.NoError(t, err)
	bindEnd := e.localToday().AddDate(0, 6, 0)
	require.Equal(t, bindEnd.Format(time.DateOnly), res.Data.EndsOn.Format(time.DateOnly))
	require.Equal(t, bindEnd.Format(time.DateOnly), res.Data.BindingEndsOn.Value.Format(time.DateOnly))
	e.renewals(t, 6)
	require.Equal(t, []int64{54900, 54900, 54900, 54900, 54900}, e.fake.InvoiceAmounts(e.sub))
}
