package handlers_test

import (
	"context"
	"net/http"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/venueplatform/venue/internal/audit"
	api "github.com/venueplatform/venue/internal/gen/api"
)

// TestMFAReset: staff with admin.users.manage in the active venue reset a
// related person's factor; nobody else can, API keys included.
func TestMFAReset(t *testing.T) {
	e := newAuthEnv(t, newStudio(t, "studio"))
	ctx := context.Background()
	a := e.signup(t, "ana@example.com", goodPassword)
	enrolTOTP(t, e.client(t, a.AccessToken))
	enroll(t, e, e.op, "ana@example.com", "member")
	stranger := e.signup(t, "sam@example.com", goodPassword)

	staff := func(email string, perms ...string) *api.Client {
		s := e.signup(t, email, goodPassword)
		enroll(t, e, e.op, email, "staff", perms...)
		c := e.client(t, s.AccessToken)
		_, err := c.SetActiveOrganization(ctx, &api.ActiveOrganizationRequest{OrganizationID: e.venue.ID})
		require.NoError(t, err)
		return c
	}
	admin := staff("boss@example.com", "admin.users.manage")
	clerk := staff("clerk@example.com", "bookings.manage")

	_, err := clerk.AuthMfaReset(ctx, &api.MfaResetRequest{UserID: a.User.ID})
	requireCode(t, err, http.StatusForbidden, "ACCESS_DENIED")
	_, err = e.studio.apiClient(t, e.studio.key).AuthMfaReset(ctx, &api.MfaResetRequest{UserID: a.User.ID})
	requireCode(t, err, http.StatusForbidden, "ACCESS_DENIED")
	_, err = e.client(t, a.AccessToken).AuthMfaReset(ctx, &api.MfaResetRequest{UserID: a.User.ID})
	requireCode(t, err, http.StatusForbidden, "ACCESS_DENIED")
	_, err = admin.AuthMfaReset(ctx, &api.MfaResetRequest{UserID: stranger.User.ID})
	requireCode(t, err, http.StatusNotFound, "NOT_FOUND")
	require.True(t, e.login(t, "ana@example.com").MfaRequired, "nothing was reset")

	_, err = admin.AuthMfaReset(ctx, &api.MfaResetRequest{UserID: a.User.ID})
	require.NoError(t, err)
	l := e.login(t, "ana@example.com")
	require.False(t, l.MfaRequired)
	me, err := e.client(t, l.AccessToken).GetMe(ctx)
	require.NoError(t, err)
	require.False(t, me.Data.MfaEnabled)

	entries, err := audit.List(e.op, e.db(), 10)
	require.NoError(t, err)
	var found bool
	for _, en := range entries {
		if en.Action == "mfa.reset" {
			found = true
			require.Equal(t, "user:"+a.User.ID.String(), en.Target)
		}
	}
	require.True(t, found, "audited")
}
