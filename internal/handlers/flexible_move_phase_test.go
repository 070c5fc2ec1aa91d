package handlers_test

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/venueplatform/venue/ent"
	"github.com/venueplatform/venue/ent/auditlog"
	"github.com/venueplatform/venue/ent/passtype"
	"github.com/venueplatform/venue/ent/paymentattempt"
	"github.com/venueplatform/venue/ent/subscription"
	"github.com/venueplatform/venue/internal/billing"
	"github.com/venueplatform/venue/internal/billing/billingclock"
	api "github.com/venueplatform/venue/internal/gen/api"
	"github.com/venueplatform/venue/internal/model"
)

// moveEnv is a member's fixed monthly membership (599.00, or a six-month
// binding at 549.00) bought online, its renewals started, staff who manage
// passes, and the venue's flexible pass type (9 classes: 810.00).
type moveEnv struct {
	*flexEnv
	flex *ent.PassType
}

func newMoveEnv(t *testing.T, binding bool) *moveEnv {
	t.Helper()
	e := &flexEnv{payEnv: newPayEnv(t, false, false)}
	e.fake.SetEventSecret(paySecret)
	q := api.GetCheckoutPreviewParams{XOrganizationID: e.venue.ID, PassTypeSlug: "unlimited"}
	if binding {
		e.studio.client.PassType.Update().Where(passtype.Slug("unlimited")).
			SetBindingTiers([]model.BindingTier{{Months: 6, PriceMinor: 54900}}).ExecX(e.op)
		q.BindingMonths = api.NewOptInt(6)
	}
	res, err := e.member.GetCheckoutPreview(e.ctx, q)
	require.NoError(t, err)
	bought, err := e.buy(e.member, res.Data.DirectPurchaseQuote.Value, "pm_card_visa", "mv-buy")
	require.NoError(t, err)
	e.pass = bought.Data.PassID.Value
	e.start(t)
	e.clock = &billingclock.Clock{Fake: e.fake, Pay: e.svc, Now: time.Now()}
	be := &billEnv{payEnv: e.payEnv}
	e.staff = be.staffClient(t, "desk@pay.example", billing.PermPassesManage)
	return &moveEnv{flexEnv: e, flex: e.studio.client.PassType.Query().Where(passtype.Slug("flexible")).OnlyX(e.op)}
}

func (e *moveEnv) move(key string, quantity, renewal int) (*api.AdminFlexibleMoveResponse, error) {
	return e.staff.ScheduleAdminMoveToFlexible(e.ctx, &api.AdminFlexibleMoveRequest{PassTypeID: e.flex.ID,
		Kind: api.AdminFlexibleMoveRequestKindQuantity, Quantity: api.NewOptInt(quantity), Renewal: renewal},
		api.ScheduleAdminMoveToFlexibleParams{ID: e.pass, IdempotencyKey: key})
}

// renewals runs the price jobs and moves the clock past n renewals, one at
// a time, as the server's workers and Stripe would.
func (e *moveEnv) renewals(t *testing.T, n int) {
	t.Helper()
	for range n {
		e.runFlexPriceJobs(t)
		e.renewOnce(t)
	}
}

func (e *moveEnv) subRow(t *testing.T) *ent.Subscription {
	t.Helper()
	return e.studio.client.Subscription.Query().Where(subscription.PassID(e.pass)).OnlyX(e.op)
}

func (e *moveEnv) lastAttempt(t *testing.T) *ent.PaymentAttempt {
	t.Helper()
	return e.studio.client.PaymentAttempt.Query().Where(paymentattempt.SubjectID(e.subRow(t).ID),
		paymentattempt.PurposeEQ(paymentattempt.PurposeSubscriptionUpdate)).
		Order(ent.Desc(paymentattempt.FieldNumber)).FirstX(e.op)
}

func (e *moveEnv) audits(t *testing.T, action string) int {
	t.Helper()
	return e.studio.client.AuditLog.Query().Where(auditlog.Action(action), auditlog.Target("pass:"+e.pass.String())).CountX(e.op)
}

