package handlers_test

import (
	"net/http"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/venueplatform/venue/ent"
	entbooking "github.com/venueplatform/venue/ent/booking"
	"github.com/venueplatform/venue/ent/classinstance"
	"github.com/venueplatform/venue/internal/auth"
	"github.com/venueplatform/venue/internal/events"
	api "github.com/venueplatform/venue/internal/gen/api"
)

// TestAdminScheduleHistory: who may correct, the guards (token, status,
// ended class, past effective time), COMPLETE, the REWRITE confirmation
// round trip, CANCEL and RESTORE, and silence whatever the body asks.
func TestAdminScheduleHistory(t *testing.T) {
	e := newSchedEnv(t)
	params := api.CorrectAdminScheduleHistoryParams{ID: e.past}
	now := time.Now()
	body := func(op api.AdminScheduleHistoryRequestOperation, status api.ClassStatus) *api.AdminScheduleHistoryRequest {
		return &api.AdminScheduleHistoryRequest{Operation: op, ExpectedUpdatedAt: e.token(t, e.past), ExpectedStatus: status,
			HistoryReason: "Front desk forgot to close the class", EffectiveAt: now.Add(-time.Hour)}
	}

	// JWT-only: a key (even with write:schedule) is refused by the security
	// layer, and a staff token sent with a key is mixed credentials.
	_, err := e.keyClient(t, e.writeKey).CorrectAdminScheduleHistory(e.ctx, body(api.AdminScheduleHistoryRequestOperationCOMPLETE, api.ClassStatusScheduled), params)
	es := requireErr(t, err, http.StatusForbidden, "ACCESS_DENIED")
	require.Equal(t, auth.ReasonJWTOnly, es.Response.Error.Details.Reason.Value)
	_, err = e.staff(t, "mgr@example.com", "scheduling.manage").CorrectAdminScheduleHistory(e.ctx, body(api.AdminScheduleHistoryRequestOperationCOMPLETE, api.ClassStatusScheduled), params)
	requireErr(t, err, http.StatusForbidden, "ACCESS_DENIED")
	h := e.staff(t, "hist@example.com", "scheduling.manage", "scheduling.manage_history", "notifications.send")
	hs := e.login(t, "hist@example.com")
	_, err = e.authEnv.withHeader(t, bearer(hs.AccessToken), "X-API-Key", e.writeKey).
		CorrectAdminScheduleHistory(e.ctx, body(api.AdminScheduleHistoryRequestOperationCOMPLETE, api.ClassStatusScheduled), params)
	es = requireErr(t, err, http.StatusUnauthorized, "UNAUTHORIZED")
	require.Equal(t, auth.ReasonMixedCredentials, es.Response.Error.Details.Reason.Value)
	require.Equal(t, classinstance.StatusScheduled, e.class(t, e.past).Status, "refused requests change nothing")

	b := body(api.AdminScheduleHistoryRequestOperationCOMPLETE, api.ClassStatusCompleted)
	_, err = h.CorrectAdminScheduleHistory(e.ctx, b, params)
	requireErr(t, err, http.StatusConflict, "STALE_TARGET")
	b = body(api.AdminScheduleHistoryRequestOperationCOMPLETE, api.ClassStatusScheduled)
	b.EffectiveAt = now.Add(time.Hour)
	_, err = h.CorrectAdminScheduleHistory(e.ctx, b, params)
	es = requireErr(t, err, http.StatusBadRequest, "VALIDATION_ERROR")
	require.Equal(t, "effective_at", es.Response.Error.Details.Parameter.Value)
	_, err = h.CorrectAdminScheduleHistory(e.ctx, &api.AdminScheduleHistoryRequest{Operation: api.AdminScheduleHistoryRequestOperationCOMPLETE,
		ExpectedUpdatedAt: e.token(t, e.fullClass), ExpectedStatus: api.ClassStatusScheduled, HistoryReason: "too early",
		EffectiveAt: now.Add(-time.Hour)}, api.CorrectAdminScheduleHistoryParams{ID: e.fullClass})
	requireErr(t, err, http.StatusUnprocessableEntity, "CLASS_NOT_ENDED")
	_, err = h.CorrectAdminScheduleHistory(e.ctx, body(api.AdminScheduleHistoryRequestOperationRESTORE, api.ClassStatusScheduled), params)
	requireErr(t, err, http.StatusUnprocessableEntity, "INVALID_TRANSITION")
	_, err = h.CorrectAdminScheduleHistory(e.ctx, body(api.AdminScheduleHistoryRequestOperationCOMPLETE, api.ClassStatusScheduled),
		api.CorrectAdminScheduleHistoryParams{ID: e.otherClass})
	requireErr(t, err, http.StatusNotFound, "NOT_FOUND")
	require.Equal(t, classinstance.StatusScheduled, e.class(t, e.past).Status)

	// COMPLETE, silently although notify asks.
	b = body(api.AdminScheduleHistoryRequestOperationCOMPLETE, api.ClassStatusScheduled)
	b.Notify = notifyOf(true, true, true, false, false)
	res, err := h.CorrectAdminScheduleHistory(e.ctx, b, params)
	require.NoError(t, err)
	require.True(t, res.Data.Applied)
	require.Equal(t, api.ClassStatusCompleted, res.Data.Class.Status)
	require.False(t, res.Data.Notifications.Requested)
	require.Zero(t, e.deliveries(t))
	require.True(t, e.audited(t, "schedule.history.complete", "class:"+e.past.String()))
	evs := e.events(t, events.ClassUpdated)
	require.Len(t, evs, 1)
	require.Equal(t, true, evs[0].Payload["historical"])

	// REWRITE: apply without a token, preview, a token for another body,
	// then the confirmed apply.
	newStart := e.class(t, e.past).StartTime.Add(30 * time.Minute)
	rewrite := func() *api.AdminScheduleHistoryRequest {
		b := body(api.AdminScheduleHistoryRequestOperationREWRITE, api.ClassStatusCompleted)
		b.Rewrite = api.NewOptAdminScheduleHistoryRewrite(api.AdminScheduleHistoryRewrite{
			StartTime: api.NewOptDateTime(newStart), EndTime: api.NewOptDateTime(newStart.Add(time.Hour))})
		return b
	}
	_, err = h.CorrectAdminScheduleHistory(e.ctx, rewrite(), params)
	requireErr(t, err, http.StatusUnprocessableEntity, "HISTORY_CONFIRMATION_REQUIRED")
	pv := rewrite()
	pv.Intent = api.NewOptAdminScheduleHistoryRequestIntent(api.AdminScheduleHistoryRequestIntentPreview)
	prev, err := h.CorrectAdminScheduleHistory(e.ctx, pv, params)
	require.NoError(t, err)
	require.False(t, prev.Data.Applied)
	require.True(t, newStart.Equal(prev.Data.Class.StartTime), "the preview shows the class as it would be")
	require.NotEmpty(t, prev.Data.HistoryConfirmationToken.Value)
	require.False(t, newStart.Equal(e.class(t, e.past).StartTime), "a preview changes nothing")
	other := rewrite()
	other.Rewrite.Value.StartTime = api.NewOptDateTime(newStart.Add(-time.Minute))
	other.HistoryConfirmationToken = api.NewOptString(prev.Data.HistoryConfirmationToken.Value)
	_, err = h.CorrectAdminScheduleHistory(e.ctx, other, params)
	requireErr(t, err, http.StatusUnprocessableEntity, "HISTORY_CONFIRMATION_INVALID")
	ok := rewrite()
	ok.HistoryConfirmationToken = api.NewOptString(prev.Data.HistoryConfirmationToken.Value)
	res, err = h.CorrectAdminScheduleHistory(e.ctx, ok, params)
	require.NoError(t, err)
	require.True(t, res.Data.Applied)
	require.True(t, newStart.Equal(e.class(t, e.past).StartTime))
	require.True(t, e.audited(t, "schedule.history.rewrite", "class:"+e.past.String()))

	// CANCEL then RESTORE. Recorded attendance stays as recorded; the
	// bookings holding a seat are cancelled.
	var attendee *ent.Member
	for _, m := range e.db().Member.Query().AllX(e.op) {
		if !e.db().Booking.Query().Where(entbooking.MemberID(m.ID), entbooking.ClassInstanceID(e.past)).ExistX(e.op) {
			attendee = m
			break
		}
	}
	require.NotNil(t, attendee)
	attended := e.db().Booking.Create().SetMemberID(attendee.ID).SetClassInstanceID(e.past).SetStatus("checked_in").SaveX(e.op)
	res, err = h.CorrectAdminScheduleHistory(e.ctx, body(api.AdminScheduleHistoryRequestOperationCANCEL, api.ClassStatusCompleted), params)
	require.NoError(t, err)
	require.Equal(t, api.ClassStatusCancelled, res.Data.Class.Status)
	require.Equal(t, 1, res.Data.CancelledBookings.Value)
	require.Equal(t, entbooking.StatusCheckedIn, e.db().Booking.GetX(e.op, attended.ID).Status, "attendance is kept")
	cancelled := e.events(t, events.ClassCancelled)
	require.Len(t, cancelled, 1)
	require.Equal(t, true, cancelled[0].Payload["historical"])
	res, err = h.CorrectAdminScheduleHistory(e.ctx, body(api.AdminScheduleHistoryRequestOperationRESTORE, api.ClassStatusCancelled), params)
	require.NoError(t, err)
	require.Equal(t, api.ClassStatusCompleted, res.Data.Class.Status)
	require.True(t, res.Data.Class.CancelledAt.Null)
	require.Zero(t, e.deliveries(t))
}

