package payments

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// TestMinorOn: the 18th birthday is the first adult day; 29 February
// birthdays come of age on 1 March in common years.
func TestMinorOn(t *testing.T) {
	d := func(y int, m time.Month, day int) time.Time { return time.Date(y, m, day, 0, 0, 0, 0, time.UTC) }
	require.True(t, minorOn(d(2008, 11, 27), d(2026, 11, 26)))
	require.False(t, minorOn(d(2008, 11, 26), d(2026, 11, 26)))
	require.False(t, minorOn(d(1990, 1, 1), d(2026, 11, 26)))
	require.True(t, minorOn(d(2008, 2, 29), d(2026, 2, 28)))
	require.False(t, minorOn(d(2008, 2, 29), d(2026, 3, 1)))
}
