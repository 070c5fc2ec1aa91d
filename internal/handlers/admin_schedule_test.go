package handlers_test

import (
	"net/http"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/stretchr/testify/require"

	"github.com/venueplatform/venue/ent"
	"github.com/venueplatform/venue/ent/booking"
	"github.com/venueplatform/venue/ent/classinstance"
	"github.com/venueplatform/venue/ent/passtype"
	"github.com/venueplatform/venue/internal/events"
	api "github.com/venueplatform/venue/internal/gen/api"
)

func rowIDs(rows []api.AdminScheduleRow) []uuid.UUID {
	out := make([]uuid.UUID, len(rows))
	for i, r := range rows {
		out[i] = r.ID
	}
	return out
}

// TestAdminScheduleList: the staff list with every status and listed or not,
// historical classes behind scheduling.manage_history, range rules, the
// availability window and row limits, permissions and the venue wall.
func TestAdminScheduleList(t *testing.T) {
	e := newSchedEnv(t)
	key := e.keyClient(t, e.studio.key)

	got, err := key.ListAdminSchedule(e.ctx, api.ListAdminScheduleParams{})
	require.NoError(t, err)
	ids := rowIDs(got.Data)
	require.ElementsMatch(t, []uuid.UUID{e.fullClass, e.onlineClass, e.cancelledClass, e.unlisted}, ids)
	require.Equal(t, api.AdminScheduleListMetaNotificationAvailabilityNotRequested, got.Meta.NotificationAvailability)
	for _, r := range got.Data {
		if r.ID == e.fullClass {
			require.Equal(t, 2, r.Capacity)
			require.Equal(t, 2, r.BookedCount)
			require.Equal(t, 1, r.WaitlistCount)
			require.Equal(t, 1, r.CheckedInCount)
			require.Equal(t, "Mette Hansen", r.Instructor.Value.Name)
			require.NotEmpty(t, r.UpdatedAt)
			require.False(t, r.NotificationAvailability.Set)
		}
	}

	// Ended classes are left out and counted unless history is asked for.
	from := dateParam(e.today.AddDate(0, 0, -3))
	got, err = key.ListAdminSchedule(e.ctx, api.ListAdminScheduleParams{StartDate: from})
	require.NoError(t, err)
	require.NotContains(t, rowIDs(got.Data), e.past)
	require.Equal(t, 1, got.Meta.HistoricalExcluded)
	_, err = key.ListAdminSchedule(e.ctx, api.ListAdminScheduleParams{StartDate: from, IncludeHistorical: api.NewOptBool(true)})
	requireErr(t, err, http.StatusForbidden, "ACCESS_DENIED")
	viewerOnly := e.staff(t, "view@example.com", "schedule.view_all")
	_, err = viewerOnly.ListAdminSchedule(e.ctx, api.ListAdminScheduleParams{StartDate: from, IncludeHistorical: api.NewOptBool(true)})
	es := requireErr(t, err, http.StatusForbidden, "ACCESS_DENIED")
	require.Equal(t, "permission", es.Response.Error.Details.Reason.Value)
	historian := e.staff(t, "hist@example.com", "schedule.view_all", "scheduling.manage_history")
	got, err = historian.ListAdminSchedule(e.ctx, api.ListAdminScheduleParams{StartDate: from, IncludeHistorical: api.NewOptBool(true)})
	require.NoError(t, err)
	require.Contains(t, rowIDs(got.Data), e.past)
	require.Zero(t, got.Meta.HistoricalExcluded)
	for _, r := range got.Data {
		require.Equal(t, r.ID == e.past, r.Historical)
	}

	// Staff without a schedule permission, and a member-only session.
	clerk := e.staff(t, "clerk@example.com", "pos.sell")
	_, err = clerk.ListAdminSchedule(e.ctx, api.ListAdminScheduleParams{})
	es = requireErr(t, err, http.StatusForbidden, "ACCESS_DENIED")
	require.Equal(t, "permission", es.Response.Error.Details.Reason.Value)
	manager := e.staff(t, "manager@example.com", "scheduling.manage")
	_, err = manager.ListAdminSchedule(e.ctx, api.ListAdminScheduleParams{})
	require.NoError(t, err)

	// Bad input.
	_, err = key.ListAdminSchedule(e.ctx, api.ListAdminScheduleParams{StartDate: api.NewOptString("2026-13-01")})
	es = requireErr(t, err, http.StatusBadRequest, "VALIDATION_ERROR")
	require.Equal(t, "start_date", es.Response.Error.Details.Parameter.Value)
	_, err = key.ListAdminSchedule(e.ctx, api.ListAdminScheduleParams{StartDate: dateParam(e.today), EndDate: dateParam(e.today.AddDate(0, 0, -1))})
	requireErr(t, err, http.StatusBadRequest, "INVALID_RANGE")
	_, err = key.ListAdminSchedule(e.ctx, api.ListAdminScheduleParams{StartDate: dateParam(e.today), EndDate: dateParam(e.today.AddDate(0, 0, 92))})
	requireErr(t, err, http.StatusBadRequest, "INVALID_RANGE")

	// Availability within the window; omitted beyond 62 days.
	withAv := api.NewOptListAdminScheduleInclude(api.ListAdminScheduleIncludeNotificationAvailability)
	got, err = key.ListAdminSchedule(e.ctx, api.ListAdminScheduleParams{Include: withAv})
	require.NoError(t, err)
	require.Equal(t, api.AdminScheduleListMetaNotificationAvailabilityIncluded, got.Meta.NotificationAvailability)
	for _, r := range got.Data {
		require.True(t, r.NotificationAvailability.Set)
		if r.ID == e.fullClass {
			require.True(t, r.NotificationAvailability.Value.Cancel.Clients.Email.Available)
			require.Equal(t, 3, r.NotificationAvailability.Value.Cancel.Clients.Email.Total)
		}
	}
	got, err = key.ListAdminSchedule(e.ctx, api.ListAdminScheduleParams{Include: withAv, StartDate: dateParam(e.today), EndDate: dateParam(e.today.AddDate(0, 0, 62))})
	require.NoError(t, err)
	require.Equal(t, api.AdminScheduleListMetaNotificationAvailabilityOmitted, got.Meta.NotificationAvailability)
	require.Equal(t, api.AdminScheduleListMetaNotificationAvailabilityOmittedReasonWindowTooWide, got.Meta.NotificationAvailabilityOmittedReason.Value)
	require.Contains(t, rowIDs(got.Data), e.far)
	for _, r := range got.Data {
		require.False(t, r.NotificationAvailability.Set)
	}

	// Another venue's key sees its own classes only.
	got, err = e.keyClient(t, e.otherKey).ListAdminSchedule(e.ctx, api.ListAdminScheduleParams{})
	require.NoError(t, err)
	require.Equal(t, []uuid.UUID{e.otherClass}, rowIDs(got.Data))
}

