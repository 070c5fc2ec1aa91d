package handlers_test

import (
	"net/http"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/stretchr/testify/require"

	api "github.com/venueplatform/venue/internal/gen/api"
)

// TestCalendarAppointmentsAndUnavailableTime: the calendar feed carries the
// venue's appointments (a rescheduled one only through the appointment it
// moved to, a cancelled one with its status) and providers' time off that
// overlaps the range, ordered by start beside the classes, for API keys and
// staff alike, and nothing of another venue.
func TestCalendarAppointmentsAndUnavailableTime(t *testing.T) {
	e := newSchedEnv(t)
	ctx := e.ctx
	staff := e.staff(t, "manager@studio.example", "bookings.manage", "schedule.view_all")
	svc := e.db().Service.Create().SetName("Facial").SetSlug("facial").SetDurationMinutes(60).
		SetPriceMinor(60000).SetCurrency("DKK").SaveX(e.op)
	variant := e.db().ServiceVariant.Create().SetServiceID(svc.ID).SetName("Deep").SetDurationMinutes(45).
		SetPriceMinor(50000).SaveX(e.op)
	e.db().ServiceProvider.Create().SetServiceID(svc.ID).SetProviderID(e.instructor).ExecX(e.op)
	for wd := 0; wd < 7; wd++ {
		e.db().ProviderHours.Create().SetProviderID(e.instructor).SetWeekday(wd).SetStartMinute(13 * 60).SetEndMinute(18 * 60).ExecX(e.op)
	}
	m := e.db().Member.Query().FirstX(e.op)
	day := e.today.AddDate(0, 0, 4)
	at := func(h int) time.Time { return time.Date(day.Year(), day.Month(), day.Day(), h, 0, 0, 0, e.loc) }
	create := func(h int, variantID *uuid.UUID) api.Appointment {
		req := &api.AdminAppointmentCreateRequest{MemberID: m.ID, ServiceID: svc.ID, StartTime: at(h)}
		if variantID != nil {
			req.VariantID = api.NewOptUUID(*variantID)
		}
		res, err := staff.CreateAdminAppointment(ctx, req, api.CreateAdminAppointmentParams{})
		require.NoError(t, err)
		return res.Data
	}
	kept := create(13, &variant.ID)
	moved := create(15, nil)
	cancelled := create(17, nil)
	res, err := staff.ActOnAdminAppointment(ctx, &api.AdminAppointmentActionRequest{Action: api.AdminAppointmentActionRequestActionReschedule,
		ExpectedUpdatedAt: moved.UpdatedAt, StartTime: api.NewOptDateTime(at(16))}, api.ActOnAdminAppointmentParams{ID: moved.ID})
	require.NoError(t, err)
	movedTo := res.Data
	_, err = staff.ActOnAdminAppointment(ctx, &api.AdminAppointmentActionRequest{Action: api.AdminAppointmentActionRequestActionCancel,
		ExpectedUpdatedAt: cancelled.UpdatedAt}, api.ActOnAdminAppointmentParams{ID: cancelled.ID})
	require.NoError(t, err)
	// Time off from yesterday noon to tomorrow noon overlaps the range's start.
	off := e.db().ProviderTimeOff.Create().SetProviderID(e.instructor).SetReason("Course").
		SetStartsAt(e.today.Add(-12 * time.Hour)).SetEndsAt(e.today.Add(36 * time.Hour)).SaveX(e.op)
	// Time off entirely after the range is not served.
	e.db().ProviderTimeOff.Create().SetProviderID(e.instructor).SetStartsAt(e.today.AddDate(0, 0, 20)).
		SetEndsAt(e.today.AddDate(0, 0, 21)).ExecX(e.op)

	for name, c := range map[string]*api.Client{"api key": e.keyClient(t, e.studio.key), "staff": staff} {
		got, err := c.GetCalendar(ctx, api.GetCalendarParams{})
		require.NoError(t, err, name)
		require.Equal(t, []string{"class", "appointment", "unavailable", "shift", "private_event", "stream", "room_rental", "maintenance"}, got.Meta.Kinds, name)
		require.Len(t, got.Data, 4+3+1, name)
		byID := map[uuid.UUID]api.CalendarItem{}
		for i, it := range got.Data {
			byID[it.ID] = it
			if i > 0 {
				require.False(t, it.StartTime.Before(got.Data[i-1].StartTime), "%s: ordered by start", name)
			}
		}
		require.NotContains(t, byID, moved.ID, name)
		k := byID[kept.ID]
		require.Equal(t, "appointment", k.Kind)
		require.Equal(t, "booked", k.Status)
		require.Equal(t, "Facial (Deep)", k.Title)
		require.True(t, k.StartTime.Equal(at(13)))
		require.True(t, k.EndTime.Equal(at(13).Add(45*time.Minute)))
		require.Equal(t, []api.CalendarPerson{{ID: e.instructor, Name: "Mette Hansen", Role: "provider"}}, k.People)
		require.True(t, k.Appointment.Set)
		require.False(t, k.Class.Set)
		require.Equal(t, api.NamedRef{ID: svc.ID, Name: "Facial"}, k.Appointment.Value.Service)
		require.Equal(t, variant.ID, k.Appointment.Value.Variant.Value.ID)
		require.Equal(t, m.ID, k.Appointment.Value.MemberID)
		require.Equal(t, int64(50000), k.Appointment.Value.PriceMinor)
		require.Equal(t, api.CalendarAppointmentBookedViaStaff, k.Appointment.Value.BookedVia)
		require.Equal(t, "booked", byID[movedTo.ID].Status)
		require.True(t, byID[movedTo.ID].StartTime.Equal(at(16)))
		require.Equal(t, "cancelled", byID[cancelled.ID].Status)
		u := byID[off.ID]
		require.Equal(t, "unavailable", u.Kind)
		require.True(t, u.StartTime.Equal(e.today.Add(-12*time.Hour)))
		require.Equal(t, "Course", u.Unavailable.Value.Reason)
		require.Equal(t, e.instructor, u.Unavailable.Value.Provider.ID)
		require.Equal(t, "Mette Hansen unavailable", u.Title)
		require.True(t, u.Location.Null)
	}

	// A range that ends before the appointments' day has none of them.
	early, err := staff.GetCalendar(ctx, api.GetCalendarParams{Start: dateParam(e.today), End: dateParam(e.today.AddDate(0, 0, 3))})
	require.NoError(t, err)
	for _, it := range early.Data {
		require.NotEqual(t, "appointment", it.Kind)
	}
	// Another venue sees none of it.
	other, err := e.keyClient(t, e.otherKey).GetCalendar(ctx, api.GetCalendarParams{})
	require.NoError(t, err)
	require.Len(t, other.Data, 1)
	require.Equal(t, "class", other.Data[0].Kind)
	// Bad input is still refused.
	_, err = staff.GetCalendar(ctx, api.GetCalendarParams{Start: dateParam(e.today), End: dateParam(e.today.AddDate(0, 0, -1))})
	requireErr(t, err, http.StatusBadRequest, "INVALID_RANGE")
}
