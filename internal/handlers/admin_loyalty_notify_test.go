package handlers_test

import (
	"net/http"
	"testing"

	"github.com/google/uuid"
	"github.com/stretchr/testify/require"

	"github.com/venueplatform/venue/ent/member"
	"github.com/venueplatform/venue/ent/notificationdelivery"
	"github.com/venueplatform/venue/internal/billing"
	api "github.com/venueplatform/venue/internal/gen/api"
)

// TestLoyaltyPriceNotice: the member is told when a loyalty price is granted
// and when it is revoked (one outbox row per channel: e-mail queued, push
// skipped without a device), a grant Stripe refused tells nothing, and a
// member who turned payment e-mails off is not e-mailed (the skip recorded
// with its reason).
func TestLoyaltyPriceNotice(t *testing.T) {
	e := newLifeEnv(t)
	ptID := e.db().Pass.GetX(e.op, e.pass).PassTypeID
	uid := e.db().Member.Query().Where(member.ID(e.mid)).OnlyX(e.op).UserID
	s := e.signup(t, "loyal-notice@pay.example", goodPassword)
	enroll(t, e.authEnv, e.op, "loyal-notice@pay.example", "staff", billing.PermLoyaltyPriceGrant)
	granter := e.client(t, s.AccessToken)
	_, err := granter.SetActiveOrganization(e.ctx, &api.ActiveOrganizationRequest{OrganizationID: e.venue.ID})
	require.NoError(t, err)
	rows := func(kind string, ch notificationdelivery.Channel) []string {
		t.Helper()
		var out []string
		for _, r := range e.db().NotificationDelivery.Query().Where(notificationdelivery.Kind(kind), notificationdelivery.ChannelEQ(ch)).AllX(e.op) {
			require.Equal(t, e.mid, *r.MemberID)
			reason := ""
			if r.StatusReason != nil {
				reason = *r.StatusReason
			}
			out = append(out, string(r.Status)+":"+reason)
		}
		return out
	}
	grant := func(amount int64) error {
		_, err := granter.GrantAdminLoyaltyPrice(e.ctx, &api.AdminLoyaltyPriceGrantRequest{UserID: uid, PassTypeID: ptID,
			AmountMinor: api.NewOptInt64(amount), Reason: "loyal"}, api.GrantAdminLoyaltyPriceParams{IdempotencyKey: uuid.NewString()})
		return err
	}

	// Stripe refuses: no grant, no message.
	e.fake.FailSubscriptionUpdates(0, 0, 1)
	requireCode(t, grant(39900), http.StatusBadGateway, "STRIPE_ERROR")
	require.Empty(t, rows(billing.KindLoyaltyPriceGranted, notificationdelivery.ChannelEmail))

	require.NoError(t, grant(39900))
	require.Equal(t, []string{"pending:"}, rows(billing.KindLoyaltyPriceGranted, notificationdelivery.ChannelEmail))
	require.Len(t, rows(billing.KindLoyaltyPriceGranted, notificationdelivery.ChannelPush), 1)
	require.Equal(t, string(notificationdelivery.StatusSkipped), string(e.db().NotificationDelivery.Query().
		Where(notificationdelivery.Kind(billing.KindLoyaltyPriceGranted), notificationdelivery.ChannelEQ(notificationdelivery.ChannelPush)).
		OnlyX(e.op).Status), "no push device")
	mail := e.db().NotificationDelivery.Query().Where(notificationdelivery.Kind(billing.KindLoyaltyPriceGranted),
		notificationdelivery.ChannelEQ(notificationdelivery.ChannelEmail)).OnlyX(e.op)
	require.Equal(t, "buyer@pay.example", mail.Address)
	require.Contains(t, mail.Body, "Monthly")
	require.Equal(t, ptID.String(), mail.Data["pass_type_id"])

	// The member turns payment e-mails off; the revoke is recorded, not e-mailed.
	_, err = e.member.UpdateMyNotificationPreferences(e.ctx, &api.MeNotificationPreferencesPatch{
		Categories: api.NewOptMeNotificationPreferencesPatchCategories(map[string]api.MeNotificationCategoryPatch{
			"payments": {Email: api.NewOptBool(false)}})},
		api.UpdateMyNotificationPreferencesParams{IdempotencyKey: uuid.NewString()})
	require.NoError(t, err)
	_, err = granter.RevokeAdminLoyaltyPrice(e.ctx, &api.AdminLoyaltyPriceRevokeRequest{UserID: uid, Reason: "ended"},
		api.RevokeAdminLoyaltyPriceParams{IdempotencyKey: uuid.NewString()})
	require.NoError(t, err)
	require.Equal(t, []string{"skipped:user_opted_out"}, rows(billing.KindLoyaltyPriceRevoked, notificationdelivery.ChannelEmail))
	require.Len(t, rows(billing.KindLoyaltyPriceRevoked, notificationdelivery.ChannelPush), 1)
	require.Len(t, rows(billing.KindLoyaltyPriceGranted, notificationdelivery.ChannelEmail), 1, "the grant was told once")
}
