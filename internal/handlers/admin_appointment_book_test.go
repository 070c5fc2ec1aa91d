package handlers_test

import (
	"net/http"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/stretchr/testify/require"

	"github.com/venueplatform/venue/ent"
	entappointment "github.com/venueplatform/venue/ent/appointment"
	"github.com/venueplatform/venue/ent/event"
	"github.com/venueplatform/venue/ent/notificationdelivery"
	"github.com/venueplatform/venue/internal/events"
	api "github.com/venueplatform/venue/internal/gen/api"
)

// TestStaffAppointmentBook: staff book for a member, list the book with its
// filters, and walk an appointment through check-in, start and complete
// (stale tokens and impossible actions refused and changing nothing); a
// reschedule books the new time and marks the old one rescheduled, a
// reschedule onto a taken time changes nothing, and a no-show is refused
// before the start.
func TestStaffAppointmentBook(t *testing.T) {
	e := newSchedEnv(t)
	ctx := e.ctx
	staff := e.staff(t, "manager@studio.example", "bookings.manage")
	svc := e.db().Service.Create().SetName("Facial").SetSlug("facial").SetDurationMinutes(60).
		SetPriceMinor(60000).SetCurrency("DKK").SaveX(e.op)
	e.db().ServiceProvider.Create().SetServiceID(svc.ID).SetProviderID(e.instructor).ExecX(e.op)
	for wd := 0; wd < 7; wd++ {
		e.db().ProviderHours.Create().SetProviderID(e.instructor).SetWeekday(wd).SetStartMinute(13 * 60).SetEndMinute(18 * 60).ExecX(e.op)
	}
	m := e.db().Member.Query().FirstX(e.op)
	day := e.today.AddDate(0, 0, 4)
	at := func(h int) time.Time { return time.Date(day.Year(), day.Month(), day.Day(), h, 0, 0, 0, e.loc) }
	create := func(h int) api.Appointment {
		res, err := staff.CreateAdminAppointment(ctx, &api.AdminAppointmentCreateRequest{MemberID: m.ID, ServiceID: svc.ID,
			StartTime: at(h)}, api.CreateAdminAppointmentParams{})
		require.NoError(t, err)
		return res.Data
	}
	_, err := staff.CreateAdminAppointment(ctx, &api.AdminAppointmentCreateRequest{MemberID: uuid.New(), ServiceID: svc.ID,
		StartTime: at(13)}, api.CreateAdminAppointmentParams{})
	requireErr(t, err, http.StatusNotFound, "CLIENT_NOT_FOUND")
	a := create(13)
	b := create(15)
	require.Equal(t, m.ID, a.MemberID)

	list, err := staff.ListAdminAppointments(ctx, api.ListAdminAppointmentsParams{ProviderID: api.NewOptUUID(e.instructor)})
	require.NoError(t, err)
	require.Len(t, list.Data, 2)
	require.Equal(t, 100, list.Meta.Limit)
	one, err := staff.ListAdminAppointments(ctx, api.ListAdminAppointmentsParams{Limit: api.NewOptInt(1)})
	require.NoError(t, err)
	require.Len(t, one.Data, 1)
	require.True(t, one.Meta.HasMore)
	require.Equal(t, a.ID, one.Data[0].ID)
	none, err := staff.ListAdminAppointments(ctx, api.ListAdminAppointmentsParams{ProviderID: api.NewOptUUID(uuid.New())})
	require.NoError(t, err)
	require.Empty(t, none.Data)

	act := func(id uuid.UUID, action api.AdminAppointmentActionRequestAction, tok string, start *time.Time) (*api.AppointmentResponse, error) {
		req := &api.AdminAppointmentActionRequest{Action: action, ExpectedUpdatedAt: tok}
		if start != nil {
			req.StartTime = api.NewOptDateTime(*start)
		}
		return staff.ActOnAdminAppointment(ctx, req, api.ActOnAdminAppointmentParams{ID: id})
	}
	_, err = act(a.ID, api.AdminAppointmentActionRequestActionCheckIn, time.Now().UTC().Format(time.RFC3339Nano), nil)
	requireErr(t, err, http.StatusConflict, "STALE_TARGET")
	_, err = act(a.ID, api.AdminAppointmentActionRequestActionNoShow, a.UpdatedAt, nil)
	requireErr(t, err, http.StatusUnprocessableEntity, "INVALID_TRANSITION")
	cur := a
	for _, step := range []struct {
		action api.AdminAppointmentActionRequestAction
		want   api.AppointmentStatus
	}{
		{api.AdminAppointmentActionRequestActionCheckIn, api.AppointmentStatusCheckedIn},
		{api.AdminAppointmentActionRequestActionStart, api.AppointmentStatusInProgress},
		{api.AdminAppointmentActionRequestActionComplete, api.AppointmentStatusCompleted},
	} {
		res, err := act(cur.ID, step.action, cur.UpdatedAt, nil)
		require.NoError(t, err, step.action)
		require.Equal(t, step.want, res.Data.Status)
		cur = res.Data
	}
	_, err = act(cur.ID, api.AdminAppointmentActionRequestActionCancel, cur.UpdatedAt, nil)
	requireErr(t, err, http.StatusUnprocessableEntity, "INVALID_TRANSITION")

	// Reschedule onto the completed appointment's time: refused, nothing changes.
	taken := at(13)
	_, err = act(b.ID, api.AdminAppointmentActionRequestActionReschedule, b.UpdatedAt, &taken)
	requireErr(t, err, http.StatusConflict, "SLOT_UNAVAILABLE")
	require.Equal(t, entappointment.StatusBooked, e.db().Appointment.GetX(e.op, b.ID).Status)
	// The staff availability read with reschedule_id counts b's own time as free.
	av, err := staff.GetAdminAppointmentAvailability(ctx, api.GetAdminAppointmentAvailabilityParams{ServiceID: svc.ID,
		Date: time.Date(day.Year(), day.Month(), day.Day(), 0, 0, 0, 0, time.UTC), RescheduleID: api.NewOptUUID(b.ID)})
	require.NoError(t, err)
	starts := map[int64]bool{}
	for _, s := range av.Data.Slots {
		starts[s.StartTime.Unix()] = true
	}
	require.True(t, starts[at(15).Add(15*time.Minute).Unix()])
	require.False(t, starts[at(13).Unix()])
	later := at(16)
	moved, err := act(b.ID, api.AdminAppointmentActionRequestActionReschedule, b.UpdatedAt, &later)
	require.NoError(t, err)
	require.NotEqual(t, b.ID, moved.Data.ID)
	require.True(t, moved.Data.StartTime.Equal(later))
	old := e.db().Appointment.GetX(e.op, b.ID)
	require.Equal(t, entappointment.StatusRescheduled, old.Status)
	require.Equal(t, moved.Data.ID, *old.RescheduledToID)
	require.Len(t, e.db().Event.Query().Where(event.Type(events.AppointmentRescheduled)).AllX(e.op), 1)
	require.True(t, e.audited(t, "appointment.check_in", "appointment:"+a.ID.String()))

	// Cancelling needs the current token, then frees the time.
	got, err := staff.GetAdminAppointment(ctx, api.GetAdminAppointmentParams{ID: moved.Data.ID})
	require.NoError(t, err)
	res, err := act(moved.Data.ID, api.AdminAppointmentActionRequestActionCancel, got.Data.UpdatedAt, nil)
	require.NoError(t, err)
	require.Equal(t, api.AppointmentStatusCancelled, res.Data.Status)

	// Other venues' appointments are not found; API keys are refused.
	_, err = staff.GetAdminAppointment(ctx, api.GetAdminAppointmentParams{ID: uuid.New()})
	requireErr(t, err, http.StatusNotFound, "NOT_FOUND")
	_, err = e.keyClient(t, e.writeKey).ListAdminAppointments(ctx, api.ListAdminAppointmentsParams{})
	require.Error(t, err)
}

