package handlers_test

import (
	"context"
	"net/http"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/venueplatform/venue/internal/accounts"
	"github.com/venueplatform/venue/internal/apikey"
	"github.com/venueplatform/venue/internal/audit"
	api "github.com/venueplatform/venue/internal/gen/api"
	"github.com/venueplatform/venue/internal/members"
	"github.com/venueplatform/venue/internal/scope"
	"github.com/venueplatform/venue/internal/venue"
)

// TestMFAReset: staff with admin.users.manage in the active venue reset a
// related person's factor; other staff, the person and a read-only key
// cannot.
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

// keyClientOf issues an API key of the venue of op with scopes, issued by
// the staff member createdBy (empty: nobody recorded), and returns a client
// of the env's server sending it.
func (e *authEnv) keyClientOf(t *testing.T, op context.Context, createdBy string, scopes ...string) (*api.Client, string) {
	t.Helper()
	issued, err := apikey.Create(op, e.db(), apikey.CreateParams{Name: "k", Scopes: scopes, CreatedBy: createdBy})
	require.NoError(t, err)
	c, err := api.NewClient(e.url+"/api/v1", keySource(issued.Secret))
	require.NoError(t, err)
	return c, issued.Secret
}

// TestMFAResetByAPIKey: the contract's "Bearer or API key" with
// admin.users.manage. A key that can write acts with its issuer's
// permission, read at each call; read-only keys, keys of staff without the
// permission and keys of another venue are refused and change nothing.
func TestMFAResetByAPIKey(t *testing.T) {
	e := newAuthEnv(t, newStudio(t, "studio"))
	ctx := context.Background()
	a := e.signup(t, "ana@example.com", goodPassword)
	enrolTOTP(t, e.client(t, a.AccessToken))
	enroll(t, e, e.op, "ana@example.com", "member")
	stranger := e.signup(t, "sam@example.com", goodPassword)
	enrolTOTP(t, e.client(t, stranger.AccessToken))
	enroll(t, e, e.op, "boss@example.com", "staff", "admin.users.manage")
	enroll(t, e, e.op, "clerk@example.com", "staff", "bookings.manage")
	req := &api.MfaResetRequest{UserID: a.User.ID}

	// Read-only key: refused whoever issued it.
	ro, _ := e.keyClientOf(t, e.op, "boss@example.com", scope.ReadMembers)
	_, err := ro.AuthMfaReset(ctx, req)
	requireCode(t, err, http.StatusForbidden, "ACCESS_DENIED")
	require.Equal(t, accounts.ReasonResetReadOnlyKey, errorOf(t, err).Response.Error.Details.Reason.Value)
	// A write key of staff without the permission.
	clerkKey, _ := e.keyClientOf(t, e.op, "clerk@example.com", scope.WriteSchedule)
	_, err = clerkKey.AuthMfaReset(ctx, req)
	requireCode(t, err, http.StatusForbidden, "ACCESS_DENIED")
	require.Equal(t, accounts.ReasonResetPermission, errorOf(t, err).Response.Error.Details.Reason.Value)
	// A key of another venue, issued there by an admin: Ana is unknown there.
	otherOp, _ := e.otherVenue(t, "other")
	_, err = venue.Update(ctx, e.db(), "other", venue.UpdateParams{APIEnabled: ptr(true)})
	require.NoError(t, err)
	enroll(t, e, otherOp, "boss2@example.com", "owner")
	otherKey, _ := e.keyClientOf(t, otherOp, "boss2@example.com", scope.WriteSchedule)
	_, err = otherKey.AuthMfaReset(ctx, req)
	requireCode(t, err, http.StatusNotFound, "NOT_FOUND")
	require.True(t, e.login(t, "ana@example.com").MfaRequired, "nothing was reset")

	// The admin's write key: another venue's person is 404, Ana is reset.
	adminKey, secret := e.keyClientOf(t, e.op, "boss@example.com", scope.WriteSchedule)
	_, err = adminKey.AuthMfaReset(ctx, &api.MfaResetRequest{UserID: stranger.User.ID})
	requireCode(t, err, http.StatusNotFound, "NOT_FOUND")
	require.True(t, e.login(t, "sam@example.com").MfaRequired)
	// With a bearer token on top: mixed credentials, nothing done.
	_, err = e.withHeader(t, bearer(a.AccessToken), "X-API-Key", secret).AuthMfaReset(ctx, req)
	requireCode(t, err, http.StatusUnauthorized, "UNAUTHORIZED")
	require.True(t, e.login(t, "ana@example.com").MfaRequired)
	res, err := adminKey.AuthMfaReset(ctx, req)
	require.NoError(t, err)
	require.True(t, res.Data.Ok)
	require.False(t, e.login(t, "ana@example.com").MfaRequired)
	entries, err := audit.List(e.op, e.db(), 10)
	require.NoError(t, err)
	require.Equal(t, "mfa.reset", entries[0].Action)
	require.Equal(t, "user:"+a.User.ID.String(), entries[0].Target)
	require.Equal(t, audit.KindAPIKey, string(entries[0].ActorKind))

	// Revoking the issuer's permission disarms the key on the next call.
	enrolTOTP(t, e.client(t, e.login(t, "ana@example.com").AccessToken))
	_, err = members.ChangePermissions(e.op, e.db(), "boss@example.com", nil, []string{"admin.users.manage"})
	require.NoError(t, err)
	_, err = adminKey.AuthMfaReset(ctx, req)
	requireCode(t, err, http.StatusForbidden, "ACCESS_DENIED")
	require.JSONEq(t, `["admin.users.manage"]`, string(errorOf(t, err).Response.Error.Details.AdditionalProps["required_permissions"]))
	require.True(t, e.login(t, "ana@example.com").MfaRequired)
}

func ptr[T any](v T) *T { return &v }
