package timing_test

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/venueplatform/venue/internal/identity/timing"
)

// floor is the contract's minimum response time of the email account-state
// check.
const floor = 250 * time.Millisecond

func TestFloorWaits(t *testing.T) {
	start := time.Now()
	timing.Floor(context.Background(), start, 30*time.Millisecond)
	require.GreaterOrEqual(t, time.Since(start), 30*time.Millisecond)
}

func TestFloorAlreadyPassed(t *testing.T) {
	start := time.Now().Add(-time.Second)
	before := time.Now()
	timing.Floor(context.Background(), start, 30*time.Millisecond)
	require.Less(t, time.Since(before), 10*time.Millisecond)
}

func TestFloorStopsWithContext(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Millisecond)
	defer cancel()
	start := time.Now()
	timing.Floor(ctx, start, 5*time.Second)
	require.Less(t, time.Since(start), time.Second)
}

func TestRunFloorsErrorsToo(t *testing.T) {
	boom := errors.New("boom")
	start := time.Now()
	v, err := timing.Run(context.Background(), 30*time.Millisecond, func() (int, error) { return 0, boom })
	require.ErrorIs(t, err, boom)
	require.Zero(t, v)
	require.GreaterOrEqual(t, time.Since(start), 30*time.Millisecond)

	v, err = timing.Run(context.Background(), 30*time.Millisecond, func() (int, error) { return 7, nil })
	require.NoError(t, err)
	require.Equal(t, 7, v)
}

// stats summarises a sample of durations.
type stats struct{ min, p50, p90, max time.Duration }

func summarise(ds []time.Duration) stats {
	s := slices.Clone(ds)
	slices.Sort(s)
	return stats{min: s[0], p50: s[len(s)/2], p90: s[len(s)*9/10], max: s[len(s)-1]}
}

func (s stats) String() string {
	return fmt.Sprintf("min %v  p50 %v  p90 %v  max %v", s.min.Round(time.Microsecond), s.p50.Round(time.Microsecond), s.p90.Round(time.Microsecond), s.max.Round(time.Microsecond))
}

// measure runs n handlers of each branch at once, interleaved: a fast one
// doing no work and a slow one doing work, with or without the floor. It
// returns how long each handler of each branch took. Both branches run
// side by side, so they see the same machine: measured one after the other,
// a change of load between the two runs (other test processes starting or
// ending) showed as a difference between the branches.
func measure(n int, work time.Duration, floored bool) (fast, slow []time.Duration) {
	fast, slow = make([]time.Duration, n), make([]time.Duration, n)
	var wg sync.WaitGroup
	handle := func(out []time.Duration, i int, work time.Duration) {
		start := time.Now()
		func() {
			if floored {
				defer timing.Floor(context.Background(), start, floor)
			}
			if work > 0 {
				time.Sleep(work) // stands in for the account lookup
			}
		}()
		out[i] = time.Since(start)
	}
	for i := range n {
		wg.Go(func() { handle(fast, i, 0) })
		wg.Go(func() { handle(slow, i, work) })
	}
	wg.Wait()
	return fast, slow
}

// TestFloorHidesTheBranch measures the account-state floor: a fast branch
// (no work: "absent" answered from a negative cache, say) and a slow one
// (40 ms of lookups) differ plainly without the floor and not with it.
func TestFloorHidesTheBranch(t *testing.T) {
	const n = 40
	rf, rs := measure(n, 40*time.Millisecond, false)
	rawFast, rawSlow := summarise(rf), summarise(rs)
	ff, fs := measure(n, 40*time.Millisecond, true)
	fast, slow := summarise(ff), summarise(fs)
	t.Logf("without floor  fast: %v", rawFast)
	t.Logf("without floor  slow: %v", rawSlow)
	t.Logf("floor %v fast: %v", floor, fast)
	t.Logf("floor %v slow: %v", floor, slow)

	require.GreaterOrEqual(t, fast.min, floor)
	require.GreaterOrEqual(t, slow.min, floor)
	require.Greater(t, rawSlow.p50-rawFast.p50, 30*time.Millisecond, "the unfloored branches are distinguishable")
	diff := fast.p50 - slow.p50
	if diff < 0 {
		diff = -diff
	}
	require.Less(t, diff, 10*time.Millisecond, "the floored branches are not")
}

// BenchmarkFloor reports, per branch, how far past the 250 ms floor a
// floored handler answers (overshoot-ns/op).
func BenchmarkFloor(b *testing.B) {
	for _, work := range []time.Duration{0, 40 * time.Millisecond} {
		b.Run(fmt.Sprintf("work=%v", work), func(b *testing.B) {
			var over time.Duration
			for b.Loop() {
				start := time.Now()
				func() {
					defer timing.Floor(context.Background(), start, floor)
					if work > 0 {
						time.Sleep(work)
					}
				}()
				over += time.Since(start) - floor
			}
			b.ReportMetric(float64(over.Nanoseconds())/float64(b.N), "overshoot-ns/op")
		})
	}
}
