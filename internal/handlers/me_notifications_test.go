package handlers_test

import (
	"context"
	"net/http"
	"strings"
	"testing"

	"github.com/google/uuid"
	"github.com/stretchr/testify/require"

	"github.com/venueplatform/venue/ent/pushdevice"
	api "github.com/venueplatform/venue/internal/gen/api"
	"github.com/venueplatform/venue/internal/venue"
	"github.com/venueplatform/venue/internal/viewer"
)

// TestMyPushToken: the member app's installation reaches every venue the
// user belongs to, the branded and business apps one venue; a new token for
// the same installation replaces the old one and re-enables it; a token is
// the latest registration's; removal takes the user's own rows only; API keys
// and strangers to a venue are refused.
func TestMyPushToken(t *testing.T) {
	e := newAuthEnv(t, newStudio(t, "studio"))
	ctx := context.Background()
	other, err := venue.Create(ctx, e.db(), venue.CreateParams{Name: "Other", Slug: "other", APIEnabled: true})
	require.NoError(t, err)
	otherOp := viewer.NewContext(ctx, viewer.Operator{Org: other.ID, Name: "test"})
	third, err := venue.Create(ctx, e.db(), venue.CreateParams{Name: "Third", Slug: "third", APIEnabled: true})
	require.NoError(t, err)

	ana := e.signup(t, "ana@example.com", goodPassword)
	enroll(t, e, e.op, "ana@example.com", "member")
	enroll(t, e, otherOp, "ana@example.com", "member")
	c := e.client(t, ana.AccessToken)
	rows := func(op context.Context, device string) []string {
		t.Helper()
		ds := e.db().PushDevice.Query().Where(pushdevice.DeviceID(device)).AllX(op)
		out := make([]string, len(ds))
		for i, d := range ds {
			require.Nil(t, d.DisabledAt)
			out[i] = d.Token
		}
		return out
	}
	req := func(token, device string, variant api.MePushTokenRequestAppVariant) *api.MePushTokenRequest {
		return &api.MePushTokenRequest{Token: token, Platform: api.MePushTokenRequestPlatformIos, DeviceID: device, AppVariant: variant}
	}

	// The member app without a venue: every relationship.
	res, err := c.RegisterMyPushToken(ctx, req("tok-1", "phone-1", api.MePushTokenRequestAppVariantMember), api.RegisterMyPushTokenParams{})
	require.NoError(t, err)
	require.Equal(t, 2, res.Data.Venues)
	require.ElementsMatch(t, []uuid.UUID{e.venue.ID, other.ID}, res.Data.OrganizationIds)
	require.Equal(t, []string{"tok-1"}, rows(e.op, "phone-1"))
	require.Equal(t, []string{"tok-1"}, rows(otherOp, "phone-1"))

	// Rotation: the same installation's new token replaces the old one and a
	// device the provider disabled is enabled again.
	e.db().PushDevice.Update().Where(pushdevice.DeviceID("phone-1")).SetDisabledAt(e.today).ExecX(e.op)
	_, err = c.RegisterMyPushToken(ctx, req("tok-2", "phone-1", api.MePushTokenRequestAppVariantMember), api.RegisterMyPushTokenParams{})
	require.NoError(t, err)
	require.Equal(t, []string{"tok-2"}, rows(e.op, "phone-1"))
	require.Equal(t, []string{"tok-2"}, rows(otherOp, "phone-1"))

	// The branded and business apps need their venue, one the user belongs to.
	_, err = c.RegisterMyPushToken(ctx, req("tok-b", "phone-b", api.MePushTokenRequestAppVariantBranded), api.RegisterMyPushTokenParams{})
	es := requireErr(t, err, http.StatusBadRequest, "VALIDATION_ERROR")
	require.Equal(t, "X-Organization-ID", es.Response.Error.Details.Parameter.Value)
	_, err = c.RegisterMyPushToken(ctx, req("tok-b", "phone-b", api.MePushTokenRequestAppVariantBranded),
		api.RegisterMyPushTokenParams{XOrganizationID: api.NewOptUUID(third.ID)})
	requireErr(t, err, http.StatusNotFound, "NOT_FOUND")
	res, err = c.RegisterMyPushToken(ctx, req("tok-b", "phone-b", api.MePushTokenRequestAppVariantBranded),
		api.RegisterMyPushTokenParams{XOrganizationID: api.NewOptUUID(other.ID)})
	require.NoError(t, err)
	require.Equal(t, []uuid.UUID{other.ID}, res.Data.OrganizationIds)
	require.Empty(t, rows(e.op, "phone-b"))
	d := e.db().PushDevice.Query().Where(pushdevice.DeviceID("phone-b")).OnlyX(otherOp)
	require.Equal(t, pushdevice.AppVariantBranded, d.AppVariant)
	require.Equal(t, pushdevice.PlatformIos, d.Platform)

	// Bo signs in on Ana's phone: the token is Bo's now, in the venue they share.
	bo := e.signup(t, "bo@example.com", goodPassword)
	enroll(t, e, e.op, "bo@example.com", "member")
	boc := e.client(t, bo.AccessToken)
	_, err = boc.RegisterMyPushToken(ctx, req("tok-2", "phone-1-bo", api.MePushTokenRequestAppVariantMember), api.RegisterMyPushTokenParams{})
	require.NoError(t, err)
	require.Empty(t, rows(e.op, "phone-1"), "Ana's registration of the token in the shared venue is gone")
	require.Equal(t, []string{"tok-2"}, rows(otherOp, "phone-1"), "Bo has no relationship with the other venue")

	// Removal: at least one selector; only the user's own rows.
	_, err = c.RemoveMyPushToken(ctx, &api.MePushTokenRemoveRequest{}, api.RemoveMyPushTokenParams{})
	requireErr(t, err, http.StatusBadRequest, "VALIDATION_ERROR")
	gone, err := c.RemoveMyPushToken(ctx, &api.MePushTokenRemoveRequest{Token: api.NewOptString("tok-2")}, api.RemoveMyPushTokenParams{})
	require.NoError(t, err)
	require.Equal(t, 1, gone.Data.Removed)
	require.Equal(t, []string{"tok-2"}, rows(e.op, "phone-1-bo"), "Bo's registration of the same token stays")
	gone, err = c.RemoveMyPushToken(ctx, &api.MePushTokenRemoveRequest{DeviceID: api.NewOptString("phone-b")},
		api.RemoveMyPushTokenParams{XOrganizationID: api.NewOptUUID(third.ID)})
	require.NoError(t, err)
	require.Zero(t, gone.Data.Removed, "nothing of a venue the user does not belong to")
	gone, err = c.RemoveMyPushToken(ctx, &api.MePushTokenRemoveRequest{DeviceID: api.NewOptString("phone-b")}, api.RemoveMyPushTokenParams{})
	require.NoError(t, err)
	require.Equal(t, 1, gone.Data.Removed)

	// Bearer only: an API key is not a person.
	hr, err := http.NewRequest(http.MethodPost, e.url+"/api/v1/me/push-token",
		strings.NewReader(`{"token":"tok-k","platform":"ios","device_id":"phone-k","app_variant":"member"}`))
	require.NoError(t, err)
	hr.Header.Set("Content-Type", "application/json")
	hr.Header.Set("X-API-Key", e.studio.key)
	resp, err := http.DefaultClient.Do(hr)
	require.NoError(t, err)
	require.NoError(t, resp.Body.Close())
	require.Equal(t, http.StatusUnauthorized, resp.StatusCode)
	require.Zero(t, e.db().PushDevice.Query().Where(pushdevice.DeviceID("phone-k")).CountX(e.op))
}