// TestAdminScheduleListRowLimit: more than 300 rows answer without availability.
func TestAdminScheduleListRowLimit(t *testing.T) {
	e := newSchedEnv(t)
	day := e.today.AddDate(0, 0, 5)
	var bulk []*ent.ClassInstanceCreate
	for i := 0; i < 301; i++ {
		start := day.Add(time.Duration(i) * time.Minute)
		bulk = append(bulk, e.db().ClassInstance.Create().SetClassTypeID(e.classType).SetStartTime(start).SetEndTime(start.Add(time.Hour)).SetCapacity(5))
	}
	e.db().ClassInstance.CreateBulk(bulk...).SaveX(e.op)
	got, err := e.keyClient(t, e.studio.key).ListAdminSchedule(e.ctx, api.ListAdminScheduleParams{
		Include: api.NewOptListAdminScheduleInclude(api.ListAdminScheduleIncludeNotificationAvailability)})
	require.NoError(t, err)
	require.Greater(t, len(got.Data), 300)
	require.Equal(t, api.AdminScheduleListMetaNotificationAvailabilityOmitted, got.Meta.NotificationAvailability)
	require.Equal(t, api.AdminScheduleListMetaNotificationAvailabilityOmittedReasonTooManyRows, got.Meta.NotificationAvailabilityOmittedReason.Value)
}

