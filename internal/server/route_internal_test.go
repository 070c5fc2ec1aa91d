package server

import (
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/venueplatform/venue/internal/db"
	api "github.com/venueplatform/venue/internal/gen/api"
	"github.com/venueplatform/venue/internal/pgtest"
)

// TestRouteFoundOncePerRequest: whatever a request meets on its way (the rate
// limit of an anonymous read, an Idempotency-Key, the JWT-only gate of an API
// key, an unknown path), the router is consulted once for it; the rate
// limiter, the idempotency guard and the credential gates read the operation
// from the context.
func TestRouteFoundOncePerRequest(t *testing.T) {
	var lookups atomic.Int32
	prev := findRoute
	findRoute = func(s *api.Server, method string, u *url.URL) (api.Route, bool) {
		lookups.Add(1)
		return prev(s, method, u)
	}
	t.Cleanup(func() { findRoute = prev })

	pool := pgtest.NewPool(t)
	h, err := New(Deps{Pool: pool, Client: db.NewClient(pool), Log: slog.New(slog.DiscardHandler)})
	require.NoError(t, err)
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)

	for _, c := range []struct {
		name, method, path, body string
		header                   map[string]string
		status                   int
	}{
		{"anonymous public read", http.MethodGet, "/api/v1/venues/nowhere", "", nil, http.StatusNotFound},
		{"idempotent write", http.MethodPost, "/api/v1/venues/nowhere/join", `{}`,
			map[string]string{"Idempotency-Key": "k-1", "Authorization": "Bearer not-a-token"}, http.StatusUnauthorized},
		{"API key on a JWT-only operation", http.MethodPost, "/api/v1/admin/checkin/" + "00000000-0000-0000-0000-000000000001" +
			"/bookings/00000000-0000-0000-0000-000000000002/check-in", `{}`,
			map[string]string{"X-API-Key": "vk_not_a_key"}, http.StatusForbidden},
		{"unknown path", http.MethodGet, "/api/v1/nowhere", "", nil, http.StatusNotFound},
	} {
		lookups.Store(0)
		req, err := http.NewRequest(c.method, srv.URL+c.path, strings.NewReader(c.body))
		require.NoError(t, err)
		req.Header.Set("Content-Type", "application/json")
		for k, v := range c.header {
			req.Header.Set(k, v)
		}
		res, err := http.DefaultClient.Do(req)
		require.NoError(t, err, c.name)
		_, _ = io.Copy(io.Discard, res.Body)
		res.Body.Close()
		require.Equal(t, c.status, res.StatusCode, c.name)
		require.Equal(t, int32(1), lookups.Load(), "%s: route lookups", c.name)
	}
}
