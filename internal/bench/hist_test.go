package bench

import (
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// exactQuantile is the nearest-rank quantile of sorted values.
func exactQuantile(sorted []time.Duration, q float64) time.Duration {
	rank := int(float64(len(sorted))*q + 0.999999999)
	rank = max(rank, 1)
	return sorted[rank-1]
}

func TestHistogramQuantilesWithinPrecision(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	var h Histogram
	var all []time.Duration
	for range 100_000 {
		// Log-normal-ish latencies from 50µs to a few hundred ms.
		d := time.Duration(50_000 * (1 + rng.ExpFloat64()*rng.ExpFloat64()*20))
		h.Record(d)
		all = append(all, d)
	}
	slices.Sort(all)
	for _, q := range []float64{0.001, 0.25, 0.5, 0.9, 0.95, 0.99, 0.999} {
		want := exactQuantile(all, q)
		got := h.Quantile(q)
		rel := float64(got-want) / float64(want)
		require.InDelta(t, 0, rel, 0.004, "q=%v want %v got %v", q, want, got)
	}
	require.Equal(t, all[0], h.Min())
	require.Equal(t, all[len(all)-1], h.Max())
	require.Equal(t, all[0], h.Quantile(0))
	require.Equal(t, all[len(all)-1], h.Quantile(1))
	require.EqualValues(t, len(all), h.Count())
}

func TestHistogramSmallValuesAreExact(t *testing.T) {
	var h Histogram
	for v := range 100 {
		h.Record(time.Duration(v + 1))
	}
	require.Equal(t, time.Duration(50), h.Quantile(0.5))
	require.Equal(t, time.Duration(99), h.Quantile(0.99))
	require.Equal(t, time.Duration(1), h.Quantile(0.001))
	require.Equal(t, 51*time.Nanosecond, h.Mean(), "50.5 rounds up")
}

func TestHistogramMergeEqualsRecordingAll(t *testing.T) {
	var a, b, all Histogram
	for i := range 5000 {
		d := time.Duration(i*i) * time.Microsecond / 7
		all.Record(d)
		if i%3 == 0 {
			a.Record(d)
		} else {
			b.Record(d)
		}
	}
	var m Histogram
	m.Merge(&a)
	m.Merge(&b)
	m.Merge(nil)
	m.Merge(&Histogram{})
	require.Equal(t, all.Count(), m.Count())
	require.Equal(t, all.Min(), m.Min())
	require.Equal(t, all.Max(), m.Max())
	require.Equal(t, all.Mean(), m.Mean())
	for _, q := range []float64{0.5, 0.95, 0.99} {
		require.Equal(t, all.Quantile(q), m.Quantile(q))
	}
	m.Reset()
	require.Zero(t, m.Count())
	require.Zero(t, m.Quantile(0.5))
}

func TestHistogramEdges(t *testing.T) {
	var h Histogram
	require.Zero(t, h.Quantile(0.5))
	require.Zero(t, h.Mean())
	h.Record(-time.Second) // counts as zero
	h.Record(10 * time.Hour)
	require.Equal(t, time.Duration(0), h.Min())
	require.Equal(t, 10*time.Hour, h.Max())
	require.Equal(t, 10*time.Hour, h.Quantile(0.99), "values past the last bucket report the exact max")
	for v := int64(1); v > 0 && v < 1<<62; v *= 3 {
		low, width := bucketBounds(bucketOf(v))
		if bucketOf(v) < bucketCount-1 {
			require.True(t, low <= v && v < low+width, "v=%d in [%d,%d)", v, low, low+width)
		}
	}
}
