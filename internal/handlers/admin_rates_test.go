package handlers_test

import (
	"net/http"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/stretchr/testify/require"

	"github.com/venueplatform/venue/ent/pass"
	"github.com/venueplatform/venue/ent/subscription"
	"github.com/venueplatform/venue/internal/apikey"
	"github.com/venueplatform/venue/internal/billing"
	api "github.com/venueplatform/venue/internal/gen/api"
)

func (e *lifeEnv) lock(req *api.AdminRateLockRequest) (*api.AdminRateLockResponse, error) {
	return e.boss.SetAdminRateLock(e.ctx, req, api.SetAdminRateLockParams{IdempotencyKey: uuid.NewString()})
}

func (e *lifeEnv) subAmount(t *testing.T) int64 {
	t.Helper()
	return e.db().Subscription.Query().Where(subscription.PassID(e.pass)).OnlyX(e.op).AmountMinor
}

func (e *lifeEnv) locks(t *testing.T) int {
	t.Helper()
	var n int
	require.NoError(t, e.pool.QueryRow(e.ctx, `SELECT count(*) FROM rate_locks WHERE organization_id = $1`, e.venue.ID).Scan(&n))
	return n
}

// TestAdminRateLock: a rate lock makes the renewals that start before its
// day charge the locked amount (observed through the billing clock), the
// price before returns for the first renewal on or after it, the context
// read shows the lock and is null when nothing applies; removal restores
// the price; bad input (zero amount, today or a past day, another venue's
// pass, a pass that does not renew, an unavailable channel) changes nothing.
func TestAdminRateLock(t *testing.T) {
	e := newLifeEnv(t)
	ctxRead := func() api.NilAdminRateContext {
		t.Helper()
		got, err := e.boss.GetAdminRateContext(e.ctx, api.GetAdminRateContextParams{PassId: e.pass})
		require.NoError(t, err)
		return got.Data.Context
	}
	require.True(t, ctxRead().IsNull(), "nothing applies yet")

	p := e.db().Pass.GetX(e.op, e.pass)
	until := p.ValidTo.UTC().AddDate(0, 0, 40) // two renewals start before it, the third after
	today := time.Now().In(e.loc)
	todayDate := time.Date(today.Year(), today.Month(), today.Day(), 0, 0, 0, 0, time.UTC)
	plain := e.plainPass(t, pass.StatusActive)
	for _, c := range []struct {
		req    *api.AdminRateLockRequest
		status int
		code   string
	}{
		{&api.AdminRateLockRequest{PassID: e.pass, Amount: 0, LockedUntil: until, Reason: "loyal"}, 400, "VALIDATION_ERROR"},
		{&api.AdminRateLockRequest{PassID: e.pass, Amount: 300.001, LockedUntil: until, Reason: "loyal"}, 400, "VALIDATION_ERROR"},
		{&api.AdminRateLockRequest{PassID: e.pass, Amount: 300, LockedUntil: todayDate, Reason: "loyal"}, 400, "VALIDATION_ERROR"},
		{&api.AdminRateLockRequest{PassID: e.pass, Amount: 300, LockedUntil: todayDate.AddDate(0, 0, -3), Reason: "loyal"}, 400, "VALIDATION_ERROR"},
		{&api.AdminRateLockRequest{PassID: e.foreignPass(t), Amount: 300, LockedUntil: until, Reason: "loyal"}, 404, "NOT_FOUND"},
		{&api.AdminRateLockRequest{PassID: plain.ID, Amount: 300, LockedUntil: until, Reason: "loyal"}, 422, billing.CodeNoStripeSubscription},
		{&api.AdminRateLockRequest{PassID: e.pass, Amount: 300, LockedUntil: until, Reason: "loyal", Notify: api.NewOptBool(true),
			Channels: []api.AdminRateLockRequestChannelsItem{api.AdminRateLockRequestChannelsItemSMS}}, 422, billing.CodeNotificationChannelUnavailable},
	} {
		_, err := e.lock(c.req)
		requireCode(t, err, c.status, c.code)
	}
	require.Zero(t, e.locks(t))
	require.Equal(t, int64(49900), e.subAmount(t))
	require.Zero(t, e.audits(t, billing.AuditRateLockSet))

	// An API key reads the context with read:passes and cannot notify.
	issued, err := apikey.Create(e.op, e.db(), apikey.CreateParams{Name: "passes", Scopes: []string{"read:passes"}})
	require.NoError(t, err)
	kc, err := api.NewClient(e.url+"/api/v1", keySource(issued.Secret))
	require.NoError(t, err)
	kctx, err := kc.GetAdminRateContext(e.ctx, api.GetAdminRateContextParams{PassId: e.pass})
	require.NoError(t, err)
	require.True(t, kctx.Data.Context.IsNull())
	_, err = kc.SetAdminRateLock(e.ctx, &api.AdminRateLockRequest{PassID: e.pass, Amount: 300, LockedUntil: until, Reason: "k"},
		api.SetAdminRateLockParams{IdempotencyKey: uuid.NewString()})
	require.Error(t, err, "read:passes does not write")
	require.Zero(t, e.locks(t))

	lk, err := e.lock(&api.AdminRateLockRequest{PassID: e.pass, Amount: 300, LockedUntil: until, Reason: "loyal",
		Notify: api.NewOptBool(true), Channels: []api.AdminRateLockRequestChannelsItem{api.AdminRateLockRequestChannelsItemEmail}})
	require.NoError(t, err)
	require.Equal(t, int64(30000), lk.Data.AmountMinor)
	require.Equal(t, int64(49900), lk.Data.BaseAmountMinor)
	require.True(t, lk.Data.Applied)
	require.Equal(t, 1, e.audits(t, billing.AuditRateLockSet))
	var sent int
	require.NoError(t, e.pool.QueryRow(e.ctx, `SELECT count(*) FROM notification_deliveries WHERE organization_id = $1 AND kind = $2`,
		e.venue.ID, billing.KindRateLock).Scan(&sent))
	require.Equal(t, 1, sent)
	c, ok := ctxRead().Get()
	require.True(t, ok)
	require.Equal(t, lk.Data.ID, c.RateLock.Value.ID)
	require.True(t, c.LoyaltyPrice.IsNull())

	// The billing clock: two renewals at the locked amount, then the price.
	require.Equal(t, int64(30000), e.renew(t, false).TotalMinor)
	require.Equal(t, int64(30000), e.renew(t, false).TotalMinor)
	require.Equal(t, int64(49900), e.subAmount(t), "the price is back before the renewal on or after the day")
	require.True(t, ctxRead().IsNull(), "an expired lock applies no more")
	require.Equal(t, 1, e.audits(t, billing.AuditRateLockExpired))
	require.Equal(t, int64(49900), e.renew(t, false).TotalMinor)

	// Removal restores the price; a second removal finds nothing.
	p = e.db().Pass.GetX(e.op, e.pass)
	_, err = e.lock(&api.AdminRateLockRequest{PassID: e.pass, Amount: 250, LockedUntil: p.ValidTo.UTC().AddDate(0, 6, 0), Reason: "again"})
	require.NoError(t, err)
	require.Equal(t, int64(25000), e.subAmount(t))
	rm, err := e.boss.RemoveAdminRateLock(e.ctx, api.RemoveAdminRateLockParams{PassId: e.pass, IdempotencyKey: uuid.NewString()})
	require.NoError(t, err)
	require.Equal(t, api.AdminRateLockStatusRemoved, rm.Data.Status)
	require.Equal(t, int64(49900), e.subAmount(t))
	_, err = e.boss.RemoveAdminRateLock(e.ctx, api.RemoveAdminRateLockParams{PassId: e.pass, IdempotencyKey: uuid.NewString()})
	requireCode(t, err, http.StatusNotFound, "NOT_FOUND")
	require.Equal(t, int64(49900), e.renew(t, false).TotalMinor)
	require.Equal(t, 1, e.audits(t, billing.AuditRateLockRemoved))
}
