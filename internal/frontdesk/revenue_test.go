package frontdesk_test

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/venueplatform/venue/internal/frontdesk"
)

func TestParsePeriod(t *testing.T) {
	cph, err := time.LoadLocation("Europe/Copenhagen")
	require.NoError(t, err)
	// Sunday 29 March 2026, 00:30 local (23:30 UTC the day before); DST starts at 02:00.
	now := time.Date(2026, 3, 28, 23, 30, 0, 0, time.UTC)
	cases := map[string][2]string{
		"today":                  {"2026-03-29", "2026-03-29"},
		"week":                   {"2026-03-23", "2026-03-29"},
		"month":                  {"2026-03-01", "2026-03-31"},
		"2026-02-01..2026-02-28": {"2026-02-01", "2026-02-28"},
	}
	for in, want := range cases {
		p, err := frontdesk.ParsePeriod(in, now, cph)
		require.NoError(t, err, in)
		require.Equal(t, want[0], p.From.Format("2006-01-02"), in)
		require.Equal(t, want[1], p.To.Format("2006-01-02"), in)
	}
	p, err := frontdesk.ParsePeriod("today", now, cph)
	require.NoError(t, err)
	require.Equal(t, time.Date(2026, 3, 28, 23, 0, 0, 0, time.UTC), p.Start)
	require.Equal(t, time.Date(2026, 3, 29, 22, 0, 0, 0, time.UTC), p.End, "a 23-hour day")

	for _, bad := range []string{"", "year", "2026-02-30..2026-03-01", "2026-03-02..2026-03-01", "2024-01-01..2025-01-02", "2026-01-01"} {
		_, err := frontdesk.ParsePeriod(bad, now, cph)
		require.ErrorIs(t, err, frontdesk.ErrPeriod, bad)
	}
}
