package handlers_test

import (
	"encoding/json"
	"net/http"
	"testing"

	"github.com/google/uuid"
	"github.com/stretchr/testify/require"

	"github.com/venueplatform/venue/ent/loyaltyprice"
	"github.com/venueplatform/venue/ent/member"
	"github.com/venueplatform/venue/ent/notificationdelivery"
	"github.com/venueplatform/venue/ent/subscription"
	"github.com/venueplatform/venue/internal/billing"
	api "github.com/venueplatform/venue/internal/gen/api"
)

// passOutcomes reads details.passes of a partial loyalty price answer.
func passOutcomes(t *testing.T, det api.ErrorDetails) map[string]string {
	t.Helper()
	var rows []struct {
		PassID  string `json:"pass_id"`
		Outcome string `json:"outcome"`
	}
	require.NoError(t, json.Unmarshal(det.AdditionalProps["passes"], &rows))
	out := map[string]string{}
	for _, r := range rows {
		out[r.PassID] = r.Outcome
	}
	return out
}

// TestLoyaltyPricePartialStripeRefusal: a member with two memberships of
// the pass type; Stripe takes the loyalty price for one and refuses the
// other. The answer is 502 STRIPE_ERROR (write_state partial) naming each
// pass's outcome; the stored state says the same (the grant active, the
// first membership at the loyalty price, the second at its old price, an
// audit entry with the outcomes) and the member is not told yet. A retry
// with the same key writes only the second membership and tells the member
// once. The revoke does the same the other way.
func TestLoyaltyPricePartialStripeRefusal(t *testing.T) {
	e := newLifeEnv(t)
	db := e.db()
	ps := db.Pass.GetX(e.op, e.pass)
	p2 := db.Pass.Create().SetMemberID(e.mid).SetPassTypeID(ps.PassTypeID).SetValidFrom(ps.ValidFrom).
		SetNillableValidTo(ps.ValidTo).SaveX(e.op)
	_, err := billing.New(e.svc).Start(e.op, p2.ID)
	require.NoError(t, err)
	sub1 := db.Subscription.Query().Where(subscription.PassID(e.pass)).OnlyX(e.op)
	sub2 := db.Subscription.Query().Where(subscription.PassID(p2.ID)).OnlyX(e.op)
	amount := func(id uuid.UUID) int64 {
		return db.Subscription.Query().Where(subscription.PassID(id)).OnlyX(e.op).AmountMinor
	}
	uid := db.Member.Query().Where(member.ID(e.mid)).OnlyX(e.op).UserID
	s := e.signup(t, "loyal@pay.example", goodPassword)
	enroll(t, e.authEnv, e.op, "loyal@pay.example", "staff", billing.PermLoyaltyPriceGrant)
	granter := e.client(t, s.AccessToken)
	_, err = granter.SetActiveOrganization(e.ctx, &api.ActiveOrganizationRequest{OrganizationID: e.venue.ID})
	require.NoError(t, err)
	told := func(kind string) int {
		return db.NotificationDelivery.Query().Where(notificationdelivery.Kind(kind),
			notificationdelivery.ChannelEQ(notificationdelivery.ChannelEmail)).CountX(e.op)
	}

	e.fake.RefuseSubscriptionUpdatesOf(*sub2.ProcessorSubscriptionID, true)
	key := uuid.NewString()
	req := &api.AdminLoyaltyPriceGrantRequest{UserID: uid, PassTypeID: ps.PassTypeID, AmountMinor: api.NewOptInt64(39900), Reason: "ten years"}
	_, err = granter.GrantAdminLoyaltyPrice(e.ctx, req, api.GrantAdminLoyaltyPriceParams{IdempotencyKey: key})
	st, code, det := apiCode(t, err)
	require.Equal(t, http.StatusBadGateway, st)
	require.Equal(t, "STRIPE_ERROR", code)
	require.JSONEq(t, `"partial"`, string(det.AdditionalProps["write_state"]))
	require.Equal(t, map[string]string{e.pass.String(): billing.LoyaltyPassApplied, p2.ID.String(): billing.LoyaltyPassRefused},
		passOutcomes(t, det))
	require.Equal(t, int64(39900), amount(e.pass), "Stripe took it: kept")
	require.Equal(t, int64(49900), amount(p2.ID), "refused: the old price")
	active := db.LoyaltyPrice.Query().Where(loyaltyprice.StatusEQ(loyaltyprice.StatusActive)).AllX(e.op)
	require.Len(t, active, 1, "the grant holds for the pass that has it")
	require.Equal(t, 1, e.audits(t, billing.AuditLoyaltyPricePartial))
	require.Zero(t, told(billing.KindLoyaltyPriceGranted), "told once the grant is whole")
	first := e.fake.SubscriptionUpdates(*sub1.ProcessorSubscriptionID)

	e.fake.RefuseSubscriptionUpdatesOf(*sub2.ProcessorSubscriptionID, false)
	g, err := granter.GrantAdminLoyaltyPrice(e.ctx, req, api.GrantAdminLoyaltyPriceParams{IdempotencyKey: key})
	require.NoError(t, err)
	require.Equal(t, active[0].ID, g.Data.ID, "the same grant, finished")
	require.Equal(t, int64(39900), amount(p2.ID))
	require.Equal(t, first, e.fake.SubscriptionUpdates(*sub1.ProcessorSubscriptionID), "the first membership is not written again")
	require.Equal(t, 1, db.LoyaltyPrice.Query().CountX(e.op))
	require.Equal(t, 1, told(billing.KindLoyaltyPriceGranted))

	// Revoke: Stripe refuses the first membership's usual price.
	e.fake.RefuseSubscriptionUpdatesOf(*sub1.ProcessorSubscriptionID, true)
	rkey := uuid.NewString()
	rreq := &api.AdminLoyaltyPriceRevokeRequest{UserID: uid, Reason: "ended"}
	_, err = granter.RevokeAdminLoyaltyPrice(e.ctx, rreq, api.RevokeAdminLoyaltyPriceParams{IdempotencyKey: rkey})
	st, code, det = apiCode(t, err)
	require.Equal(t, http.StatusBadGateway, st)
	require.Equal(t, "STRIPE_ERROR", code)
	require.Equal(t, map[string]string{e.pass.String(): billing.LoyaltyPassRefused, p2.ID.String(): billing.LoyaltyPassApplied},
		passOutcomes(t, det))
	require.Equal(t, int64(39900), amount(e.pass))
	require.Equal(t, int64(49900), amount(p2.ID))
	require.Equal(t, loyaltyprice.StatusActive, db.LoyaltyPrice.GetX(e.op, g.Data.ID).Status, "still the first membership's price")
	require.Zero(t, told(billing.KindLoyaltyPriceRevoked))

	e.fake.RefuseSubscriptionUpdatesOf(*sub1.ProcessorSubscriptionID, false)
	second := e.fake.SubscriptionUpdates(*sub2.ProcessorSubscriptionID)
	_, err = granter.RevokeAdminLoyaltyPrice(e.ctx, rreq, api.RevokeAdminLoyaltyPriceParams{IdempotencyKey: rkey})
	require.NoError(t, err)
	require.Equal(t, int64(49900), amount(e.pass))
	require.Equal(t, second, e.fake.SubscriptionUpdates(*sub2.ProcessorSubscriptionID), "the second membership is not written again")
	require.Equal(t, loyaltyprice.StatusRevoked, db.LoyaltyPrice.GetX(e.op, g.Data.ID).Status)
	require.Equal(t, 1, told(billing.KindLoyaltyPriceRevoked))
}
