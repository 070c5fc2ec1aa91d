package handlers_test

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/venueplatform/venue/ent/auditlog"
	"github.com/venueplatform/venue/ent/subscription"
	api "github.com/venueplatform/venue/internal/gen/api"
)

// TestMemberCancelInsideBinding: a member bound for six months gives notice
// in month two. The cancel is accepted: ends_on is the binding's end, the
// Stripe subscription's cancel_at is the renewal on that day (its schedule
// released, so nothing renews past it), one audit entry records it, a
// retry with the same key replays the answer and a new cancel answers the
// same end. On the billing clock the renewals inside the binding are
// charged at the tier's price and the one at the binding's end is not: the
// subscription ends there and our row says so.
func TestMemberCancelInsideBinding(t *testing.T) {
	e := newBindEnv(t, func(*payEnv) api.GetCheckoutPreviewParams {
		return api.GetCheckoutPreviewParams{PassTypeSlug: "unlimited", BindingMonths: api.NewOptInt(6)}
	})
	bindEnd := e.localToday().AddDate(0, 6, 0)
	_, firstRenewal := e.fake.SubscriptionAmount(e.sub)
	e.renewals(t, 1)

	res, err := e.cancel(e.member, "bound-cancel-1")
	require.NoError(t, err)
	require.Equal(t, e.pass, res.Data.PassID)
	require.Equal(t, bindEnd.Format(time.DateOnly), res.Data.EndsOn.Format(time.DateOnly))
	require.Equal(t, bindEnd.Format(time.DateOnly), res.Data.BindingEndsOn.Value.Format(time.DateOnly))

	cancelAt, ended := e.fake.CancelAt(e.sub)
	require.False(t, ended)
	require.Equal(t, firstRenewal.AddDate(0, 5, 0).UTC(), cancelAt.UTC(),
		"cancel_at is the renewal on the binding's end")
	sched, _ := e.fake.ScheduleOf(e.sub)
	require.Empty(t, sched, "the binding's schedule is released")

	again, err := e.cancel(e.member, "bound-cancel-1")
	require.NoError(t, err)
	require.Equal(t, res.Data, again.Data, "a retry replays the answer")
	other, err := e.cancel(e.member, "bound-cancel-2")
	require.NoError(t, err)
	require.Equal(t, res.Data.EndsOn, other.Data.EndsOn, "a second cancel answers the same end")
	at2, _ := e.fake.CancelAt(e.sub)
	require.Equal(t, cancelAt, at2)

	logs := e.studio.client.AuditLog.Query().Where(auditlog.Action("membership.cancel_requested")).AllX(e.op)
	require.Len(t, logs, 2, "one entry per accepted cancel, none for the replay")
	d := logs[0].Details
	require.Equal(t, bindEnd.Format(time.DateOnly), d["ends_on"])
	require.Equal(t, bindEnd.Format(time.DateOnly), d["binding_ends_on"])
	require.Equal(t, true, d["inside_binding"])
	require.Equal(t, "pass:"+e.pass.String(), logs[0].Target)

	e.renewals(t, 8)
	require.Equal(t, []int64{54900, 54900, 54900, 54900, 54900}, e.fake.InvoiceAmounts(e.sub),
		"the renewals inside the binding at the tier's price, none at or after its end")
	_, ended = e.fake.CancelAt(e.sub)
	require.True(t, ended)
	row := e.studio.client.Subscription.Query().Where(subscription.PassID(e.pass)).OnlyX(e.op)
	require.NotNil(t, row.CanceledAt)
}