// TestAdminDashboardToday: today's classes with counts and totals; another
// venue's classes never appear; permissions.
func TestAdminDashboardToday(t *testing.T) {
	e := newSchedEnv(t)
	start := e.today.Add(time.Minute)
	early := e.db().ClassInstance.Create().SetClassTypeID(e.classType).SetStartTime(start).SetEndTime(start.Add(time.Minute)).
		SetCapacity(8).SetInstructorID(e.instructor).SetRoomID(e.room).SetLocationID(e.location).SaveX(e.op)
	// 23:00 on the venue's clock: 23 hours after midnight is the next day's
	// midnight on the day the clocks go forward.
	lateStart := time.Date(e.today.Year(), e.today.Month(), e.today.Day(), 23, 0, 0, 0, e.loc)
	late := e.db().ClassInstance.Create().SetClassTypeID(e.classType).SetStartTime(lateStart).
		SetEndTime(lateStart.Add(30 * time.Minute)).SetCapacity(4).SetStatus(classinstance.StatusCancelled).SaveX(e.op)
	ms := e.db().Member.Query().AllX(e.op)
	e.db().Booking.Create().SetMemberID(ms[0].ID).SetClassInstanceID(early.ID).SetStatus("checked_in").SaveX(e.op)
	e.db().Booking.Create().SetMemberID(ms[1].ID).SetClassInstanceID(early.ID).SaveX(e.op)

	got, err := e.keyClient(t, e.studio.key).GetAdminDashboardToday(e.ctx, api.GetAdminDashboardTodayParams{})
	require.NoError(t, err)
	require.Equal(t, e.today.Format(time.DateOnly), got.Data.Date.Format(time.DateOnly))
	require.Len(t, got.Data.Classes, 2)
	first := got.Data.Classes[0]
	require.Equal(t, early.ID, first.ID)
	require.Equal(t, 2, first.BookedCount)
	require.Equal(t, 1, first.CheckedInCount)
	require.Equal(t, 8, first.Capacity)
	require.Equal(t, "Studio 1", first.Room.Value.Name)
	require.Equal(t, "Mette Hansen", first.Instructor.Value.Name)
	require.Equal(t, late.ID, got.Data.Classes[1].ID)
	require.Equal(t, api.DashboardTodayTotals{Classes: 1, Cancelled: 1, Capacity: 8, Booked: 2, Waitlisted: 0, CheckedIn: 1}, got.Data.Totals)

	other, err := e.keyClient(t, e.otherKey).GetAdminDashboardToday(e.ctx, api.GetAdminDashboardTodayParams{})
	require.NoError(t, err)
	require.Empty(t, other.Data.Classes)
	_, err = e.staff(t, "clerk@example.com", "pos.sell").GetAdminDashboardToday(e.ctx, api.GetAdminDashboardTodayParams{})
	requireErr(t, err, http.StatusForbidden, "ACCESS_DENIED")
	got, err = e.staff(t, "view@example.com", "schedule.view_all").GetAdminDashboardToday(e.ctx, api.GetAdminDashboardTodayParams{})
	require.NoError(t, err)
	require.Len(t, got.Data.Classes, 2)
}

