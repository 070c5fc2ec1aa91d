package appointments_test

import (
	"net/http"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/venueplatform/venue/internal/appointments"
)

// TestBookingOnDaylightSavingDays: a Copenhagen salon working through the
// night books the right instants on the days the clocks change, both
// directions. Spring (29 March 2026): 01:00 local is 00:00 UTC, 03:00 is
// 01:00 UTC, and the skipped hour is neither offered nor bookable. Autumn
// (25 October 2026): 02:00 local happens twice; availability offers it
// once, that instant books, the repeated hour's other instant is refused,
// and 03:00 local is 02:00 UTC. Each booking leaves the offer.
func TestBookingOnDaylightSavingDays(t *testing.T) {
	s := newSalon(t, "dstbook")
	s.hours(s.provider, time.Sunday, 0, 6)
	s.client.AppointmentPolicy.Create().SetSlotIntervalMinutes(60).ExecX(s.op)
	now := s.at(2026, time.March, 1, 8, 0)
	m := s.member(t, "night@example.com")
	book := func(start time.Time) error {
		_, err := appointments.Book(s.op, s.client, s.staffActor(m), appointments.Request{ServiceID: s.service.ID,
			ProviderID: &s.provider.ID, Start: start}, now)
		return err
	}
	utcOf := func(day time.Time) []string {
		var out []string
		for _, sl := range s.slots(t, appointments.Query{From: day, To: day, Now: now}) {
			out = append(out, sl.Start.UTC().Format("15:04"))
		}
		return out
	}

	spring := s.at(2026, time.March, 29, 0, 0)
	require.Equal(t, []string{"23:00", "00:00", "01:00", "02:00", "03:00"}, utcOf(spring),
		"00:00, 01:00 at UTC+1, then 03:00, 04:00, 05:00 at UTC+2 (the service ends by 06:00)")
	require.NoError(t, book(time.Date(2026, time.March, 29, 1, 0, 0, 0, time.UTC))) // 03:00 local
	ap := s.client.Appointment.Query().OnlyX(s.op)
	require.Equal(t, "03:00", ap.StartsAt.In(s.loc).Format("15:04"))
	requireCode(t, book(time.Date(2026, time.March, 29, 0, 30, 0, 0, time.UTC)), http.StatusConflict, appointments.CodeSlotUnavailable)
	require.NotContains(t, utcOf(spring), "01:00", "booked time leaves the offer")
	require.NoError(t, book(s.at(2026, time.March, 29, 1, 0)))
	require.Equal(t, "00:00", s.at(2026, time.March, 29, 1, 0).UTC().Format("15:04"))

	autumn := s.at(2026, time.October, 25, 0, 0)
	offered := s.slots(t, appointments.Query{From: autumn, To: autumn, Now: now})
	var two []time.Time
	for _, sl := range offered {
		if sl.Start.In(s.loc).Hour() == 2 {
			two = append(two, sl.Start)
		}
	}
	require.Len(t, two, 1, "02:00 is offered once")
	require.NoError(t, book(two[0]))
	for _, other := range []time.Time{two[0].Add(time.Hour), two[0].Add(-time.Hour)} {
		if other.In(s.loc).Hour() == 2 { // the repeated hour's other instant
			requireCode(t, book(other), http.StatusConflict, appointments.CodeSlotUnavailable)
		}
	}
	three := s.at(2026, time.October, 25, 3, 0)
	require.Equal(t, "02:00", three.UTC().Format("15:04"), "03:00 local is back at UTC+1")
	require.NoError(t, book(three))
	require.Equal(t, 4, s.client.Appointment.Query().CountX(s.op))
}
