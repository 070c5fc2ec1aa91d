package retry_test

import (
	"math/rand/v2"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/venueplatform/venue/internal/webhooks/retry"
)

// fixed is a Rand that always returns the same number.
type fixed float64

func (f fixed) Float64() float64 { return float64(f) }

func TestDefaultScheduleCoversMoreThanADayWorstCase(t *testing.T) {
	require.Equal(t, 17, retry.Default.MaxAttempts())
	require.Equal(t, 71*time.Hour+42*time.Minute+35*time.Second, retry.Default.Span())

	// With every delay at its shortest (jitter -20 %) the last attempt still comes more than
	// 24 hours after the first; at its longest, within four days.
	for _, tc := range []struct {
		rng      retry.Rand
		min, max time.Duration
	}{
		{fixed(0), 24 * time.Hour, 60 * time.Hour},
		{fixed(0.999999), 72 * time.Hour, 96 * time.Hour},
	} {
		var total time.Duration
		attempts := 1
		for {
			d, ok := retry.NextAttempt(attempts, tc.rng)
			if !ok {
				break
			}
			total += d
			attempts++
		}
		require.Equal(t, 17, attempts)
		require.Greater(t, total, tc.min)
		require.Less(t, total, tc.max)
	}
}

func TestNextAttemptNominalDelays(t *testing.T) {
	want := []time.Duration{
		5 * time.Second, 30 * time.Second, 2 * time.Minute, 10 * time.Minute, 30 * time.Minute,
		time.Hour, 2 * time.Hour, 4 * time.Hour, 8 * time.Hour,
		8 * time.Hour, 8 * time.Hour, 8 * time.Hour, 8 * time.Hour, 8 * time.Hour, 8 * time.Hour, 8 * time.Hour,
	}
	for i, w := range want {
		d, ok := retry.NextAttempt(i+1, fixed(0.5)) // 0.5 is no jitter
		require.True(t, ok, "attempt %d", i+1)
		require.Equal(t, w, d, "attempt %d", i+1)
	}
	_, ok := retry.NextAttempt(len(want)+1, fixed(0.5))
	require.False(t, ok)
	_, ok = retry.NextAttempt(0, fixed(0.5))
	require.False(t, ok)
}

func TestJitterStaysWithinBounds(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	seen := map[time.Duration]bool{}
	for range 1000 {
		d, ok := retry.NextAttempt(1, rng)
		require.True(t, ok)
		require.GreaterOrEqual(t, d, 4*time.Second)
		require.LessOrEqual(t, d, 6*time.Second)
		seen[d] = true
	}
	require.Greater(t, len(seen), 100, "delays are spread")
	d, ok := retry.NextAttempt(3, nil) // the global source
	require.True(t, ok)
	require.InDelta(t, float64(2*time.Minute), float64(d), float64(24*time.Second))
}

func TestCustomSchedules(t *testing.T) {
	s := retry.Schedule{Delays: []time.Duration{time.Millisecond, 2 * time.Millisecond}}
	require.Equal(t, 3, s.MaxAttempts())
	_, ok := s.Next(2, nil)
	require.True(t, ok)
	_, ok = s.Next(3, nil)
	require.False(t, ok)

	s = retry.Schedule{Delays: []time.Duration{time.Second}, Repeat: 10 * time.Second, Horizon: 35 * time.Second}
	require.Equal(t, 5, s.MaxAttempts()) // 1 + 10 + 10 + 10 s
	require.Equal(t, 31*time.Second, s.Span())

	require.Equal(t, 1, retry.Schedule{}.MaxAttempts())
}