// TestAdminScheduleItem: one class with availability for the four actions;
// another venue's class is 404.
func TestAdminScheduleItem(t *testing.T) {
	e := newSchedEnv(t)
	key := e.keyClient(t, e.studio.key)
	got, err := key.GetAdminScheduleItem(e.ctx, api.GetAdminScheduleItemParams{ID: e.fullClass})
	require.NoError(t, err)
	require.Equal(t, e.fullClass, got.Data.ID)
	av := got.Data.NotificationAvailability.Value
	require.True(t, got.Data.NotificationAvailability.Set)
	require.True(t, av.Cancel.Clients.Email.Available)
	require.False(t, av.Cancel.Instructor.Push.Available)
	require.Equal(t, "unsupported", av.Cancel.Instructor.Push.ReasonCode.Value)
	require.False(t, av.Substitute.Clients.SMS.Available)

	past, err := key.GetAdminScheduleItem(e.ctx, api.GetAdminScheduleItemParams{ID: e.past})
	require.NoError(t, err)
	require.True(t, past.Data.Historical)

	_, err = key.GetAdminScheduleItem(e.ctx, api.GetAdminScheduleItemParams{ID: e.otherClass})
	requireErr(t, err, http.StatusNotFound, "NOT_FOUND")
	_, err = e.keyClient(t, e.otherKey).GetAdminScheduleItem(e.ctx, api.GetAdminScheduleItemParams{ID: e.fullClass})
	requireErr(t, err, http.StatusNotFound, "NOT_FOUND")
	_, err = key.GetAdminScheduleItem(e.ctx, api.GetAdminScheduleItemParams{ID: uuid.New()})
	requireErr(t, err, http.StatusNotFound, "NOT_FOUND")
	_, err = e.staff(t, "clerk@example.com").GetAdminScheduleItem(e.ctx, api.GetAdminScheduleItemParams{ID: e.fullClass})
	requireErr(t, err, http.StatusForbidden, "ACCESS_DENIED")
}

