package bench

import (
	"math"
	"math/bits"
	"time"
)

// subBits sets the histogram's precision: every power-of-two range of
// nanoseconds is split into 1<<subBits equal buckets, so a recorded value is
// known to within 1/(1<<subBits) of itself (0.8%); reporting the bucket's
// midpoint halves that.
const subBits = 7

const (
	subCount = 1 << subBits
	// maxExp bounds recorded values at 2^maxExp ns (about 4.9 hours); longer
	// ones land in the last bucket (Max stays exact).
	maxExp      = 44
	bucketCount = (maxExp-subBits+1)*subCount + subCount
)

// Histogram records latencies in log-linear buckets, in the manner of an HDR
// histogram: constant memory, constant-time recording, mergeable, and
// quantiles within 0.4% of the exact value. Min, Max, Count and the mean are
// exact. The zero value is empty and ready to use; it is not safe for
// concurrent use.
type Histogram struct {
	counts   []uint64
	count    uint64
	sum      float64
	min, max time.Duration
}

// bucketOf returns the bucket index of v (v >= 0).
func bucketOf(v int64) int {
	if v < subCount {
		return int(v)
	}
	exp := bits.Len64(uint64(v)) - 1 // >= subBits
	shift := exp - subBits
	if shift > maxExp-subBits {
		return bucketCount - 1
	}
	mant := int(v >> uint(shift)) // in [subCount, 2*subCount)
	return (shift+1)*subCount + mant - subCount
}

// bucketBounds returns the lowest value of bucket i and its width.
func bucketBounds(i int) (low, width int64) {
	if i < subCount {
		return int64(i), 1
	}
	shift := i/subCount - 1
	mant := int64(i%subCount + subCount)
	return mant << uint(shift), 1 << uint(shift)
}

// Record adds one latency; negative values count as zero.
func (h *Histogram) Record(d time.Duration) {
	if d < 0 {
		d = 0
	}
	if h.counts == nil {
		h.counts = make([]uint64, bucketCount)
	}
	h.counts[bucketOf(int64(d))]++
	if h.count == 0 || d < h.min {
		h.min = d
	}
	if d > h.max {
		h.max = d
	}
	h.count++
	h.sum += float64(d)
}

// Merge adds every value recorded in o to h.
func (h *Histogram) Merge(o *Histogram) {
	if o == nil || o.count == 0 {
		return
	}
	if h.counts == nil {
		h.counts = make([]uint64, bucketCount)
	}
	for i, c := range o.counts {
		h.counts[i] += c
	}
	if h.count == 0 || o.min < h.min {
		h.min = o.min
	}
	if o.max > h.max {
		h.max = o.max
	}
	h.count += o.count
	h.sum += o.sum
}

// Reset empties h, keeping its memory.
func (h *Histogram) Reset() {
	clear(h.counts)
	h.count, h.sum, h.min, h.max = 0, 0, 0, 0
}

// Count returns the number of recorded values.
func (h *Histogram) Count() uint64 { return h.count }

// Min returns the smallest recorded value (0 when empty).
func (h *Histogram) Min() time.Duration { return h.min }

// Max returns the largest recorded value (0 when empty).
func (h *Histogram) Max() time.Duration { return h.max }

// Mean returns the arithmetic mean (0 when empty).
func (h *Histogram) Mean() time.Duration {
	if h.count == 0 {
		return 0
	}
	return time.Duration(math.Round(h.sum / float64(h.count)))
}

// Quantile returns the value at quantile q in [0, 1] by the nearest-rank
// definition (the smallest value with at least q of all values at or below
// it), as the midpoint of its bucket clamped to [Min, Max]. It returns 0 when
// h is empty.
func (h *Histogram) Quantile(q float64) time.Duration {
	if h.count == 0 {
		return 0
	}
	if q <= 0 {
		return h.min
	}
	if q >= 1 {
		return h.max
	}
	rank := uint64(math.Ceil(q * float64(h.count)))
	rank = max(rank, 1)
	var seen uint64
	for i, c := range h.counts {
		seen += c
		if seen >= rank {
			if i == bucketCount-1 {
				return h.max // the overflow bucket has no width
			}
			low, width := bucketBounds(i)
			v := time.Duration(low + width/2)
			return min(max(v, h.min), h.max)
		}
	}
	return h.max
}