// TestStaffAppointmentNotificationChannels: a staff booking with
// notification channels queues the member's message through the
// notification rules (e-mail to the member's address; push, with no device,
// recorded as skipped with its reason), needs notifications.send (without
// it: 403 and nothing booked), and a booking without channels is silent.
func TestStaffAppointmentNotificationChannels(t *testing.T) {
	e := newSchedEnv(t)
	ctx := e.ctx
	sender := e.staff(t, "manager@studio.example", "bookings.manage", "notifications.send")
	booker := e.staff(t, "desk@studio.example", "bookings.manage")
	svc := e.db().Service.Create().SetName("Facial").SetSlug("facial").SetDurationMinutes(60).
		SetPriceMinor(60000).SetCurrency("DKK").SaveX(e.op)
	e.db().ServiceProvider.Create().SetServiceID(svc.ID).SetProviderID(e.instructor).ExecX(e.op)
	for wd := 0; wd < 7; wd++ {
		e.db().ProviderHours.Create().SetProviderID(e.instructor).SetWeekday(wd).SetStartMinute(13 * 60).SetEndMinute(18 * 60).ExecX(e.op)
	}
	m := e.db().Member.Query().FirstX(e.op)
	day := e.today.AddDate(0, 0, 4)
	at := func(h int) time.Time { return time.Date(day.Year(), day.Month(), day.Day(), h, 0, 0, 0, e.loc) }
	deliveries := func() []*ent.NotificationDelivery {
		return e.db().NotificationDelivery.Query().Where(notificationdelivery.Kind("booking.appointment_created")).AllX(e.op)
	}
	channels := []api.AdminAppointmentCreateRequestNotificationChannelsItem{
		api.AdminAppointmentCreateRequestNotificationChannelsItemEmail, api.AdminAppointmentCreateRequestNotificationChannelsItemPush}

	before := e.db().Appointment.Query().CountX(e.op)
	_, err := booker.CreateAdminAppointment(ctx, &api.AdminAppointmentCreateRequest{MemberID: m.ID, ServiceID: svc.ID,
		StartTime: at(13), NotificationChannels: channels}, api.CreateAdminAppointmentParams{})
	requireErr(t, err, http.StatusForbidden, "ACCESS_DENIED")
	require.Equal(t, before, e.db().Appointment.Query().CountX(e.op))

	_, err = booker.CreateAdminAppointment(ctx, &api.AdminAppointmentCreateRequest{MemberID: m.ID, ServiceID: svc.ID,
		StartTime: at(13)}, api.CreateAdminAppointmentParams{})
	require.NoError(t, err)
	require.Empty(t, deliveries(), "no channels: silent")

	res, err := sender.CreateAdminAppointment(ctx, &api.AdminAppointmentCreateRequest{MemberID: m.ID, ServiceID: svc.ID,
		StartTime: at(15), NotificationChannels: channels}, api.CreateAdminAppointmentParams{})
	require.NoError(t, err)
	ds := deliveries()
	require.Len(t, ds, 2)
	byChannel := map[notificationdelivery.Channel]*ent.NotificationDelivery{}
	for _, d := range ds {
		byChannel[d.Channel] = d
		require.Equal(t, m.ID, *d.MemberID)
		require.Equal(t, "appointment:"+res.Data.ID.String(), d.CorrelationID)
	}
	require.Equal(t, notificationdelivery.StatusPending, byChannel[notificationdelivery.ChannelEmail].Status)
	require.Contains(t, byChannel[notificationdelivery.ChannelEmail].Address, "@")
	require.Contains(t, byChannel[notificationdelivery.ChannelEmail].Subject, "Facial")
	require.Equal(t, notificationdelivery.StatusSkipped, byChannel[notificationdelivery.ChannelPush].Status)
	require.NotNil(t, byChannel[notificationdelivery.ChannelPush].StatusReason)
}