// TestAdminSchedulePatch: token rules, capacity below booked, references,
// scopes and permissions, the event and audit entry, silent by default and
// notifications only for staff holding notifications.send.
func TestAdminSchedulePatch(t *testing.T) {
	e := newSchedEnv(t)
	w := e.keyClient(t, e.writeKey)
	before := e.class(t, e.fullClass)
	tok := e.token(t, e.fullClass)
	params := api.UpdateAdminScheduleItemParams{ID: e.fullClass}
	unchanged := func() {
		t.Helper()
		now := e.class(t, e.fullClass)
		require.Equal(t, before.Capacity, now.Capacity)
		require.True(t, before.UpdatedAt.Equal(now.UpdatedAt))
	}

	_, err := w.UpdateAdminScheduleItem(e.ctx, &api.AdminScheduleUpdateRequest{Capacity: api.NewOptInt(5)}, params)
	es := requireErr(t, err, http.StatusBadRequest, "VALIDATION_ERROR")
	require.Equal(t, "expected_updated_at", es.Response.Error.Details.Parameter.Value)
	_, err = w.UpdateAdminScheduleItem(e.ctx, &api.AdminScheduleUpdateRequest{Capacity: api.NewOptInt(5),
		ExpectedUpdatedAt: api.NewOptString("2020-01-01T00:00:00Z")}, params)
	requireErr(t, err, http.StatusConflict, "STALE_TARGET")
	_, err = w.UpdateAdminScheduleItem(e.ctx, &api.AdminScheduleUpdateRequest{Capacity: api.NewOptInt(1), ExpectedUpdatedAt: api.NewOptString(tok)}, params)
	es = requireErr(t, err, http.StatusUnprocessableEntity, "CAPACITY_BELOW_BOOKED")
	require.Contains(t, string(es.Response.Error.Details.AdditionalProps["booked_count"]), "2")
	_, err = w.UpdateAdminScheduleItem(e.ctx, &api.AdminScheduleUpdateRequest{ExpectedUpdatedAt: api.NewOptString(tok),
		EndTime: api.NewOptDateTime(before.StartTime.Add(-time.Minute))}, params)
	requireErr(t, err, http.StatusBadRequest, "VALIDATION_ERROR")
	_, err = w.UpdateAdminScheduleItem(e.ctx, &api.AdminScheduleUpdateRequest{ExpectedUpdatedAt: api.NewOptString(tok),
		InstructorID: api.NewOptNilUUID(e.otherInstr)}, params)
	requireErr(t, err, http.StatusNotFound, "NOT_FOUND")
	_, err = w.UpdateAdminScheduleItem(e.ctx, &api.AdminScheduleUpdateRequest{ExpectedUpdatedAt: api.NewOptString(tok)}, params)
	requireErr(t, err, http.StatusBadRequest, "VALIDATION_ERROR")
	// The read key lacks write:schedule; an API key may not notify.
	_, err = e.keyClient(t, e.studio.key).UpdateAdminScheduleItem(e.ctx, &api.AdminScheduleUpdateRequest{Capacity: api.NewOptInt(5), ExpectedUpdatedAt: api.NewOptString(tok)}, params)
	es = requireErr(t, err, http.StatusForbidden, "ACCESS_DENIED")
	require.Equal(t, "scope", es.Response.Error.Details.Reason.Value)
	_, err = w.UpdateAdminScheduleItem(e.ctx, &api.AdminScheduleUpdateRequest{Capacity: api.NewOptInt(5), ExpectedUpdatedAt: api.NewOptString(tok),
		Notify: notifyOf(true, false, true, false, false)}, params)
	es = requireErr(t, err, http.StatusForbidden, "ACCESS_DENIED")
	require.Equal(t, "notifications_need_staff_session", es.Response.Error.Details.Reason.Value)
	_, err = e.staff(t, "viewer@example.com", "schedule.view_all").UpdateAdminScheduleItem(e.ctx,
		&api.AdminScheduleUpdateRequest{Capacity: api.NewOptInt(5), ExpectedUpdatedAt: api.NewOptString(tok)}, params)
	requireErr(t, err, http.StatusForbidden, "ACCESS_DENIED")
	_, err = e.keyClient(t, e.otherKey).UpdateAdminScheduleItem(e.ctx, &api.AdminScheduleUpdateRequest{Capacity: api.NewOptInt(5), ExpectedUpdatedAt: api.NewOptString(tok)}, params)
	requireErr(t, err, http.StatusNotFound, "NOT_FOUND")
	unchanged()
	require.Empty(t, e.events(t, events.ClassUpdated))

	// A silent change by key: capacity, room and time.
	newStart := before.StartTime.Add(2 * time.Hour)
	res, err := w.UpdateAdminScheduleItem(e.ctx, &api.AdminScheduleUpdateRequest{ExpectedUpdatedAt: api.NewOptString(tok),
		Capacity: api.NewOptInt(6), StartTime: api.NewOptDateTime(newStart), EndTime: api.NewOptDateTime(newStart.Add(time.Hour)),
		RoomID: api.NewOptNilUUID(e.room)}, params)
	require.NoError(t, err)
	require.Equal(t, 6, res.Data.Class.Capacity)
	require.True(t, newStart.Equal(res.Data.Class.StartTime))
	require.False(t, res.Data.Notifications.Requested)
	require.NotEqual(t, tok, res.Data.Class.UpdatedAt)
	evs := e.events(t, events.ClassUpdated)
	require.Len(t, evs, 1)
	require.Equal(t, e.fullClass.String(), evs[0].Payload["class_instance_id"])
	require.True(t, e.audited(t, "schedule.update", "class:"+e.fullClass.String()))
	require.Zero(t, e.deliveries(t))
	// The old token is stale now.
	_, err = w.UpdateAdminScheduleItem(e.ctx, &api.AdminScheduleUpdateRequest{Capacity: api.NewOptInt(7), ExpectedUpdatedAt: api.NewOptString(tok)}, params)
	requireErr(t, err, http.StatusConflict, "STALE_TARGET")

	// Raising the capacity promotes the waitlisted member, who holds a clip card.
	waiting := e.db().Booking.Query().Where(booking.ClassInstanceID(e.fullClass), booking.StatusEQ(booking.StatusWaitlisted)).OnlyX(e.op)
	pt := e.db().PassType.Query().Where(passtype.Slug("ten")).OnlyX(e.op)
	pass := e.db().Pass.Create().SetMemberID(waiting.MemberID).SetPassTypeID(pt.ID).SetValidFrom(e.today.AddDate(0, 0, -1)).
		SetClipsRemaining(3).SaveX(e.op)
	e.db().Booking.UpdateOne(waiting).SetPassID(pass.ID).SetWaitlistPosition(1).ExecX(e.op)
	res, err = w.UpdateAdminScheduleItem(e.ctx, &api.AdminScheduleUpdateRequest{ExpectedUpdatedAt: api.NewOptString(res.Data.Class.UpdatedAt),
		Capacity: api.NewOptInt(7)}, params)
	require.NoError(t, err)
	require.Equal(t, 1, res.Data.PromotedBookings.Value)
	require.Equal(t, 3, res.Data.Class.BookedCount)
	require.Zero(t, res.Data.Class.WaitlistCount)
	require.Equal(t, booking.StatusConfirmed, e.db().Booking.GetX(e.op, waiting.ID).Status)
	require.Len(t, e.events(t, events.BookingPromoted), 1)

	// Staff with notifications.send may tell the clients by e-mail.
	mgr := e.staff(t, "mgr@example.com", "scheduling.manage", "notifications.send")
	_, err = mgr.UpdateAdminScheduleItem(e.ctx, &api.AdminScheduleUpdateRequest{Capacity: api.NewOptInt(8),
		ExpectedUpdatedAt: api.NewOptString(res.Data.Class.UpdatedAt), Notify: notifyOf(true, false, false, false, true),
		ClassTypeID: api.NewOptUUID(e.classType)}, params)
	require.NoError(t, err)
	res, err = mgr.UpdateAdminScheduleItem(e.ctx, &api.AdminScheduleUpdateRequest{Capacity: api.NewOptInt(9),
		ExpectedUpdatedAt: api.NewOptString(e.token(t, e.fullClass)), Notify: notifyOf(true, false, true, false, false)}, params)
	require.NoError(t, err)
	require.True(t, res.Data.Notifications.Requested)
	require.Equal(t, 3, res.Data.Notifications.Queued)
	require.Equal(t, 3, e.deliveries(t))

	// Ended and cancelled classes take no ordinary write.
	_, err = w.UpdateAdminScheduleItem(e.ctx, &api.AdminScheduleUpdateRequest{Capacity: api.NewOptInt(3),
		ExpectedUpdatedAt: api.NewOptString(e.token(t, e.past))}, api.UpdateAdminScheduleItemParams{ID: e.past})
	es = requireErr(t, err, http.StatusUnprocessableEntity, "CLASS_ENDED")
	require.Contains(t, string(es.Response.Error.Details.AdditionalProps["next_step"]), "historical_correction")
	_, err = w.UpdateAdminScheduleItem(e.ctx, &api.AdminScheduleUpdateRequest{Capacity: api.NewOptInt(3),
		ExpectedUpdatedAt: api.NewOptString(e.token(t, e.cancelledClass))}, api.UpdateAdminScheduleItemParams{ID: e.cancelledClass})
	requireErr(t, err, http.StatusUnprocessableEntity, "CLASS_CANCELLED")
	require.Equal(t, classinstance.StatusCancelled, e.class(t, e.cancelledClass).Status)
}
