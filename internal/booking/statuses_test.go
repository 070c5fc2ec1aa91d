package booking_test

import (
	"context"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	entbooking "github.com/venueplatform/venue/ent/booking"
	"github.com/venueplatform/venue/internal/booking"
	"github.com/venueplatform/venue/internal/pgtest"
)

// TestTriggerCountsSeatHolding holds the database trigger that keeps
// class_instances.booked_count to booking.SeatHolding. ent cannot generate
// the trigger, so its status list is written in SQL; this reads the function
// the migrations installed and fails when the two lists part.
func TestTriggerCountsSeatHolding(t *testing.T) {
	pool := pgtest.NewPool(t)
	var src string
	require.NoError(t, pool.QueryRow(context.Background(),
		`SELECT prosrc FROM pg_proc WHERE proname = 'venue_booking_counts'`).Scan(&src))

	m := regexp.MustCompile(`seat_statuses\s+text\[\]\s*:=\s*ARRAY\[([^\]]*)\]`).FindStringSubmatch(src)
	require.NotNil(t, m, "the trigger function declares no seat_statuses array:\n%s", src)
	var inSQL []string
	for _, part := range strings.Split(m[1], ",") {
		inSQL = append(inSQL, strings.Trim(strings.TrimSpace(part), "'"))
	}
	var inGo []string
	for _, s := range booking.SeatHolding {
		inGo = append(inGo, string(s))
	}
	slices.Sort(inSQL)
	slices.Sort(inGo)
	require.Equal(t, inGo, inSQL, "the trigger's seat_statuses and booking.SeatHolding differ")

	// The trigger's waiting status is the one status Live adds to SeatHolding.
	require.Contains(t, src, "'"+string(entbooking.StatusWaitlisted)+"'")
	extra := slices.DeleteFunc(slices.Clone(booking.Live), booking.IsSeatHolding)
	require.Equal(t, []entbooking.Status{entbooking.StatusWaitlisted}, extra)
}

// TestStatusSetsCoverEveryStatus keeps the sets honest as statuses are added:
// every status is either live or not, and no set names an unknown status.
func TestStatusSetsCoverEveryStatus(t *testing.T) {
	for _, s := range booking.Live {
		require.NoError(t, entbooking.StatusValidator(s), "unknown status %q in booking.Live", s)
	}
	require.True(t, booking.IsLive(entbooking.StatusWaitlisted))
	require.False(t, booking.IsSeatHolding(entbooking.StatusWaitlisted))
	require.False(t, booking.IsLive(entbooking.StatusCancelled))
	// A class cancellation cancels live bookings only, and leaves the
	// attended ones (checked in, no-show) as history.
	for _, s := range booking.CancelledWithClass {
		require.True(t, booking.IsLive(s), "%q in booking.CancelledWithClass is not live", s)
	}
	require.NotContains(t, booking.CancelledWithClass, entbooking.StatusCheckedIn)
	require.NotContains(t, booking.CancelledWithClass, entbooking.StatusNoShow)
}
