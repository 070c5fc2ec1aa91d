package booking_test

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/venueplatform/venue/ent"
	entbooking "github.com/venueplatform/venue/ent/booking"
	"github.com/venueplatform/venue/internal/booking"
)

// TestWatchWindow: opens 10 minutes before the start, closes at the start;
// recovery until 5 minutes after the end only for an admitted booking; no
// window for in-person classes or bookings without a seat.
func TestWatchWindow(t *testing.T) {
	start := time.Date(2026, 11, 23, 9, 0, 0, 0, time.UTC)
	cl := &ent.ClassInstance{StartTime: start, EndTime: start.Add(time.Hour), Online: true, Status: "scheduled"}
	at := func(d time.Duration, admitted bool) string {
		b := &ent.Booking{Status: entbooking.StatusConfirmed}
		if admitted {
			a := start.Add(-5 * time.Minute)
			b.WatchAdmittedAt = &a
		}
		return booking.WatchWindow(cl, b, start.Add(d)).State
	}
	require.Equal(t, booking.WatchNotOpen, at(-10*time.Minute-time.Second, false))
	require.Equal(t, booking.WatchOpen, at(-10*time.Minute, false))
	require.Equal(t, booking.WatchOpen, at(-time.Second, false))
	require.Equal(t, booking.WatchClosed, at(0, false))
	require.Equal(t, booking.WatchRecovery, at(0, true))
	require.Equal(t, booking.WatchRecovery, at(65*time.Minute-time.Second, true))
	require.Equal(t, booking.WatchClosed, at(65*time.Minute, true))

	w := booking.WatchWindow(&ent.ClassInstance{StartTime: start, EndTime: start.Add(time.Hour)},
		&ent.Booking{Status: entbooking.StatusConfirmed}, start)
	require.Equal(t, booking.WatchUnavailable, w.State)
	w = booking.WatchWindow(cl, &ent.Booking{Status: entbooking.StatusWaitlisted}, start.Add(-time.Minute))
	require.Equal(t, booking.WatchUnavailable, w.State)
}