// TestCalendar: class items in the unified shape, the range limit, the
// read:calendar scope and the venue wall.
func TestCalendar(t *testing.T) {
	e := newSchedEnv(t)
	got, err := e.keyClient(t, e.studio.key).GetCalendar(e.ctx, api.GetCalendarParams{})
	require.NoError(t, err)
	require.Equal(t, []string{"class", "appointment", "unavailable", "shift", "private_event", "stream", "room_rental", "maintenance"}, got.Meta.Kinds)
	require.Len(t, got.Data, 4)
	var full api.CalendarItem
	for _, it := range got.Data {
		require.Equal(t, "class", it.Kind)
		require.True(t, it.Class.Set)
		if it.ID == e.fullClass {
			full = it
		}
	}
	require.Equal(t, "Vinyasa Flow", full.Title)
	require.Equal(t, "scheduled", full.Status)
	require.Equal(t, []api.CalendarPerson{{ID: e.instructor, Name: "Mette Hansen", Role: "instructor"}}, full.People)
	require.Equal(t, 2, full.Class.Value.BookedCount)
	require.Equal(t, "Studio 1", full.Room.Value.Name)

	_, err = e.keyClient(t, e.studio.key).GetCalendar(e.ctx, api.GetCalendarParams{Start: dateParam(e.today), End: dateParam(e.today.AddDate(0, 0, 62))})
	requireErr(t, err, http.StatusBadRequest, "INVALID_RANGE")
	_, err = e.keyClient(t, e.studio.key).GetCalendar(e.ctx, api.GetCalendarParams{Start: api.NewOptString("tomorrow")})
	requireErr(t, err, http.StatusBadRequest, "VALIDATION_ERROR")

	other, err := e.keyClient(t, e.otherKey).GetCalendar(e.ctx, api.GetCalendarParams{})
	require.NoError(t, err)
	require.Len(t, other.Data, 1)
	require.Equal(t, e.otherClass, other.Data[0].ID)
	got, err = e.staff(t, "view@example.com", "schedule.view_all").GetCalendar(e.ctx, api.GetCalendarParams{})
	require.NoError(t, err)
	require.Len(t, got.Data, 4)
	_, err = e.staff(t, "clerk@example.com", "pos.sell").GetCalendar(e.ctx, api.GetCalendarParams{})
	requireErr(t, err, http.StatusForbidden, "ACCESS_DENIED")
}
