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

// TestAccountStateUnknown: when the account cannot be read in time (here the
// users table is locked by another transaction), the check answers the
// fifth state, unknown, still no sooner than the floor and never an error
// that would tell the caller more.
func TestAccountStateUnknown(t *testing.T) {
	e := newAuthEnv(t, newStudio(t, "studio"))
	ctx := context.Background()
	e.signup(t, "ana@example.com", goodPassword)
	tx, err := e.studio.pool.Begin(ctx)
	require.NoError(t, err)
	defer func() { _ = tx.Rollback(ctx) }()
	_, err = tx.Exec(ctx, `LOCK TABLE users IN ACCESS EXCLUSIVE MODE`)
	require.NoError(t, err)

	start := time.Now()
	res, err := e.client(t, "").AuthAccountState(ctx, &api.EmailRequest{Email: "ana@example.com"})
	took := time.Since(start)
	require.NoError(t, err)
	require.Equal(t, api.AccountStateStateUnknown, res.Data.State)
	require.GreaterOrEqual(t, took, 250*time.Millisecond)
	require.NoError(t, tx.Rollback(ctx))

	res, err = e.client(t, "").AuthAccountState(ctx, &api.EmailRequest{Email: "ana@example.com"})
	require.NoError(t, err)
	require.Equal(t, api.AccountStateStateActive, res.Data.State)
}

// BenchmarkAccountState measures POST /auth/account-state over HTTP for an
// existing account and for an absent email (each request from a new
// address, so the per-address limit does not interfere), reporting the
// fastest and the median answer: both branches sit on the 250 ms floor.
func BenchmarkAccountState(b *testing.B) {
	pool := pgtest.NewPool(b)
	e := newAuthEnv(b, &studio{pool: pool, client: db.NewClient(pool)})
	c := e.spreadClient(b)
	ctx := context.Background()
	_, err := c.AuthSignup(ctx, &api.SignupRequest{Email: "bench@example.com", Password: goodPassword})
	require.NoError(b, err)
	for _, bc := range []struct{ name, email, want string }{
		{"existing", "bench@example.com", "active"},
		{"absent", "ghost@example.com", "absent"},
	} {
		b.Run(bc.name, func(b *testing.B) {
			var d []time.Duration
			for b.Loop() {
				start := time.Now()
				res, err := c.AuthAccountState(ctx, &api.EmailRequest{Email: bc.email})
				d = append(d, time.Since(start))
				require.NoError(b, err)
				require.Equal(b, bc.want, string(res.Data.State))
			}
			slices.Sort(d)
			b.ReportMetric(float64(d[0].Microseconds())/1000, "min-ms")
			reportMedian(b, d)
		})
	}
}
