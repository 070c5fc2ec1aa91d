package handlers_test

import (
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/stretchr/testify/require"

	"github.com/venueplatform/venue/ent/auditlog"
	"github.com/venueplatform/venue/ent/booking"
	"github.com/venueplatform/venue/internal/billing"
	"github.com/venueplatform/venue/internal/billing/billingclock"
	api "github.com/venueplatform/venue/internal/gen/api"
)

// flexEnv is a member's flexible membership of 9 classes a month, bought
// online, with its renewals started on the fake Stripe, and staff clients.
type flexEnv struct {
	*payEnv
	pass   uuid.UUID
	sub    string
	clock  *billingclock.Clock
	staff  *api.Client
	viewer *api.Client
}

func newFlexEnv(t *testing.T) *flexEnv {
	t.Helper()
	e := newFlexEnvUnstarted(t)
	e.start(t)
	return e
}

// start starts the renewals of the pass.
func (e *flexEnv) start(t *testing.T) {
	t.Helper()
	sub, err := billing.New(e.svc).Start(e.op, e.pass)
	require.NoError(t, err)
	e.sub = *sub.ProcessorSubscriptionID
}

func newFlexEnvUnstarted(t *testing.T) *flexEnv {
	t.Helper()
	e := &flexEnv{payEnv: newPayEnv(t, false, false)}
	e.fake.SetEventSecret(paySecret)
	res, err := e.flexPreview(e.member, 9)
	require.NoError(t, err)
	bought, err := e.flexBuy(e.member, res.Data.FlexibleQuote, "pm_card_visa", "flex-env-1")
	require.NoError(t, err)
	e.pass = bought.Data.PassID.Value
	e.clock = &billingclock.Clock{Fake: e.fake, Pay: e.svc, Now: time.Now()}
	be := &billEnv{payEnv: e.payEnv}
	e.staff = be.staffClient(t, "desk@pay.example", billing.PermPassesManage)
	e.viewer = be.staffClient(t, "look@pay.example", billing.PermViewInsights)
	return e
}

// runFlexPriceJobs works the queued billing.flexible_price jobs as the
// server's workers would, and returns how many ran.
func (e *flexEnv) runFlexPriceJobs(t *testing.T) int {
	t.Helper()
	rows, err := e.pool.Query(e.ctx, `SELECT args->>'pass_id' FROM river_job WHERE kind = 'billing.flexible_price' AND state = 'available'`)
	require.NoError(t, err)
	var ids []uuid.UUID
	for rows.Next() {
		var s string
		require.NoError(t, rows.Scan(&s))
		ids = append(ids, uuid.MustParse(s))
	}
	require.NoError(t, rows.Err())
	for _, id := range ids {
		require.NoError(t, billing.New(e.svc).PushFlexiblePrice(e.op, id))
	}
	_, err = e.pool.Exec(e.ctx, `UPDATE river_job SET state = 'completed', finalized_at = now() WHERE kind = 'billing.flexible_price' AND state = 'available'`)
	require.NoError(t, err)
	return len(ids)
}

// renewOnce moves the billing clock past the pass's next renewal.
func (e *flexEnv) renewOnce(t *testing.T) {
	t.Helper()
	_, next := e.fake.SubscriptionAmount(e.sub)
	_, err := e.clock.Advance(e.op, next.Add(time.Hour))
	require.NoError(t, err)
}

func (e *flexEnv) allowance(t *testing.T) api.AdminFlexibleAllowance {
	t.Helper()
	a, err := e.staff.GetAdminFlexibleAllowance(e.ctx, api.GetAdminFlexibleAllowanceParams{ID: e.pass})
	require.NoError(t, err)
	return a.Data
}

func (e *flexEnv) change(c *api.Client, req api.AdminFlexibleChangeRequest, key string) (*api.FlexibleChangeResponse, error) {
	return c.ChangeAdminFlexible(e.ctx, &req, api.ChangeAdminFlexibleParams{ID: e.pass, IdempotencyKey: key})
}

