package ratelimit_test

import (
	"context"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/stretchr/testify/require"

	"github.com/venueplatform/venue/internal/db"
	"github.com/venueplatform/venue/internal/pgtest"
	"github.com/venueplatform/venue/internal/ratelimit"
)

func TestMain(m *testing.M) { pgtest.Main(m) }

func TestWindowAndRetryAfter(t *testing.T) {
	ctx := context.Background()
	l := ratelimit.New(pgtest.NewPool(t), 5, time.Minute)
	key := ratelimit.APIKey(uuid.New())
	for i := range 5 {
		d, err := l.Allow(ctx, key)
		require.NoError(t, err)
		require.True(t, d.Allowed, "request %d", i+1)
		require.Equal(t, 5, d.Limit)
		require.Equal(t, 4-i, d.Remaining, "request %d", i+1)
	}
	d, err := l.Allow(ctx, key)
	require.NoError(t, err)
	require.False(t, d.Allowed)
	require.Equal(t, 0, d.Remaining)
	// One emission interval (12 s) minus the little time the test took.
	require.InDelta(t, 12*time.Second, d.RetryAfter, float64(2*time.Second))
	require.Equal(t, 12, d.RetryAfterSeconds())

	// A refused request does not push the window further.
	d2, err := l.Allow(ctx, key)
	require.NoError(t, err)
	require.False(t, d2.Allowed)
	require.InDelta(t, d.RetryAfter, d2.RetryAfter, float64(time.Second))

	// Another key has its own window.
	other, err := l.Allow(ctx, ratelimit.APIKey(uuid.New()))
	require.NoError(t, err)
	require.True(t, other.Allowed)
}

func TestRefillsAfterInterval(t *testing.T) {
	ctx := context.Background()
	l := ratelimit.New(pgtest.NewPool(t), 2, 400*time.Millisecond)
	key := "k"
	for range 2 {
		d, err := l.Allow(ctx, key)
		require.NoError(t, err)
		require.True(t, d.Allowed)
	}
	d, err := l.Allow(ctx, key)
	require.NoError(t, err)
	require.False(t, d.Allowed)
	time.Sleep(d.RetryAfter + 20*time.Millisecond)
	d, err = l.Allow(ctx, key)
	require.NoError(t, err)
	require.True(t, d.Allowed)

	time.Sleep(450 * time.Millisecond)
	n, err := l.Prune(ctx)
	require.NoError(t, err)
	require.Equal(t, int64(1), n)
}

// TestHeldAcrossInstances runs two limiters on separate pools (two server
// instances on one database) concurrently: exactly the limit gets through.
func TestHeldAcrossInstances(t *testing.T) {
	ctx := context.Background()
	url := pgtest.New(t)
	var limiters []*ratelimit.Limiter
	for range 2 {
		pool, err := db.Open(ctx, url)
		require.NoError(t, err)
		t.Cleanup(pool.Close)
		limiters = append(limiters, ratelimit.New(pool, 20, time.Hour))
	}
	var allowed atomic.Int32
	var wg sync.WaitGroup
	for i := range 60 {
		wg.Go(func() {
			d, err := limiters[i%2].Allow(ctx, "shared")
			if err != nil {
				t.Error(err)
				return
			}
			if d.Allowed {
				allowed.Add(1)
			}
		})
	}
	wg.Wait()
	require.Equal(t, int32(20), allowed.Load())
}

func TestEmptyKey(t *testing.T) {
	_, err := ratelimit.New(nil, 0, 0).Allow(context.Background(), "")
	require.Error(t, err)
}
