package appointments_test

import (
	"context"
	"net/http"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	entappointment "github.com/venueplatform/venue/ent/appointment"
	"github.com/venueplatform/venue/internal/appointments"
)

// TestExclusionConstraintRefusesOverlap: the database itself refuses a second
// seat-holding appointment whose busy span overlaps another of the same
// provider, whoever writes it; touching spans ([) ranges) and cancelled
// appointments do not collide.
func TestExclusionConstraintRefusesOverlap(t *testing.T) {
	s := newSalon(t, "exclusion")
	var names []string
	rows, err := s.pool.Query(context.Background(),
		`SELECT conname FROM pg_constraint WHERE conrelid = 'appointments'::regclass AND contype = 'x' ORDER BY conname`)
	require.NoError(t, err)
	for rows.Next() {
		var n string
		require.NoError(t, rows.Scan(&n))
		names = append(names, n)
	}
	rows.Close()
	require.NoError(t, rows.Err())
	require.Equal(t, []string{"appointments_provider_no_overlap", "appointments_room_no_overlap"}, names)

	m := s.member(t, "a@example.com")
	start := s.at(2027, time.January, 4, 10, 0)
	insert := func(from, until time.Time, st entappointment.Status) error {
		return s.client.Appointment.Create().SetMemberID(m.ID).SetProviderID(s.provider.ID).SetServiceID(s.service.ID).
			SetStartsAt(from).SetEndsAt(until).SetBusyFrom(from).SetBusyUntil(until).SetStatus(st).
			SetPriceMinor(0).SetCurrency("DKK").SetPayment(entappointment.PaymentFree).
			SetBookedVia(entappointment.BookedViaStaff).Exec(s.op)
	}
	require.NoError(t, insert(start, start.Add(time.Hour), entappointment.StatusBooked))
	err = insert(start.Add(30*time.Minute), start.Add(90*time.Minute), entappointment.StatusBooked)
	require.Error(t, err)
	require.True(t, appointments.IsOverlap(err), "SQLSTATE 23P01: %v", err)
	err = insert(start.Add(30*time.Minute), start.Add(90*time.Minute), entappointment.StatusCompleted)
	require.True(t, appointments.IsOverlap(err), "completed appointments hold their time too: %v", err)
	require.NoError(t, insert(start.Add(time.Hour), start.Add(2*time.Hour), entappointment.StatusBooked), "touching spans")
	require.NoError(t, insert(start.Add(15*time.Minute), start.Add(45*time.Minute), entappointment.StatusCancelled))
	other := s.newProvider(t, "Other")
	require.NoError(t, s.client.Appointment.Create().SetMemberID(m.ID).SetProviderID(other.ID).SetServiceID(s.service.ID).
		SetStartsAt(start).SetEndsAt(start.Add(time.Hour)).SetBusyFrom(start).SetBusyUntil(start.Add(time.Hour)).
		SetPriceMinor(0).SetCurrency("DKK").SetPayment(entappointment.PaymentFree).
		SetBookedVia(entappointment.BookedViaStaff).Exec(s.op), "another provider at the same time")
	require.Equal(t, 4, s.client.Appointment.Query().CountX(s.op))
}

// TestHundredConcurrentBookingsOfOneSlot: 100 members booking the same time
// of the same provider at once give exactly one appointment and 99 clear
// refusals (409 SLOT_UNAVAILABLE).
func TestHundredConcurrentBookingsOfOneSlot(t *testing.T) {
	s := newSalon(t, "contention")
	s.allWeek(s.provider, 9, 17)
	now := s.at(2027, time.January, 1, 8, 0)
	start := s.at(2027, time.January, 4, 10, 0)
	const n = 100
	ms := make([]appointments.Actor, n)
	for i := range ms {
		ms[i] = s.staffActor(s.member(t, "m"+string(rune('a'+i/26))+string(rune('a'+i%26))+"@example.com"))
	}
	var wg sync.WaitGroup
	errs := make([]error, n)
	gate := make(chan struct{})
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-gate
			_, errs[i] = appointments.Book(s.op, s.client, ms[i], appointments.Request{ServiceID: s.service.ID,
				ProviderID: &s.provider.ID, Start: start}, now)
		}()
	}
	close(gate)
	wg.Wait()
	ok := 0
	for _, err := range errs {
		if err == nil {
			ok++
			continue
		}
		requireCode(t, err, http.StatusConflict, appointments.CodeSlotUnavailable)
	}
	require.Equal(t, 1, ok)
	require.Equal(t, 1, s.client.Appointment.Query().CountX(s.op))
}

