package handlers_test

import (
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/google/uuid"
	"github.com/stretchr/testify/require"

	"github.com/venueplatform/venue/ent/member"
	"github.com/venueplatform/venue/ent/pass"
	"github.com/venueplatform/venue/internal/apikey"
	"github.com/venueplatform/venue/internal/billing"
	api "github.com/venueplatform/venue/internal/gen/api"
)

func (e *lifeEnv) loyaltyRows(t *testing.T) int {
	t.Helper()
	var n int
	require.NoError(t, e.pool.QueryRow(e.ctx, `SELECT count(*) FROM loyalty_prices WHERE organization_id = $1`, e.venue.ID).Scan(&n))
	return n
}

// rawPost sends body to path with token and key, answering the status and body.
func (e *lifeEnv) rawPost(t *testing.T, token, key, path, body string) (int, string) {
	t.Helper()
	req, err := http.NewRequest(http.MethodPost, e.url+"/api/v1"+path, strings.NewReader(body))
	require.NoError(t, err)
	req.Header.Set("Authorization", "Bearer "+token)
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Idempotency-Key", key)
	res, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	return res.StatusCode, string(b)
}

// TestAdminLoyaltyPrice: a granted member's renewals charge the loyalty
// price (observed through the billing clock), a rate lock comes first
// while it holds and gives back the loyalty price (not the pass type's)
// when it ends, the context read shows the grant and is null when nothing
// applies, and revoking puts the pass type's price back; refusals (no
// permission, a key that is not a UUID, zero or negative amounts, another
// venue's user, pass type or pass, revoking nothing) change nothing.
func TestAdminLoyaltyPrice(t *testing.T) {
	e := newLifeEnv(t)
	foreign := e.foreignPass(t)
	var foreignUser uuid.UUID
	require.NoError(t, e.pool.QueryRow(e.ctx, `SELECT id FROM users WHERE email = 'far@pay.example'`).Scan(&foreignUser))
	ps := e.db().Pass.GetX(e.op, e.pass)
	ptID := ps.PassTypeID
	uid := e.db().Member.Query().Where(member.ID(e.mid)).OnlyX(e.op).UserID

	s := e.signup(t, "loyal@pay.example", goodPassword)
	enroll(t, e.authEnv, e.op, "loyal@pay.example", "staff", billing.PermLoyaltyPriceGrant)
	granter := e.client(t, s.AccessToken)
	_, err := granter.SetActiveOrganization(e.ctx, &api.ActiveOrganizationRequest{OrganizationID: e.venue.ID})
	require.NoError(t, err)
	grant := func(c *api.Client, req *api.AdminLoyaltyPriceGrantRequest) (*api.AdminLoyaltyPriceResponse, error) {
		return c.GrantAdminLoyaltyPrice(e.ctx, req, api.GrantAdminLoyaltyPriceParams{IdempotencyKey: uuid.NewString()})
	}
	revoke := func(c *api.Client, req *api.AdminLoyaltyPriceRevokeRequest) (*api.AdminLoyaltyPriceListResponse, error) {
		return c.RevokeAdminLoyaltyPrice(e.ctx, req, api.RevokeAdminLoyaltyPriceParams{IdempotencyKey: uuid.NewString()})
	}
	ctxRead := func() api.NilAdminRateContext {
		t.Helper()
		got, err := e.boss.GetAdminRateContext(e.ctx, api.GetAdminRateContextParams{PassId: e.pass})
		require.NoError(t, err)
		return got.Data.Context
	}
	require.True(t, ctxRead().IsNull(), "nothing applies yet")
	quoted := func() int64 {
		t.Helper()
		pv, err := e.member.GetCheckoutPreview(e.ctx, api.GetCheckoutPreviewParams{XOrganizationID: e.venue.ID, PassTypeSlug: "monthly-renew"})
		require.NoError(t, err)
		q, ok := pv.Data.DirectPurchaseQuote.Get()
		require.True(t, ok)
		return q.PayableMinor
	}
	require.Equal(t, int64(49900), quoted())

	// Refusals change nothing.
	_, err = grant(e.boss, &api.AdminLoyaltyPriceGrantRequest{UserID: uid, PassTypeID: ptID, Amount: api.NewOptFloat64(399), Reason: "loyal"})
	requireCode(t, err, http.StatusForbidden, "ACCESS_DENIED")
	for _, c := range []struct {
		req    *api.AdminLoyaltyPriceGrantRequest
		status int
		code   string
	}{
		{&api.AdminLoyaltyPriceGrantRequest{UserID: uid, PassTypeID: ptID, Amount: api.NewOptFloat64(0), Reason: "loyal"}, 400, "VALIDATION_ERROR"},
		{&api.AdminLoyaltyPriceGrantRequest{UserID: uid, PassTypeID: ptID, AmountMinor: api.NewOptInt64(0), Reason: "loyal"}, 400, "VALIDATION_ERROR"},
		{&api.AdminLoyaltyPriceGrantRequest{UserID: uid, PassTypeID: ptID, Amount: api.NewOptFloat64(399.001), Reason: "loyal"}, 400, "VALIDATION_ERROR"},
		{&api.AdminLoyaltyPriceGrantRequest{UserID: uid, PassTypeID: ptID, Reason: "loyal"}, 400, "VALIDATION_ERROR"},
		{&api.AdminLoyaltyPriceGrantRequest{UserID: foreignUser, PassTypeID: ptID, Amount: api.NewOptFloat64(399), Reason: "loyal"}, 404, "NOT_FOUND"},
		{&api.AdminLoyaltyPriceGrantRequest{UserID: uid, PassTypeID: uuid.New(), Amount: api.NewOptFloat64(399), Reason: "loyal"}, 404, "NOT_FOUND"},
		{&api.AdminLoyaltyPriceGrantRequest{UserID: uid, PassTypeID: ptID, PassID: api.NewOptUUID(foreign), Amount: api.NewOptFloat64(399), Reason: "loyal"}, 404, "NOT_FOUND"},
	} {
		_, err := grant(granter, c.req)
		requireCode(t, err, c.status, c.code)
	}
	st, body := e.rawPost(t, s.AccessToken, uuid.NewString(), "/admin/loyalty-price/grant",
		`{"user_id":"`+uid.String()+`","pass_type_id":"`+ptID.String()+`","amount":-5,"reason":"loyal"}`)
	require.Equal(t, http.StatusBadRequest, st, body)
	require.Contains(t, body, "VALIDATION_ERROR")
	st, body = e.rawPost(t, s.AccessToken, "not-a-uuid", "/admin/loyalty-price/grant",
		`{"user_id":"`+uid.String()+`","pass_type_id":"`+ptID.String()+`","amount":399,"reason":"loyal"}`)
	require.Equal(t, http.StatusBadRequest, st, body)
	require.Contains(t, body, "IDEMPOTENCY_KEY_INVALID")
	_, err = granter.RevokeAdminLoyaltyPrice(e.ctx, &api.AdminLoyaltyPriceRevokeRequest{UserID: uid, Reason: "nothing"},
		api.RevokeAdminLoyaltyPriceParams{IdempotencyKey: "revoke-1"})
	requireCode(t, err, http.StatusBadRequest, "IDEMPOTENCY_KEY_INVALID")
	require.Zero(t, e.keysClaimed(t, "not-a-uuid", "revoke-1"), "a refused key is not claimed")
	_, err = revoke(granter, &api.AdminLoyaltyPriceRevokeRequest{UserID: uid, Reason: "nothing"})
	requireCode(t, err, http.StatusNotFound, "NOT_FOUND")
	require.Zero(t, e.loyaltyRows(t))
	require.Equal(t, int64(49900), e.subAmount(t))
	require.Zero(t, e.audits(t, billing.AuditLoyaltyPriceGranted))
	require.Zero(t, e.audits(t, billing.AuditLoyaltyPriceRevoked))

	// The grant reprices the membership; a retry with the same key replays.
	key := uuid.NewString()
	req := &api.AdminLoyaltyPriceGrantRequest{UserID: uid, PassTypeID: ptID, PassID: api.NewOptUUID(e.pass), Amount: api.NewOptFloat64(399), Reason: "ten years"}
	g, err := granter.GrantAdminLoyaltyPrice(e.ctx, req, api.GrantAdminLoyaltyPriceParams{IdempotencyKey: key})
	require.NoError(t, err)
	again, err := granter.GrantAdminLoyaltyPrice(e.ctx, req, api.GrantAdminLoyaltyPriceParams{IdempotencyKey: key})
	require.NoError(t, err)
	require.Equal(t, g.Data.ID, again.Data.ID)
	require.Equal(t, 1, e.loyaltyRows(t))
	require.Equal(t, int64(39900), g.Data.AmountMinor)
	require.Equal(t, int64(39900), e.subAmount(t))
	require.Equal(t, 1, e.audits(t, billing.AuditLoyaltyPriceGranted))
	c, ok := ctxRead().Get()
	require.True(t, ok)
	require.True(t, c.RateLock.IsNull())
	require.Equal(t, g.Data.ID, c.LoyaltyPrice.Value.ID)
	require.Equal(t, int64(39900), quoted(), "a new purchase is quoted at the loyalty price")
	require.Equal(t, int64(39900), e.renew(t, false).TotalMinor)

	// A rate lock comes first while it holds, then the loyalty price returns.
	p := e.db().Pass.GetX(e.op, e.pass)
	_, err = e.lock(&api.AdminRateLockRequest{PassID: e.pass, Amount: 300, LockedUntil: p.ValidTo.UTC().AddDate(0, 0, 10), Reason: "winter"})
	require.NoError(t, err)
	require.Equal(t, int64(30000), e.renew(t, false).TotalMinor)
	require.Equal(t, int64(39900), e.subAmount(t), "the lock gives back the loyalty price")
	require.Equal(t, int64(39900), e.renew(t, false).TotalMinor)

	// An API key with write:passes revokes by pass: the pass type's price returns.
	issued, err := apikey.Create(e.op, e.db(), apikey.CreateParams{Name: "passes", Scopes: []string{"write:passes", "read:passes"}, CreatedBy: "loyal@pay.example"})
	require.NoError(t, err)
	kc, err := api.NewClient(e.url+"/api/v1", keySource(issued.Secret))
	require.NoError(t, err)
	_, err = revoke(kc, &api.AdminLoyaltyPriceRevokeRequest{UserID: uid, PassID: api.NewOptUUID(foreign), Reason: "x"})
	requireCode(t, err, http.StatusNotFound, "NOT_FOUND")
	rv, err := revoke(kc, &api.AdminLoyaltyPriceRevokeRequest{UserID: uid, PassID: api.NewOptUUID(e.pass), Reason: "moved away"})
	require.NoError(t, err)
	require.Len(t, rv.Data, 1)
	require.Equal(t, api.AdminLoyaltyPriceStatusRevoked, rv.Data[0].Status)
	require.Equal(t, int64(49900), e.subAmount(t))
	require.True(t, ctxRead().IsNull())
	require.Equal(t, int64(49900), quoted())
	require.Equal(t, 1, e.audits(t, billing.AuditLoyaltyPriceRevoked))
	_, err = revoke(kc, &api.AdminLoyaltyPriceRevokeRequest{UserID: uid, Reason: "again"})
	requireCode(t, err, http.StatusNotFound, "NOT_FOUND")
	require.Equal(t, int64(49900), e.renew(t, false).TotalMinor)
	require.Equal(t, pass.StatusActive, e.db().Pass.GetX(e.op, e.pass).Status)
}