// requireMoved: the membership is the flexible one with 9 classes, on the
// same pass and the same subscription, which charges 810.00.
func (e *moveEnv) requireMoved(t *testing.T) {
	t.Helper()
	p := e.studio.client.Pass.GetX(e.op, e.pass)
	require.Equal(t, e.flex.ID, p.PassTypeID, "the pass takes the flexible pass type")
	require.Equal(t, "active", string(p.Status))
	require.Equal(t, 9, *p.FlexibleQuantity)
	require.Nil(t, p.FlexibleChange, "the move is done")
	row := e.subRow(t)
	require.Equal(t, e.flex.ID, row.PassTypeID, "the subscription takes the flexible pass type")
	require.Equal(t, int64(81000), row.AmountMinor)
	require.Equal(t, e.sub, *row.ProcessorSubscriptionID)
	require.Len(t, e.fake.Subscriptions(), 1, "one subscription throughout")
	a := e.allowance(t)
	require.Equal(t, 9, a.Selection.Quantity.Value, "staff read it as a flexible membership")
}

// TestMoveToFlexibleIsAPhase: a fixed monthly membership (599.00) moves onto
// the flexible pass type with 9 classes from its second renewal. The move
// is a phase of the same subscription's schedule: no pass and no
// subscription are made (new_pass_id is null), the same move again answers
// it, another is MOVE_ALREADY_SCHEDULED. Over the billing clock the
// invoices are 599.00, then 810.00, 810.00, and the paid first invoice of
// the phase gives the pass and its subscription the flexible pass type.
func TestMoveToFlexibleIsAPhase(t *testing.T) {
	e := newMoveEnv(t, false)
	pv, err := e.staff.PreviewAdminMoveToFlexible(e.ctx, api.PreviewAdminMoveToFlexibleParams{ID: e.pass, PassTypeID: e.flex.ID,
		Kind: api.PreviewAdminMoveToFlexibleKindQuantity, Quantity: api.NewOptInt(9), Renewal: 2})
	require.NoError(t, err)
	require.Equal(t, int64(59900), pv.Data.FromPriceMinor)
	require.Equal(t, int64(81000), pv.Data.ToPriceMinor)
	writes := e.fake.ScheduleWrites()

	mv, err := e.move("mv-1", 9, 2)
	require.NoError(t, err)
	require.True(t, mv.Data.NewPassID.Null, "no new pass: the membership keeps its pass")
	require.Equal(t, pv.Data.EffectiveOn, mv.Data.EffectiveOn)
	require.Equal(t, 1, e.count(t, "passes"))
	require.Len(t, e.fake.Subscriptions(), 1)
	_, phases := e.fake.ScheduleOf(e.sub)
	require.Equal(t, []int64{59900, 81000}, phases)
	require.Equal(t, writes+1, e.fake.ScheduleWrites())
	require.Equal(t, paymentattempt.StateSucceeded, e.lastAttempt(t).State)
	require.Equal(t, 1, e.audits(t, billing.AuditMovedToFlexible))
	p := e.studio.client.Pass.GetX(e.op, e.pass)
	require.Equal(t, e.flex.ID.String(), p.FlexibleChange.PassTypeID)

	again, err := e.move("mv-2", 9, 2)
	require.NoError(t, err, "the same move again answers it")
	require.True(t, again.Data.NewPassID.Null)
	require.Equal(t, writes+1, e.fake.ScheduleWrites(), "and sends nothing")
	_, err = e.move("mv-3", 10, 2)
	es := hookErr(t, err, 409, "MOVE_ALREADY_SCHEDULED")
	require.JSONEq(t, `"`+e.pass.String()+`"`, string(es.Response.Error.Details.AdditionalProps["pending_pass_id"]))

	e.renewals(t, 3)
	require.Equal(t, []int64{59900, 81000, 81000}, e.fake.InvoiceAmounts(e.sub))
	e.requireMoved(t)
	require.Equal(t, 1, e.audits(t, billing.AuditMovedToFlexible))
}

