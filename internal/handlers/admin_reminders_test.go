package handlers_test

import (
	"context"
	"net/http"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/stretchr/testify/require"

	"github.com/venueplatform/venue/internal/billing"
	api "github.com/venueplatform/venue/internal/gen/api"
)

func (e *lifeEnv) reminderDeliveries(t *testing.T) int {
	t.Helper()
	var n int
	require.NoError(t, e.pool.QueryRow(e.ctx, `SELECT count(*) FROM notification_deliveries WHERE organization_id = $1 AND kind = $2`,
		e.venue.ID, billing.KindRenewalReminder).Scan(&n))
	return n
}

// TestReminderPolicy: a preview lists the renewal and the days it would be
// reminded with a hash; applying with another hash is 409 PREVIEW_STALE and
// changes nothing; applying with the preview's hash saves the policy, and
// the sweep then queues the reminder in the outbox once on its day.
func TestReminderPolicy(t *testing.T) {
	e := newLifeEnv(t)
	sub := e.db().Subscription.Query().OnlyX(e.op)
	require.NotNil(t, sub.NextChargeAt)

	_, err := e.viewer.PreviewAdminReminderPolicy(e.ctx, &api.ReminderPolicyRequest{DaysBefore: []int{1}})
	st, _, _ := apiCode(t, err)
	require.Equal(t, http.StatusForbidden, st)
	for _, body := range []string{`{"days_before":[]}`, `{"days_before":[0]}`, `{"days_before":[31]}`, `{"days_before":[1,1]}`,
		`{"days_before":[1,2,3,4,5,6]}`, `{"days_before":[1],"x":1}`} {
		st, b := e.post(t, "/admin/billing/reminder-policy/preview", body)
		require.Equal(t, http.StatusBadRequest, st, body+" "+b)
	}

	pv, err := e.boss.PreviewAdminReminderPolicy(e.ctx, &api.ReminderPolicyRequest{DaysBefore: []int{1, 3}})
	require.NoError(t, err)
	require.Equal(t, []int{1, 3}, pv.Data.DaysBefore)
	require.Equal(t, 1, pv.Data.AffectedCount)
	up := pv.Data.Upcoming[0]
	require.Equal(t, sub.ID, up.SubscriptionID)
	require.NotEmpty(t, up.RemindOn)
	require.Len(t, pv.Data.PreviewHash, 64)

	stale := pv.Data.PreviewHash[:63] + "0"
	if stale == pv.Data.PreviewHash {
		stale = pv.Data.PreviewHash[:63] + "1"
	}
	_, err = e.boss.ApplyAdminReminderPolicy(e.ctx, &api.ReminderApplyRequest{DaysBefore: []int{1, 3}, PreviewHash: stale},
		api.ApplyAdminReminderPolicyParams{IdempotencyKey: uuid.NewString()})
	st, code, _ := apiCode(t, err)
	require.Equal(t, http.StatusConflict, st)
	require.Equal(t, billing.CodePreviewStale, code)
	// The hash is over the days too: another set of days is stale.
	_, err = e.boss.ApplyAdminReminderPolicy(e.ctx, &api.ReminderApplyRequest{DaysBefore: []int{1}, PreviewHash: pv.Data.PreviewHash},
		api.ApplyAdminReminderPolicyParams{IdempotencyKey: uuid.NewString()})
	_, code, _ = apiCode(t, err)
	require.Equal(t, billing.CodePreviewStale, code)
	got, err := e.boss.GetAdminReminderPolicy(e.ctx)
	require.NoError(t, err)
	require.True(t, got.Data.IsNull(), "a stale apply changes nothing")
	require.Zero(t, e.audits(t, billing.AuditReminderPolicy))

	applied, err := e.boss.ApplyAdminReminderPolicy(e.ctx, &api.ReminderApplyRequest{DaysBefore: []int{3, 1}, PreviewHash: pv.Data.PreviewHash},
		api.ApplyAdminReminderPolicyParams{IdempotencyKey: uuid.NewString()})
	require.NoError(t, err)
	require.Equal(t, pv.Data.PreviewHash, applied.Data.PreviewHash)
	got, err = e.boss.GetAdminReminderPolicy(e.ctx)
	require.NoError(t, err)
	pol, ok := got.Data.Get()
	require.True(t, ok)
	require.Equal(t, []int{1, 3}, pol.DaysBefore)
	require.Equal(t, 1, e.audits(t, billing.AuditReminderPolicy))

	// The sweep on the reminder's day queues it once.
	svc := billing.New(e.svc)
	on := up.RemindOn[0]
	at := time.Date(on.Year(), on.Month(), on.Day(), 12, 0, 0, 0, time.UTC)
	n, err := svc.SendRenewalReminders(context.Background(), at)
	require.NoError(t, err)
	require.Equal(t, 1, n)
	n, err = svc.SendRenewalReminders(context.Background(), at)
	require.NoError(t, err)
	require.Zero(t, n, "once per renewal and day")
	require.Equal(t, 1, e.reminderDeliveries(t))
	n, err = svc.SendRenewalReminders(context.Background(), at.AddDate(0, 0, -10))
	require.NoError(t, err)
	require.Zero(t, n, "no reminder on another day")
}
