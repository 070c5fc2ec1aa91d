package handlers_test

import (
	"context"
	"net/http"
	"testing"

	"github.com/google/uuid"
	"github.com/stretchr/testify/require"

	"github.com/venueplatform/venue/internal/auth"
	api "github.com/venueplatform/venue/internal/gen/api"
)

// withHeader returns a generated client for the env whose requests also
// carry header: value (a second credential the client's own source would
// never send).
func (e *authEnv) withHeader(t *testing.T, src api.SecuritySource, header, value string) *api.Client {
	t.Helper()
	hc := &http.Client{Transport: roundTripFunc(func(r *http.Request) (*http.Response, error) {
		r.Header.Set(header, value)
		return http.DefaultTransport.RoundTrip(r)
	})}
	c, err := api.NewClient(e.url+"/api/v1", src, api.WithClient(hc))
	require.NoError(t, err)
	return c
}

// TestMixedCredentialsAndJWTOnly: a request carrying both a bearer token and
// an API key is refused on every operation that authenticates its caller
// (bearer-only, key-only and either); a JWT-only operation refuses API keys.
func TestMixedCredentialsAndJWTOnly(t *testing.T) {
	s := newStudio(t, "studio")
	e := newAuthEnv(t, s)
	ctx := context.Background()
	sess := e.signup(t, "ana@example.com", goodPassword)
	mixed := func(err error) {
		t.Helper()
		es := errorOf(t, err)
		require.Equal(t, http.StatusUnauthorized, es.StatusCode)
		require.Equal(t, "UNAUTHORIZED", es.Response.Error.Code)
		require.Equal(t, auth.ReasonMixedCredentials, es.Response.Error.Details.Reason.Value)
	}

	// Bearer-only /me endpoints: fine alone, refused with an extra valid key.
	_, err := e.client(t, sess.AccessToken).GetMe(ctx)
	require.NoError(t, err)
	both := e.withHeader(t, bearer(sess.AccessToken), "X-API-Key", s.key)
	_, err = both.GetMe(ctx)
	mixed(err)
	_, err = both.ListMyInquiries(ctx, api.ListMyInquiriesParams{})
	mixed(err)
	_, err = both.UpdateMe(ctx, &api.MeUpdateRequest{FirstName: api.NewOptString("Mallory")})
	mixed(err)
	me, err := e.client(t, sess.AccessToken).GetMe(ctx)
	require.NoError(t, err)
	require.NotEqual(t, "Mallory", me.Data.FirstName, "a refused request changes nothing")

	// A key-authenticated read with a bearer token on top: refused too.
	_, err = e.withHeader(t, keySource(s.key), "Authorization", "Bearer "+sess.AccessToken).
		GetVenueSchedule(ctx, api.GetVenueScheduleParams{Slug: "studio"})
	mixed(err)
	_, err = s.apiClient(t, s.key).GetVenueSchedule(ctx, api.GetVenueScheduleParams{Slug: "studio"})
	require.NoError(t, err)

	// A JWT-only staff operation (x-jwt-only in its fragment) lists
	// ApiKeyAuth, but a key is refused before anything runs.
	params := api.CheckInAdminBookingParams{ClassInstanceId: s.fullClass, BookingId: uuid.New()}
	_, err = e.apiKeyClient(t, s.key).CheckInAdminBooking(ctx, api.OptCheckinCheckInRequest{}, params)
	es := errorOf(t, err)
	require.Equal(t, http.StatusForbidden, es.StatusCode)
	require.Equal(t, auth.ReasonJWTOnly, es.Response.Error.Details.Reason.Value)
	// A JWT-only member operation whose security names only BearerAuth:
	// an API key alone is the same 403, not a 401 for a missing token.
	for _, path := range []string{"/me/inquiries"} {
		status, body := getRaw(t, e.url+"/api/v1"+path, s.key)
		require.Equal(t, http.StatusForbidden, status, path)
		require.Equal(t, auth.ReasonJWTOnly, body.Error.Details["reason"], path)
	}
	// A bearer-only operation: an API key alone is 401 saying the operation
	// takes a bearer token (not that the key is bad).
	for _, path := range []string{"/me", "/bookings"} {
		status, body := getRaw(t, e.url+"/api/v1"+path, s.key)
		require.Equal(t, http.StatusUnauthorized, status, path)
		require.Equal(t, "UNAUTHORIZED", body.Error.Code, path)
		require.Equal(t, auth.ReasonBearerRequired, body.Error.Details["reason"], path)
	}
	// POST /auth/mfa/reset takes either credential, one at a time.
	req := &api.MfaResetRequest{UserID: sess.User.ID}
	_, err = e.withHeader(t, bearer(sess.AccessToken), "X-API-Key", s.key).AuthMfaReset(ctx, req)
	mixed(err)
}

// apiKeyClient returns a client of the env's server sending the API key.
func (e *authEnv) apiKeyClient(t *testing.T, key string) *api.Client {
	t.Helper()
	c, err := api.NewClient(e.url+"/api/v1", keySource(key))
	require.NoError(t, err)
	return c
}
