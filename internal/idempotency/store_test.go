package idempotency_test

import (
	"context"
	"crypto/sha256"
	"net/http"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/venueplatform/venue/internal/idempotency"
	"github.com/venueplatform/venue/internal/pgtest"
)

func hashOf(s string) []byte {
	h := sha256.Sum256([]byte(s))
	return h[:]
}

func TestStoreClaims(t *testing.T) {
	ctx := context.Background()
	pool := pgtest.NewPool(t)
	s := idempotency.NewStore(pool, 500*time.Millisecond, time.Hour)
	k := idempotency.Key{Scope: "venue-a", Principal: "api_key:1", Key: "k1"}

	c, err := s.Claim(ctx, k, hashOf("a"))
	require.NoError(t, err)
	require.Equal(t, idempotency.Claimed, c.Outcome)
	first := c.ID

	c, err = s.Claim(ctx, k, hashOf("a"))
	require.NoError(t, err)
	require.Equal(t, idempotency.InFlight, c.Outcome)
	c, err = s.Claim(ctx, k, hashOf("b"))
	require.NoError(t, err)
	require.Equal(t, idempotency.Mismatch, c.Outcome)

	// Past the lock the same request takes over (with a new claim id); another
	// request still may not.
	time.Sleep(600 * time.Millisecond)
	c, err = s.Claim(ctx, k, hashOf("b"))
	require.NoError(t, err)
	require.Equal(t, idempotency.Mismatch, c.Outcome)
	c, err = s.Claim(ctx, k, hashOf("a"))
	require.NoError(t, err)
	require.Equal(t, idempotency.Claimed, c.Outcome)
	require.NotEqual(t, first, c.ID)
	second := c.ID

	// The first claim's late answer is refused; the second's is stored.
	held, err := s.Complete(ctx, first, idempotency.Response{Status: 201, Body: []byte("late")})
	require.NoError(t, err)
	require.False(t, held)
	held, err = s.Complete(ctx, second, idempotency.Response{Status: 201, Header: map[string]string{"Content-Type": "application/json"}, Body: []byte(`{"ok":1}`)})
	require.NoError(t, err)
	require.True(t, held)

	c, err = s.Claim(ctx, k, hashOf("a"))
	require.NoError(t, err)
	require.Equal(t, idempotency.Replay, c.Outcome)
	require.Equal(t, &idempotency.Response{Status: 201, Header: map[string]string{"Content-Type": "application/json"}, Body: []byte(`{"ok":1}`)}, c.Response)

	// A completed key is never released, nor taken over after its lock.
	require.NoError(t, s.Release(ctx, second))
	time.Sleep(600 * time.Millisecond)
	c, err = s.Claim(ctx, k, hashOf("a"))
	require.NoError(t, err)
	require.Equal(t, idempotency.Replay, c.Outcome)

	// An empty answer replays as empty.
	k2 := idempotency.Key{Scope: "venue-a", Principal: "api_key:1", Key: "k2"}
	c, err = s.Claim(ctx, k2, hashOf("x"))
	require.NoError(t, err)
	_, err = s.Complete(ctx, c.ID, idempotency.Response{Status: http.StatusNoContent})
	require.NoError(t, err)
	c, err = s.Claim(ctx, k2, hashOf("x"))
	require.NoError(t, err)
	require.Equal(t, idempotency.Replay, c.Outcome)
	require.Equal(t, http.StatusNoContent, c.Response.Status)
	require.Empty(t, c.Response.Body)

	// A released claim frees the key for any request.
	k3 := idempotency.Key{Scope: "public", Principal: "ip:192.0.2.1", Key: "k3"}
	c, err = s.Claim(ctx, k3, hashOf("x"))
	require.NoError(t, err)
	require.NoError(t, s.Release(ctx, c.ID))
	c, err = s.Claim(ctx, k3, hashOf("y"))
	require.NoError(t, err)
	require.Equal(t, idempotency.Claimed, c.Outcome)

	n, err := s.Sweep(ctx)
	require.NoError(t, err)
	require.Zero(t, n, "nothing has expired")
}

func TestStoreClaimRace(t *testing.T) {
	ctx := context.Background()
	s := idempotency.NewStore(pgtest.NewPool(t), 0, 0)
	k := idempotency.Key{Scope: "s", Principal: "p", Key: "race"}
	var claimed, inFlight atomic.Int32
	var wg sync.WaitGroup
	for range 50 {
		wg.Go(func() {
			c, err := s.Claim(ctx, k, hashOf("same"))
			if err != nil {
				t.Error(err)
				return
			}
			switch c.Outcome {
			case idempotency.Claimed:
				claimed.Add(1)
			case idempotency.InFlight:
				inFlight.Add(1)
			default:
				t.Errorf("outcome %d", c.Outcome)
			}
		})
	}
	wg.Wait()
	require.Equal(t, int32(1), claimed.Load())
	require.Equal(t, int32(49), inFlight.Load())
}