// TestAdminFlexibleAllowanceAndChange: staff read the allowance (classes
// used this period counted from the member's bookings on the pass), schedule
// a change two renewals ahead (outside the member policy's offsets is fine
// for staff), audited; the renewal before it still charges 810.00, the
// change's renewal charges the new price, and once paid the allowance is
// the new selection.
func TestAdminFlexibleAllowanceAndChange(t *testing.T) {
	e := newFlexEnv(t)
	m := e.studio.client.Pass.GetX(e.op, e.pass)
	cls := e.studio.client.ClassInstance.Create().SetClassTypeID(e.studio.classType).SetLocationID(e.studio.location).
		SetStartTime(time.Now().Add(48 * time.Hour)).SetEndTime(time.Now().Add(49 * time.Hour)).SetCapacity(10).SaveX(e.op)
	cls2 := e.studio.client.ClassInstance.Create().SetClassTypeID(e.studio.classType).SetLocationID(e.studio.location).
		SetStartTime(time.Now().Add(72 * time.Hour)).SetEndTime(time.Now().Add(73 * time.Hour)).SetCapacity(10).SaveX(e.op)
	e.studio.client.Booking.Create().SetMemberID(m.MemberID).SetClassInstanceID(cls.ID).SetPassID(e.pass).SaveX(e.op)
	e.studio.client.Booking.Create().SetMemberID(m.MemberID).SetClassInstanceID(cls2.ID).SetPassID(e.pass).
		SetStatus(booking.StatusCancelled).SaveX(e.op)

	a := e.allowance(t)
	require.Equal(t, 9, a.Selection.ClassAllowance.Value)
	require.Equal(t, int64(81000), a.PeriodPriceMinor)
	require.Equal(t, 1, a.UsedThisPeriod, "a cancelled booking uses nothing")
	require.Equal(t, 8, a.RemainingThisPeriod.Value)
	require.Equal(t, int64(81000), a.RenewalAmountMinor.Value)
	require.Equal(t, *m.ValidTo, a.PeriodEnd.Value)
	require.Len(t, a.Renewals, 24)
	require.True(t, a.NextChange.Null)

	// Staff need passes.manage; bad selections change nothing.
	_, err := e.change(e.viewer, api.AdminFlexibleChangeRequest{Kind: api.AdminFlexibleChangeRequestKindUnlimited, Renewal: 1}, "fx-0")
	hookErr(t, err, 403, "ACCESS_DENIED")
	_, err = e.change(e.staff, api.AdminFlexibleChangeRequest{Kind: api.AdminFlexibleChangeRequestKindQuantity,
		Quantity: api.NewOptInt(13), Renewal: 1}, "fx-1")
	es := hookErr(t, err, 422, "VALIDATION_FAILED")
	require.Equal(t, "selection_unavailable", es.Response.Error.Details.Reason.Value)
	_, err = e.change(e.staff, api.AdminFlexibleChangeRequest{Kind: api.AdminFlexibleChangeRequestKindQuantity, Renewal: 1}, "fx-2")
	hookErr(t, err, 400, "VALIDATION_ERROR")
	require.Nil(t, e.studio.client.Pass.GetX(e.op, e.pass).FlexibleChange)

	// Renewal 3 is not in the member policy's offsets (1, 2): staff may.
	ch, err := e.change(e.staff, api.AdminFlexibleChangeRequest{Kind: api.AdminFlexibleChangeRequestKindQuantity,
		Quantity: api.NewOptInt(12), Renewal: 3, Reason: api.NewOptString("asked at the desk")}, "fx-3")
	require.NoError(t, err)
	require.Equal(t, int64(108000), ch.Data.ToPriceMinor)
	require.Equal(t, a.Renewals[2].Date, ch.Data.EffectiveOn)
	require.Equal(t, 1, e.studio.client.AuditLog.Query().Where(auditlog.Action(billing.AuditFlexibleChanged)).CountX(e.op))
	again, err := e.change(e.staff, api.AdminFlexibleChangeRequest{Kind: api.AdminFlexibleChangeRequestKindQuantity,
		Quantity: api.NewOptInt(12), Renewal: 3, Reason: api.NewOptString("asked at the desk")}, "fx-3")
	require.NoError(t, err, "a retry replays")
	require.Equal(t, ch.Data.ScheduledAt, again.Data.ScheduledAt)
	require.Equal(t, 1, e.studio.client.AuditLog.Query().Where(auditlog.Action(billing.AuditFlexibleChanged)).CountX(e.op))
	// The change becomes a phase of the subscription's schedule from its
	// renewal on; the price Stripe charges now does not change.
	require.Equal(t, 1, e.runFlexPriceJobs(t))
	sched, phases := e.fake.ScheduleOf(e.sub)
	require.NotEmpty(t, sched)
	require.Equal(t, []int64{81000, 108000}, phases)
	amount, _ := e.fake.SubscriptionAmount(e.sub)
	require.Equal(t, int64(81000), amount, "the subscription's price is not changed directly")

	e.renewOnce(t) // renewal 1: the old price
	require.Equal(t, 1, e.runFlexPriceJobs(t), "the phases follow each renewal")
	e.renewOnce(t) // renewal 2: the old price; the change's renewal is next
	require.Equal(t, 1, e.runFlexPriceJobs(t))
	again2, phases := e.fake.ScheduleOf(e.sub)
	require.Equal(t, sched, again2, "the same schedule is updated")
	require.Equal(t, []int64{81000, 108000}, phases)
	require.Equal(t, int64(108000), e.allowance(t).RenewalAmountMinor.Value)
	require.Equal(t, int64(108000), e.studio.client.Subscription.Query().OnlyX(e.op).AmountMinor, "our row says what the next renewal charges")
	require.Equal(t, 9, e.allowance(t).Selection.Quantity.Value, "not yet in effect")
	e.renewOnce(t) // renewal 3: the new price
	require.Equal(t, []int64{81000, 81000, 108000}, e.fake.InvoiceAmounts(e.sub))
	a = e.allowance(t)
	require.Equal(t, 12, a.Selection.ClassAllowance.Value, "the paid renewal put the change in effect")
	require.True(t, a.NextChange.Null)
}