// TestAvailabilityAcrossDaylightSaving: a Copenhagen salon offers and books
// its wall-clock hours on both sides of the spring and autumn changes; the
// change days have 23 and 25 hours, and the skipped hour is never offered.
func TestAvailabilityAcrossDaylightSaving(t *testing.T) {
	s := newSalon(t, "dst")
	s.allWeek(s.provider, 9, 12)
	s.hours(s.provider, time.Sunday, 0, 9) // Sundays from midnight
	now := s.at(2026, time.March, 1, 8, 0)
	hourly := func(from, to time.Time) []appointments.Slot {
		s.client.AppointmentPolicy.Delete().ExecX(s.op)
		s.client.AppointmentPolicy.Create().SetSlotIntervalMinutes(60).ExecX(s.op)
		return s.slots(t, appointments.Query{From: from, To: to, Now: now})
	}
	// Saturday 28 March (UTC+1), Sunday 29 March (the change), Monday 30 March (UTC+2).
	got := hourly(s.at(2026, time.March, 28, 0, 0), s.at(2026, time.March, 30, 0, 0))
	var utc []string
	for _, sl := range got {
		utc = append(utc, sl.Start.UTC().Format("01-02 15:04"))
	}
	require.Equal(t, []string{
		"03-28 08:00", "03-28 09:00", "03-28 10:00", // 9, 10, 11 local at UTC+1
		"03-28 23:00", "03-29 00:00", // Sunday 00:00 and 01:00 local at UTC+1; 02:00 does not exist
		"03-29 01:00", "03-29 02:00", "03-29 03:00", "03-29 04:00", "03-29 05:00", "03-29 06:00", // 03:00..08:00 at UTC+2
		"03-29 07:00", "03-29 08:00", "03-29 09:00", // 9, 10, 11 local
		"03-30 07:00", "03-30 08:00", "03-30 09:00", // 9, 10, 11 local at UTC+2
	}, utc)
	for _, sl := range got {
		require.NotEqual(t, 2, sl.Start.In(s.loc).Hour(), "02:00 on 29 March is skipped")
	}

	// Autumn: Sunday 25 October has 25 hours; 02:00 is offered once, and the
	// morning's wall-clock hours stay right on both sides.
	got = hourly(s.at(2026, time.October, 24, 0, 0), s.at(2026, time.October, 26, 0, 0))
	local := map[string]int{}
	for _, sl := range got {
		local[sl.Start.In(s.loc).Format("01-02 15:04")]++
	}
	require.Equal(t, 1, local["10-25 02:00"])
	require.Equal(t, 1, local["10-24 09:00"])
	require.Equal(t, 1, local["10-26 09:00"])
	require.Len(t, got, 3+9+3+3)
	require.Equal(t, "07:00", s.at(2026, time.October, 24, 9, 0).UTC().Format("15:04"))
	require.Equal(t, "08:00", s.at(2026, time.October, 26, 9, 0).UTC().Format("15:04"))

	// Booking 09:00 local on Monday 30 March stores 07:00 UTC and takes it off the offer.
	m := s.member(t, "dst@example.com")
	ap, err := appointments.Book(s.op, s.client, s.staffActor(m), appointments.Request{ServiceID: s.service.ID,
		ProviderID: &s.provider.ID, Start: s.at(2026, time.March, 30, 9, 0)}, now)
	require.NoError(t, err)
	require.Equal(t, "2026-03-30T07:00:00Z", ap.StartsAt.UTC().Format(time.RFC3339))
	after := hourly(s.at(2026, time.March, 30, 0, 0), s.at(2026, time.March, 30, 0, 0))
	require.Len(t, after, 2)
	require.Equal(t, 10, after[0].Start.In(s.loc).Hour())
}

