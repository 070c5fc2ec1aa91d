package handlers_test

import (
	"context"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"testing"

	"github.com/stretchr/testify/require"

	api "github.com/venueplatform/venue/internal/gen/api"
	"github.com/venueplatform/venue/internal/handlers"
	"github.com/venueplatform/venue/internal/server"
)

// headerDoer sends extra headers with every request of a generated client.
type headerDoer struct{ h http.Header }

func (d headerDoer) Do(r *http.Request) (*http.Response, error) {
	for k, v := range d.h {
		r.Header[k] = v
	}
	return http.DefaultClient.Do(r)
}

// TestGeoTrustedProxyHeaders: /geo reads the configured headers only from a
// trusted proxy, through the generated client, and is never cached.
func TestGeoTrustedProxyHeaders(t *testing.T) {
	s := newStudio(t, "studio")
	serve := func(cfg handlers.GeoConfig) string {
		h, err := server.New(server.Deps{Pool: s.pool, Client: s.client, Geo: &cfg,
			Log: slog.New(slog.NewJSONHandler(io.Discard, nil))})
		require.NoError(t, err)
		srv := httptest.NewServer(h)
		t.Cleanup(srv.Close)
		return srv.URL
	}
	geo := func(url string, h http.Header) (country, city api.NilString, cache string) {
		t.Helper()
		c, err := api.NewClient(url+"/api/v1", keySource(""), api.WithClient(headerDoer{h}))
		require.NoError(t, err)
		res, err := c.GetGeo(context.Background())
		require.NoError(t, err)
		return res.Response.Data.Country, res.Response.Data.City, res.CacheControl.Value
	}
	sent := http.Header{"X-Country": {"se"}, "X-City": {"Malmö"}, "Cf-Ipcountry": {"DK"}, "X-Geo-City": {"Odense"}}

	// Configured header names from a trusted peer (the test client is on loopback).
	loopback := []netip.Prefix{netip.MustParsePrefix("127.0.0.0/8"), netip.MustParsePrefix("::1/128")}
	country, city, cache := geo(serve(handlers.GeoConfig{CountryHeader: "X-Country", CityHeader: "X-City", TrustedProxies: loopback}), sent)
	require.Equal(t, "SE", country.Value)
	require.Equal(t, "Malmö", city.Value)
	require.Equal(t, "no-store", cache)

	// The same headers from a peer that is not a trusted proxy say nothing.
	elsewhere := []netip.Prefix{netip.MustParsePrefix("203.0.113.0/24")}
	country, city, cache = geo(serve(handlers.GeoConfig{CountryHeader: "X-Country", CityHeader: "X-City", TrustedProxies: elsewhere}), sent)
	require.True(t, country.Null)
	require.True(t, city.Null)
	require.Equal(t, "no-store", cache)

	// The default headers, and nothing at all: null, still not cached.
	country, city, _ = geo(s.srv.URL, sent)
	require.Equal(t, "DK", country.Value)
	require.Equal(t, "Odense", city.Value)
	country, city, cache = geo(s.srv.URL, nil)
	require.True(t, country.Null)
	require.True(t, city.Null)
	require.Equal(t, "no-store", cache)
}
