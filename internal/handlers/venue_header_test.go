package handlers_test

import (
	"encoding/json"
	"io"
	"net/http"
	"testing"

	"github.com/stretchr/testify/require"

	api "github.com/venueplatform/venue/internal/gen/api"
	"github.com/venueplatform/venue/internal/venue"
	"github.com/venueplatform/venue/internal/viewer"
)

// call sends a GET with the credential and venue headers and returns the
// status and body.
func (e *schedEnv) call(t *testing.T, path string, headers map[string]string) (int, string) {
	t.Helper()
	req, err := http.NewRequest(http.MethodGet, e.url+"/api/v1"+path, nil)
	require.NoError(t, err)
	for k, v := range headers {
		req.Header.Set(k, v)
	}
	res, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	require.NoError(t, err)
	return res.StatusCode, string(b)
}

func errCode(t *testing.T, body string) string {
	t.Helper()
	var env struct {
		Error struct{ Code string } `json:"error"`
	}
	require.NoError(t, json.Unmarshal([]byte(body), &env), body)
	return env.Error.Code
}

// TestVenueHeaderIsNeverIgnored: on staff and /me operations a venue header
// naming another venue than the caller's is obeyed when the user works
// there (the call acts in that venue, the session's active venue stays),
// 403 WORKSPACE_NOT_SELECTABLE where the user is only a client, and 404
// NOT_FOUND for a venue the caller cannot see; an API key is held to its
// own venue.
func TestVenueHeaderIsNeverIgnored(t *testing.T) {
	e := newSchedEnv(t)
	otherVenue, err := venue.Lookup(e.ctx, e.db(), venue.Ref{Slug: "other"})
	require.NoError(t, err)
	third, err := venue.Create(e.ctx, e.db(), venue.CreateParams{Name: "Third", Slug: "third"})
	require.NoError(t, err)
	thirdOp := viewer.NewContext(e.ctx, viewer.Operator{Org: third.ID, Name: "test"})

	s := e.signup(t, "owner@studio.example", goodPassword)
	enroll(t, e.authEnv, e.op, "owner@studio.example", "owner")
	_, err = e.client(t, s.AccessToken).SetActiveOrganization(e.ctx, &api.ActiveOrganizationRequest{OrganizationID: e.venue.ID})
	require.NoError(t, err)
	auth := func(h map[string]string) map[string]string {
		h["Authorization"] = "Bearer " + s.AccessToken
		return h
	}

	// The caller's own venue, by id or slug, or no header: as before.
	for _, h := range []map[string]string{{}, {"X-Organization-ID": e.venue.ID.String()}, {"X-Organization-Slug": "STUDIO"}} {
		status, body := e.call(t, "/admin/schedule", auth(h))
		require.Equal(t, http.StatusOK, status, body)
		require.NotContains(t, body, e.otherClass.String())
	}
	// A venue the user has no relationship with, an unknown one: 404.
	for _, h := range []map[string]string{{"X-Organization-ID": otherVenue.ID.String()}, {"X-Organization-Slug": "other"},
		{"X-Organization-Slug": "nowhere"}, {"X-Organization-ID": "5d1e3f52-7c1a-4e0b-9d55-0f4b7a3c2e10"}} {
		for _, path := range []string{"/admin/schedule", "/calendar", "/me", "/me/notification-preferences"} {
			status, body := e.call(t, path, auth(h))
			require.Equal(t, http.StatusNotFound, status, "%s %v: %s", path, h, body)
			require.Equal(t, "NOT_FOUND", errCode(t, body), path)
		}
	}
	// A venue where the user is only a client: 403 WORKSPACE_NOT_SELECTABLE
	// on staff operations; the user's own operations accept it (a member
	// app sends its venue's header on every call).
	enroll(t, e.authEnv, thirdOp, "owner@studio.example", "member")
	for _, path := range []string{"/admin/schedule", "/calendar"} {
		status, body := e.call(t, path, auth(map[string]string{"X-Organization-Slug": "third"}))
		require.Equal(t, http.StatusForbidden, status, "%s: %s", path, body)
		require.Equal(t, "WORKSPACE_NOT_SELECTABLE", errCode(t, body), path)
	}
	for _, path := range []string{"/me", "/me/notification-preferences"} {
		status, body := e.call(t, path, auth(map[string]string{"X-Organization-Slug": "third"}))
		require.Equal(t, http.StatusOK, status, "%s: %s", path, body)
	}
	// A venue where the user works: the call acts there.
	enroll(t, e.authEnv, e.otherOp, "owner@studio.example", "owner")
	status, body := e.call(t, "/admin/schedule", auth(map[string]string{"X-Organization-ID": otherVenue.ID.String()}))
	require.Equal(t, http.StatusOK, status, body)
	require.Contains(t, body, e.otherClass.String())
	require.NotContains(t, body, e.fullClass.String())
	// ... for that call only: the session's active venue is unchanged.
	status, body = e.call(t, "/admin/schedule", auth(map[string]string{}))
	require.Equal(t, http.StatusOK, status, body)
	require.Contains(t, body, e.fullClass.String())
	require.NotContains(t, body, e.otherClass.String())

	// An API key: its own venue passes, any other is 404.
	status, body = e.call(t, "/admin/schedule", map[string]string{"X-API-Key": e.writeKey, "X-Organization-ID": e.venue.ID.String()})
	require.Equal(t, http.StatusOK, status, body)
	for _, h := range []map[string]string{{"X-Organization-ID": otherVenue.ID.String()}, {"X-Organization-Slug": "other"}} {
		h["X-API-Key"] = e.writeKey
		status, body = e.call(t, "/admin/schedule", h)
		require.Equal(t, http.StatusNotFound, status, body)
		require.Equal(t, "NOT_FOUND", errCode(t, body))
	}
}