// TestFlexibleMemberChangeReachesRenewal: a member's change from the next
// renewal becomes the schedule's phase from that renewal on, so the next
// invoice charges it.
func TestFlexibleMemberChangeReachesRenewal(t *testing.T) {
	e := newFlexEnv(t)
	_, err := e.member.ScheduleFlexibleChange(e.ctx, &api.FlexibleChangeRequest{Kind: api.FlexibleChangeRequestKindUnlimited,
		Renewal: api.NewOptInt(1)}, api.ScheduleFlexibleChangeParams{ID: e.pass, XOrganizationID: e.venue.ID, IdempotencyKey: "mf-1"})
	require.NoError(t, err)
	require.Equal(t, 1, e.runFlexPriceJobs(t))
	_, phases := e.fake.ScheduleOf(e.sub)
	require.Equal(t, []int64{81000, 120000}, phases)
	e.renewOnce(t)
	require.Equal(t, []int64{120000}, e.fake.InvoiceAmounts(e.sub))
	a := e.allowance(t)
	require.Equal(t, api.FlexibleSelectionKindUnlimited, a.Selection.Kind)
	require.True(t, a.RemainingThisPeriod.Null)
}

// TestFlexibleChangeBeforeRenewalsStart: a change from the next renewal
// scheduled before the renewals started is priced by the start itself.
func TestFlexibleChangeBeforeRenewalsStart(t *testing.T) {
	e := newFlexEnvUnstarted(t)
	_, err := e.change(e.staff, api.AdminFlexibleChangeRequest{Kind: api.AdminFlexibleChangeRequestKindQuantity,
		Quantity: api.NewOptInt(4), Renewal: 1}, "fs-1")
	require.NoError(t, err)
	require.Equal(t, 1, e.runFlexPriceJobs(t), "nothing to price yet")
	e.start(t)
	amount, _ := e.fake.SubscriptionAmount(e.sub)
	require.Equal(t, int64(40000), amount)
	e.renewOnce(t)
	require.Equal(t, []int64{40000}, e.fake.InvoiceAmounts(e.sub))
	require.Equal(t, 4, e.allowance(t).Selection.Quantity.Value)
}
