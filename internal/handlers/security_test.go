package handlers_test

import (
	"context"
	"net/http"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/venueplatform/venue/internal/apikey"
	api "github.com/venueplatform/venue/internal/gen/api"
	"github.com/venueplatform/venue/internal/platform"
	"github.com/venueplatform/venue/internal/venue"
	"github.com/venueplatform/venue/internal/viewer"
)

func TestAPIKeyGates(t *testing.T) {
	s := newStudio(t, "studio")
	ctx := context.Background()
	params := api.GetVenueScheduleParams{Slug: "studio"}

	// A valid key with read:schedule reads its venue.
	res, err := s.apiClient(t, s.key).GetVenueSchedule(ctx, params)
	require.NoError(t, err)
	require.Len(t, res.Data, 3)

	// Unknown and malformed keys: 401, also on the public reads that take
	// no key (a key sent is checked wherever it is sent).
	for _, k := range []string{"vk_0123456789_0123456789012345678901234567890123456789", "nonsense"} {
		_, err = s.apiClient(t, k).GetVenueSchedule(ctx, params)
		es := errorOf(t, err)
		require.Equal(t, http.StatusUnauthorized, es.StatusCode, k)
		require.Equal(t, "UNAUTHORIZED", es.Response.Error.Code)
		status, body := getRaw(t, s.srv.URL+"/api/v1/venues/studio", k)
		require.Equal(t, http.StatusUnauthorized, status, k)
		require.Equal(t, "UNAUTHORIZED", body.Error.Code)
	}
	status, _ := getRaw(t, s.srv.URL+"/api/v1/venues/studio", s.key)
	require.Equal(t, http.StatusOK, status, "a valid key reads the public view")

	// A key without the operation's scope: 403 naming the scope.
	narrow, err := apikey.Create(s.op, s.client, apikey.CreateParams{Name: "pricing only", Scopes: []string{"read:pricing"}})
	require.NoError(t, err)
	_, err = s.apiClient(t, narrow.Secret).GetVenueSchedule(ctx, params)
	es := errorOf(t, err)
	require.Equal(t, http.StatusForbidden, es.StatusCode)
	require.Equal(t, "ACCESS_DENIED", es.Response.Error.Code)
	require.Equal(t, "scope", es.Response.Error.Details.Reason.Value)
	require.Equal(t, []string{"read:schedule"}, es.Response.Error.Details.RequiredScopes)
	_, err = s.apiClient(t, narrow.Secret).GetVenuePricing(ctx, api.GetVenuePricingParams{Slug: "studio"})
	require.NoError(t, err)

	// A key of another venue: 404, exactly like an unknown venue.
	ov, err := venue.Create(ctx, s.client, venue.CreateParams{Name: "Other", Slug: "other", APIEnabled: true})
	require.NoError(t, err)
	otherKey, err := apikey.Create(viewer.NewContext(ctx, viewer.Operator{Org: ov.ID}), s.client,
		apikey.CreateParams{Name: "other", Scopes: []string{"read:schedule"}})
	require.NoError(t, err)
	_, err = s.apiClient(t, otherKey.Secret).GetVenueSchedule(ctx, params)
	require.Equal(t, http.StatusNotFound, errorOf(t, err).StatusCode)

	// Revoked at once.
	_, err = apikey.Revoke(s.op, s.client, narrow.Key.ID)
	require.NoError(t, err)
	_, err = s.apiClient(t, narrow.Secret).GetVenuePricing(ctx, api.GetVenuePricingParams{Slug: "studio"})
	require.Equal(t, http.StatusUnauthorized, errorOf(t, err).StatusCode)

	// Plan gate, then the feature flag: 403 with the reason. Public reads go on.
	deny := func(reason string) {
		t.Helper()
		_, err := s.apiClient(t, s.key).GetVenueSchedule(ctx, params)
		es := errorOf(t, err)
		require.Equal(t, http.StatusForbidden, es.StatusCode)
		require.Equal(t, "ACCESS_DENIED", es.Response.Error.Code)
		require.Equal(t, reason, es.Response.Error.Details.Reason.Value)
		_, err = s.apiClient(t, "").GetVenueSchedule(ctx, params)
		require.NoError(t, err, "the public view stays open")
	}
	starter, off, on := "starter", false, true
	_, err = venue.Update(ctx, s.client, "studio", venue.UpdateParams{Plan: &starter})
	require.NoError(t, err)
	deny("plan")
	enterprise := "enterprise"
	_, err = venue.Update(ctx, s.client, "studio", venue.UpdateParams{Plan: &enterprise, APIEnabled: &off})
	require.NoError(t, err)
	deny("feature_flag")
	_, err = venue.Update(ctx, s.client, "studio", venue.UpdateParams{APIEnabled: &on})
	require.NoError(t, err)

	// The kill switch refuses every key request.
	_, err = platform.SetKillSwitch(ctx, s.client, true, "test")
	require.NoError(t, err)
	fresh := newServer(t, s) // a new instance reads the switch at once
	c, err := api.NewClient(fresh+"/api/v1", keySource(s.key))
	require.NoError(t, err)
	_, err = c.GetVenueSchedule(ctx, params)
	es = errorOf(t, err)
	require.Equal(t, http.StatusForbidden, es.StatusCode)
	require.Equal(t, "kill_switch", es.Response.Error.Details.Reason.Value)
	// Also on the public reads that take no key: a request carrying one is
	// refused, while the same read without a key is served.
	for _, path := range []string{"/venues", "/venues/studio", "/venues/studio/addons", "/discovery/counts?date=2026-11-30"} {
		status, body := getRaw(t, fresh+"/api/v1"+path, s.key)
		require.Equal(t, http.StatusForbidden, status, path)
		require.Equal(t, "kill_switch", body.Error.Details["reason"], path)
		status, _ = getRaw(t, fresh+"/api/v1"+path, "")
		require.Equal(t, http.StatusOK, status, path)
	}
	_, err = platform.SetKillSwitch(ctx, s.client, false, "test")
	require.NoError(t, err)
}
