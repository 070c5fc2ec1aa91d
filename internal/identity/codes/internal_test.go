package codes

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// indexFromByte maps the accepted bytes onto every index exactly the same
// number of times: a proof, not a statistic, that there is no modulo bias
// given uniform bytes.
func TestIndexFromByteHasNoBias(t *testing.T) {
	for _, n := range []int{2, 3, 10, 20, 32, 100, 255, 256} {
		counts := make([]int, n)
		accepted := 0
		for b := 0; b < 256; b++ {
			if i, ok := indexFromByte(byte(b), n); ok {
				require.Less(t, i, n)
				counts[i]++
				accepted++
			}
		}
		for i, c := range counts {
			require.Equal(t, accepted/n, c, "n=%d index %d", n, i)
		}
		require.Greater(t, accepted, 128, "n=%d rejects less than half the bytes", n)
	}
}

// chiSquare draws samples indices in [0, n) and returns the chi-square
// statistic of their counts against the uniform distribution.
func chiSquare(n, samples int, draw func() int) float64 {
	counts := make([]int, n)
	for range samples {
		counts[draw()]++
	}
	exp := float64(samples) / float64(n)
	var x2 float64
	for _, c := range counts {
		d := float64(c) - exp
		x2 += d * d / exp
	}
	return x2
}

// A light statistical check of the whole path from crypto/rand. Critical
// values at p = 1e-6 (Wilson–Hilferty): 46 for 9 degrees of freedom, 64.5
// for 19, 84 for 31; a correct generator fails once in a million runs.
func TestRandomIndexChiSquare(t *testing.T) {
	for _, tc := range []struct {
		n        int
		critical float64
	}{{10, 46}, {20, 64.5}, {32, 84}} {
		x2 := chiSquare(tc.n, 100_000, func() int { return randomIndex(tc.n) })
		t.Logf("n=%d chi-square %.1f (critical %.1f)", tc.n, x2, tc.critical)
		require.Less(t, x2, tc.critical, "n=%d", tc.n)
	}
}
