package reports

import (
	"errors"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/venueplatform/venue/internal/apperr"
)

func TestParsePeriod(t *testing.T) {
	d := func(y int, m time.Month, day int) time.Time { return time.Date(y, m, day, 0, 0, 0, 0, time.UTC) }
	today := d(2026, 3, 2)
	for name, want := range map[string][2]time.Time{
		"":          {today, today},
		"today":     {today, today},
		"yesterday": {d(2026, 3, 1), d(2026, 3, 1)},
		"7d":        {d(2026, 2, 24), today},
		"30d":       {d(2026, 2, 1), today},
		"mtd":       {d(2026, 3, 1), today},
	} {
		p, err := ParsePeriod(name, nil, nil, today)
		require.NoError(t, err, name)
		require.Equal(t, want, [2]time.Time{p.From, p.To}, name)
	}
	from, to := d(2025, 3, 2), d(2026, 3, 2)
	p, err := ParsePeriod("custom", &from, &to, today)
	require.NoError(t, err)
	require.Equal(t, 366, p.Days())
	over := d(2025, 3, 1)
	for name, c := range map[string]struct {
		rng      string
		from, to *time.Time
		param    string
	}{
		"no from":         {"custom", nil, &to, "from"},
		"no to":           {"custom", &from, nil, "to"},
		"from w/o custom": {"7d", &from, nil, "from"},
		"to w/o custom":   {"today", nil, &to, "to"},
		"backwards":       {"custom", &to, &from, "to"},
		"367 days":        {"custom", &over, &to, "to"},
	} {
		_, err := ParsePeriod(c.rng, c.from, c.to, today)
		var ae *apperr.Error
		require.True(t, errors.As(err, &ae), name)
		require.Equal(t, 400, ae.Status, name)
		require.Equal(t, CodeInvalidRange, ae.Code, name)
		require.Equal(t, c.param, ae.Details["parameter"], name)
	}
}

// TestBounds: a period's instants follow the venue's zone, daylight saving
// included (Copenhagen's 2026-03-29 has 23 hours).
func TestBounds(t *testing.T) {
	loc, err := time.LoadLocation("Europe/Copenhagen")
	require.NoError(t, err)
	day := time.Date(2026, 3, 29, 0, 0, 0, 0, time.UTC)
	start, end := Period{From: day, To: day}.Bounds(loc)
	require.Equal(t, time.Date(2026, 3, 28, 23, 0, 0, 0, time.UTC), start)
	require.Equal(t, 23*time.Hour, end.Sub(start))
}

func TestDecimal(t *testing.T) {
	require.Equal(t, "282.50", Decimal(28250, "DKK"))
	require.Equal(t, "1200", Decimal(1200, "JPY"))
	require.Equal(t, "1.250", Decimal(1250, "KWD"))
	require.Equal(t, "-0.05", Decimal(-5, "EUR"))
}