// TestOfferedIsExactlyBookable: over three days with working hours, time
// off, a class the provider teaches, existing appointments, a buffer and a
// self-service cutoff, every offered start is bookable (each in its own
// rolled-back transaction) and every other start on or off the grid is
// refused.
func TestOfferedIsExactlyBookable(t *testing.T) {
	s := newSalon(t, "property")
	s.allWeek(s.provider, 9, 17)
	s.client.Service.UpdateOneID(s.service.ID).SetBufferBeforeMinutes(5).ExecX(s.op)
	s.client.AppointmentPolicy.Create().SetSlotIntervalMinutes(15).SetSelfServiceCutoffHours(2).ExecX(s.op)
	day := s.at(2027, time.March, 2, 0, 0)
	now := s.at(2027, time.March, 2, 10, 7) // the cutoff leaves the morning of day 1 out
	s.client.ProviderTimeOff.Create().SetProviderID(s.provider.ID).
		SetStartsAt(day.AddDate(0, 0, 1).Add(12 * time.Hour)).SetEndsAt(day.AddDate(0, 0, 1).Add(14*time.Hour + 20*time.Minute)).ExecX(s.op)
	ct := s.client.ClassType.Create().SetName("Flow").SaveX(s.op)
	s.client.ClassInstance.Create().SetClassTypeID(ct.ID).SetInstructorID(s.provider.ID).SetCapacity(10).
		SetStartTime(day.AddDate(0, 0, 2).Add(10 * time.Hour)).SetEndTime(day.AddDate(0, 0, 2).Add(11 * time.Hour)).ExecX(s.op)
	booker := s.member(t, "existing@example.com")
	for _, start := range []time.Time{day.Add(15 * time.Hour), day.AddDate(0, 0, 2).Add(13*time.Hour + 30*time.Minute)} {
		_, err := appointments.Book(s.op, s.client, s.staffActor(booker), appointments.Request{ServiceID: s.service.ID,
			ProviderID: &s.provider.ID, Start: start}, day.AddDate(0, 0, -1))
		require.NoError(t, err)
	}
	m := s.member(t, "self@example.com")
	self := appointments.Actor{Member: m, Self: true, Via: entappointment.BookedViaMember}

	offered := s.slots(t, appointments.Query{From: day, To: day.AddDate(0, 0, 2), Now: now, SelfService: true})
	require.NotEmpty(t, offered)
	set := map[int64]bool{}
	for _, sl := range offered {
		set[sl.Start.Unix()] = true
		require.NoError(t, s.tryBook(t, self, appointments.Request{ServiceID: s.service.ID, Start: sl.Start}, now),
			"offered %s", sl.Start.In(s.loc))
	}
	// Spot checks of the rules the set must follow.
	require.False(t, set[day.Add(12*time.Hour).Unix()], "inside the self-service cutoff")
	require.True(t, set[day.Add(12*time.Hour+15*time.Minute).Unix()], "first start after the cutoff")
	require.False(t, set[day.Add(14*time.Hour+15*time.Minute).Unix()], "its end plus buffer would reach the 15:00 appointment's buffer")
	require.False(t, set[day.AddDate(0, 0, 1).Add(13*time.Hour).Unix()], "time off")
	require.True(t, set[day.AddDate(0, 0, 1).Add(14*time.Hour+30*time.Minute).Unix()], "after time off and its buffer")
	require.False(t, set[day.AddDate(0, 0, 2).Add(10*time.Hour).Unix()], "teaching a class")
	require.False(t, set[day.AddDate(0, 0, 2).Add(16*time.Hour+30*time.Minute).Unix()], "would end after 17:00")
	tried := 0
	for t0 := day; t0.Before(day.AddDate(0, 0, 3)); t0 = t0.Add(5 * time.Minute) {
		if set[t0.Unix()] || t0.Hour() < 8 || t0.Hour() > 17 {
			continue
		}
		err := s.tryBook(t, self, appointments.Request{ServiceID: s.service.ID, Start: t0}, now)
		requireCode(t, err, http.StatusConflict, appointments.CodeSlotUnavailable)
		tried++
	}
	require.Greater(t, tried, 100)
}