// TestMoveToFlexibleStripeFaults: Stripe refusing the phases puts our rows
// back (no move recorded, the attempt failed, audited) and answers 502
// STRIPE_ERROR; Stripe's answer lost (500 past stripe-go's retry) answers
// 409 UNKNOWN_WRITE_OUTCOME with the move recorded, the attempt unknown and
// the reconcile and price jobs queued; they set the phases and the
// renewals charge 599.00 then 810.00.
func TestMoveToFlexibleStripeFaults(t *testing.T) {
	e := newMoveEnv(t, false)
	e.fake.FailScheduleWrites(0, 1)
	_, err := e.move("mv-refused", 9, 2)
	hookErr(t, err, 502, "STRIPE_ERROR")
	require.Nil(t, e.studio.client.Pass.GetX(e.op, e.pass).FlexibleChange, "our rows are put back")
	at := e.lastAttempt(t)
	require.Equal(t, paymentattempt.StateFailed, at.State)
	require.Nil(t, at.LiveSubjectID)
	require.Equal(t, 1, e.audits(t, billing.AuditMoveFailed))
	_, phases := e.fake.ScheduleOf(e.sub)
	require.Empty(t, phases)

	e.fake.FailScheduleWrites(2, 0)
	_, err = e.move("mv-unknown", 9, 2)
	hookErr(t, err, 409, "UNKNOWN_WRITE_OUTCOME")
	at = e.lastAttempt(t)
	require.Equal(t, paymentattempt.StateUnknown, at.State)
	require.NotNil(t, e.studio.client.Pass.GetX(e.op, e.pass).FlexibleChange, "the intent is kept")
	var reconciles int
	require.NoError(t, e.pool.QueryRow(e.ctx, `SELECT count(*) FROM river_job WHERE args->>'attempt_id' = $1`, at.ID.String()).Scan(&reconciles))
	require.Equal(t, 1, reconciles, "the reconcile is queued")
	require.NoError(t, e.svc.Reconcile(e.op, at.ID))
	require.Nil(t, e.studio.client.PaymentAttempt.GetX(e.op, at.ID).LiveSubjectID, "the reconcile frees the slot")
	require.Equal(t, 1, e.runFlexPriceJobs(t), "the price job sets the phases again")
	_, phases = e.fake.ScheduleOf(e.sub)
	require.Equal(t, []int64{59900, 81000}, phases)

	e.renewals(t, 2)
	require.Equal(t, []int64{59900, 81000}, e.fake.InvoiceAmounts(e.sub))
	e.requireMoved(t)
}

// TestMoveToFlexibleWithBinding: a six-month binding at 549.00 moves to
// the flexible membership from its seventh renewal (after the binding): the
// schedule keeps the binding's phases and adds the move's, so the invoices
// are five at 549.00, then 599.00 until the move, then 810.00.
func TestMoveToFlexibleWithBinding(t *testing.T) {
	e := newMoveEnv(t, true)
	_, phases := e.fake.ScheduleOf(e.sub)
	require.Equal(t, []int64{54900, 59900}, phases)
	_, err := e.move("mv-bind", 9, 7)
	require.NoError(t, err)
	_, phases = e.fake.ScheduleOf(e.sub)
	require.Equal(t, []int64{54900, 59900, 81000}, phases)

	e.renewals(t, 8)
	want := []int64{54900, 54900, 54900, 54900, 54900, 59900, 81000, 81000}
	require.Equal(t, want, e.fake.InvoiceAmounts(e.sub))
	e.requireMoved(t)
}

// TestMoveToFlexibleAfterCancel: a membership cancelled at the end of its
// period cannot move: 422 VALIDATION_FAILED not_movable, and nothing is
// written.
func TestMoveToFlexibleAfterCancel(t *testing.T) {
	e := newMoveEnv(t, false)
	_, err := billing.New(e.svc).CancelAtPeriodEnd(e.op, e.pass)
	require.NoError(t, err)
	writes := e.fake.ScheduleWrites()
	_, err = e.move("mv-cancelled", 9, 1)
	es := hookErr(t, err, 422, "VALIDATION_FAILED")
	require.Equal(t, "not_movable", es.Response.Error.Details.Reason.Value)
	require.Nil(t, e.studio.client.Pass.GetX(e.op, e.pass).FlexibleChange)
	require.Zero(t, e.audits(t, billing.AuditMovedToFlexible))
	require.Equal(t, writes, e.fake.ScheduleWrites())
	_, err = e.staff.PreviewAdminMoveToFlexible(e.ctx, api.PreviewAdminMoveToFlexibleParams{ID: e.pass, PassTypeID: e.flex.ID,
		Kind: api.PreviewAdminMoveToFlexibleKindQuantity, Quantity: api.NewOptInt(9), Renewal: 1})
	hookErr(t, err, 422, "VALIDATION_FAILED")
}
