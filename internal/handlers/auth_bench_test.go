package handlers_test

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/venueplatform/venue/internal/db"
	api "github.com/venueplatform/venue/internal/gen/api"
	"github.com/venueplatform/venue/internal/pgtest"
)

// BenchmarkLogin measures a whole login over HTTP (rate limits, one argon2id
// verification, the session and refresh-token inserts, signing).
func BenchmarkLogin(b *testing.B) {
	pool := pgtest.NewPool(b)
	e := newAuthEnv(b, &studio{pool: pool, client: db.NewClient(pool)})
	c := e.spreadClient(b)
	ctx := context.Background()
	// Enough accounts that the per-account window never refuses.
	emails := make([]string, 64)
	for i := range emails {
		emails[i] = "bench" + string(rune('a'+i%26)) + string(rune('a'+i/26)) + "@example.com"
		_, err := c.AuthSignup(ctx, &api.SignupRequest{Email: emails[i], Password: goodPassword})
		require.NoError(b, err)
	}
	var d []time.Duration
	for i := 0; b.Loop(); i++ {
		start := time.Now()
		_, err := c.AuthLogin(ctx, &api.LoginRequest{Email: emails[i%len(emails)], Password: goodPassword})
		d = append(d, time.Since(start))
		require.NoError(b, err)
	}
	reportMedian(b, d)
}

// reportMedian adds the median latency to the benchmark's output.
func reportMedian(b *testing.B, d []time.Duration) {
	slices.Sort(d)
	b.ReportMetric(float64(d[len(d)/2].Microseconds())/1000, "median-ms")
}

// BenchmarkRefresh measures one refresh-token rotation over HTTP.
func BenchmarkRefresh(b *testing.B) {
	pool := pgtest.NewPool(b)
	e := newAuthEnv(b, &studio{pool: pool, client: db.NewClient(pool)})
	c := e.spreadClient(b)
	ctx := context.Background()
	s, err := c.AuthSignup(ctx, &api.SignupRequest{Email: "bench@example.com", Password: goodPassword})
	require.NoError(b, err)
	rt := s.Data.RefreshToken
	var d []time.Duration
	for b.Loop() {
		start := time.Now()
		res, err := c.AuthRefresh(ctx, &api.RefreshRequest{RefreshToken: rt})
		d = append(d, time.Since(start))
		require.NoError(b, err)
		rt = res.Data.RefreshToken
	}
	reportMedian(b, d)
}
