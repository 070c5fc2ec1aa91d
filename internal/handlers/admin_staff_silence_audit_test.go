package handlers_test

import (
	"net/http"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/stretchr/testify/require"

	"github.com/venueplatform/venue/ent"
	"github.com/venueplatform/venue/ent/auditlog"
	api "github.com/venueplatform/venue/internal/gen/api"
)

// TestStaffScheduleSilentByDefault: no schedule write creates a notification
// delivery (pending or skipped) unless its request names an audience; asking
// needs a staff session holding notifications.send (an API key is 403
// notifications_need_staff_session, a session without the permission 403
// permission) and a refused request changes and records nothing. Each write
// leaves exactly one audit entry per class it changed, marked bulk for the
// bulk operations, and none for a failed row.
func TestStaffScheduleSilentByDefault(t *testing.T) {
	e := newSchedEnv(t)
	sub := e.db().Instructor.Create().SetFirstName("Sofie").SetEmail("sofie@example.com").SaveX(e.op)
	outbox := func() int { return e.db().NotificationDelivery.Query().CountX(e.op) }
	entries := func(action string, class uuid.UUID) []*ent.AuditLog {
		return e.db().AuditLog.Query().Where(auditlog.Action(action), auditlog.Target("class:"+class.String())).AllX(e.op)
	}
	tell := notifyOf(true, false, true, false, false)
	key := e.keyClient(t, e.writeKey)
	quiet := e.staff(t, "quiet@example.com", "scheduling.manage", "class.cancel")
	refused := func(c *api.Client, reason string) {
		t.Helper()
		calls := []error{}
		_, err := c.UpdateAdminScheduleItem(e.ctx, &api.AdminScheduleUpdateRequest{Capacity: api.NewOptInt(12),
			ExpectedUpdatedAt: api.NewOptString(e.token(t, e.onlineClass)), Notify: tell}, api.UpdateAdminScheduleItemParams{ID: e.onlineClass})
		calls = append(calls, err)
		_, err = c.CancelAdminScheduleItem(e.ctx, &api.AdminScheduleCancelRequest{Notify: tell}, api.CancelAdminScheduleItemParams{ID: e.onlineClass})
		calls = append(calls, err)
		_, err = c.SubstituteAdminScheduleInstructor(e.ctx, &api.AdminScheduleSubstituteRequest{InstructorID: sub.ID,
			Notify: notifyOf(false, true, true, false, false)}, api.SubstituteAdminScheduleInstructorParams{ID: e.fullClass})
		calls = append(calls, err)
		_, err = c.BulkEditAdminSchedule(e.ctx, &api.AdminScheduleBulkEditRequest{InstanceIds: []uuid.UUID{e.onlineClass},
			Set: api.NewOptAdminScheduleBulkSet(api.AdminScheduleBulkSet{Capacity: api.NewOptInt(12)}), Notify: tell}, api.BulkEditAdminScheduleParams{})
		calls = append(calls, err)
		_, err = c.BulkCancelAdminSchedule(e.ctx, &api.AdminScheduleBulkCancelRequest{InstanceIds: []uuid.UUID{e.onlineClass}, Notify: tell},
			api.BulkCancelAdminScheduleParams{})
		calls = append(calls, err)
		for _, err := range calls {
			es := requireErr(t, err, http.StatusForbidden, "ACCESS_DENIED")
			require.Equal(t, reason, es.Response.Error.Details.Reason.Value)
		}
	}
	refused(key, "notifications_need_staff_session")
	refused(quiet, "permission")
	require.Zero(t, outbox())
	require.Zero(t, e.db().AuditLog.Query().CountX(e.op), "refused requests record nothing")
	require.Equal(t, 10, e.class(t, e.onlineClass).Capacity)
	require.Equal(t, e.instructor, *e.class(t, e.fullClass).InstructorID)

	// A sender who does not ask sends nothing; channels without an audience ask nothing.
	sender := e.staff(t, "sender@example.com", "scheduling.manage", "class.cancel", "scheduling.manage_history", "notifications.send")
	_, err := sender.UpdateAdminScheduleItem(e.ctx, &api.AdminScheduleUpdateRequest{Capacity: api.NewOptInt(12),
		ExpectedUpdatedAt: api.NewOptString(e.token(t, e.onlineClass)), Notify: notifyOf(false, false, true, true, true)},
		api.UpdateAdminScheduleItemParams{ID: e.onlineClass})
	require.NoError(t, err)
	_, err = sender.SubstituteAdminScheduleInstructor(e.ctx, &api.AdminScheduleSubstituteRequest{InstructorID: sub.ID},
		api.SubstituteAdminScheduleInstructorParams{ID: e.fullClass})
	require.NoError(t, err)
	bulk, err := sender.BulkEditAdminSchedule(e.ctx, &api.AdminScheduleBulkEditRequest{InstanceIds: []uuid.UUID{e.unlisted, e.fullClass},
		Set: api.NewOptAdminScheduleBulkSet(api.AdminScheduleBulkSet{Capacity: api.NewOptInt(1)})}, api.BulkEditAdminScheduleParams{})
	require.NoError(t, err)
	require.Equal(t, 1, bulk.Data.Failed, "the full class holds two seats")
	_, err = sender.BulkCancelAdminSchedule(e.ctx, &api.AdminScheduleBulkCancelRequest{InstanceIds: []uuid.UUID{e.far}},
		api.BulkCancelAdminScheduleParams{})
	require.NoError(t, err)
	_, err = sender.CancelAdminScheduleItem(e.ctx, &api.AdminScheduleCancelRequest{}, api.CancelAdminScheduleItemParams{ID: e.onlineClass})
	require.NoError(t, err)
	_, err = sender.CorrectAdminScheduleHistory(e.ctx, &api.AdminScheduleHistoryRequest{Operation: api.AdminScheduleHistoryRequestOperationCANCEL,
		ExpectedUpdatedAt: e.token(t, e.past), ExpectedStatus: api.ClassStatusScheduled, HistoryReason: "It did not run",
		EffectiveAt: time.Now().Add(-time.Hour), Notify: tell}, api.CorrectAdminScheduleHistoryParams{ID: e.past})
	require.NoError(t, err)
	require.Zero(t, outbox(), "nothing asked, nothing queued, not even skipped rows")

	// One audit entry per change.
	require.Len(t, entries("schedule.update", e.onlineClass), 1)
	require.Len(t, entries("schedule.substitute", e.fullClass), 1)
	up := entries("schedule.update", e.unlisted)
	require.Len(t, up, 1)
	require.Equal(t, true, up[0].Details["bulk"])
	require.Empty(t, entries("schedule.update", e.fullClass), "a failed row records nothing")
	bc := entries("schedule.cancel", e.far)
	require.Len(t, bc, 1)
	require.Equal(t, true, bc[0].Details["bulk"])
	single := entries("schedule.cancel", e.onlineClass)
	require.Len(t, single, 1)
	require.Nil(t, single[0].Details["bulk"])
	require.Len(t, entries("schedule.history.cancel", e.past), 1)
	for _, en := range append(up, single...) {
		require.Equal(t, "user", string(en.ActorKind))
		require.NotNil(t, en.UserID, "the staff member is named")
	}

	// The control: asking does queue.
	res, err := sender.CancelAdminScheduleItem(e.ctx, &api.AdminScheduleCancelRequest{Notify: tell}, api.CancelAdminScheduleItemParams{ID: e.fullClass})
	require.NoError(t, err)
	require.True(t, res.Data.Notifications.Requested)
	require.Positive(t, outbox())
}

// TestStaffDeskSilentAndAudited: front-desk writes send nothing unless asked
// (attendance correction's notify and contact need notifications.send), and
// each writes exactly one audit entry: check-in, attendance correction,
// funding reassignment and contact.
func TestStaffDeskSilentAndAudited(t *testing.T) {
	e := newDeskEnv(t)
	outbox := func() int { return e.db().NotificationDelivery.Query().CountX(e.op) }
	count := func(action, target string) int {
		return e.db().AuditLog.Query().Where(auditlog.Action(action), auditlog.Target(target)).CountX(e.op)
	}
	desk := e.staff(t, "desk@desk.example", "booking.checkin", "bookings.manage", "members.contact")
	booking := "booking:" + e.confirmed.String()

	noisy := attendanceReq("no-show", e.token(t, e.now, e.second))
	noisy.Notify = api.NewOptCheckinNotify(api.CheckinNotify{Channels: api.NewOptCheckinNotifyChannels(api.CheckinNotifyChannels{Email: api.NewOptBool(true)})})
	_, err := desk.CorrectAdminBookingAttendance(e.ctx, noisy, api.CorrectAdminBookingAttendanceParams{ClassInstanceId: e.now, BookingId: e.second})
	es := requireDeskErr(t, err, http.StatusForbidden, "ACCESS_DENIED")
	require.Equal(t, "permission", es.Response.Error.Details.Reason.Value)
	_, err = desk.ContactAdminCheckinClass(e.ctx, &api.CheckinContactRequest{Channel: "email", BookingIds: []uuid.UUID{e.second},
		Subject: api.NewOptString("Running late"), Message: "Running late"}, api.ContactAdminCheckinClassParams{ClassInstanceId: e.now})
	requireDeskErr(t, err, http.StatusForbidden, "ACCESS_DENIED")
	require.Zero(t, outbox())
	require.Zero(t, e.db().AuditLog.Query().CountX(e.op))

	_, err = desk.CheckInAdminBooking(e.ctx, api.OptCheckinCheckInRequest{}, api.CheckInAdminBookingParams{ClassInstanceId: e.now, BookingId: e.confirmed})
	require.NoError(t, err)
	require.Equal(t, 1, count("checkin.check_in", booking))
	_, err = desk.CorrectAdminBookingAttendance(e.ctx, attendanceReq("no-show", e.token(t, e.now, e.confirmed)),
		api.CorrectAdminBookingAttendanceParams{ClassInstanceId: e.now, BookingId: e.confirmed})
	require.NoError(t, err)
	require.Equal(t, 1, count("checkin.attendance.correct", booking))
	r := &api.CheckinReassignRequest{NewPassID: e.passB, ExpectedUpdatedAt: e.token(t, e.now, e.confirmed)}
	r.ExpectedOldPassID.SetTo(e.passA)
	_, err = desk.ReassignAdminBookingFunding(e.ctx, r, api.ReassignAdminBookingFundingParams{ClassInstanceId: e.now, BookingId: e.confirmed})
	require.NoError(t, err)
	require.Equal(t, 1, count("checkin.funding.reassign", booking))
	require.Zero(t, outbox(), "no write asked to tell anyone")

	sender := e.staff(t, "sender@desk.example", "members.contact", "notifications.send")
	_, err = sender.ContactAdminCheckinClass(e.ctx, &api.CheckinContactRequest{Channel: "email", BookingIds: []uuid.UUID{e.second},
		Subject: api.NewOptString("Running late"), Message: "Running late"}, api.ContactAdminCheckinClassParams{ClassInstanceId: e.now})
	require.NoError(t, err)
	require.Equal(t, 1, count("checkin.contact", "class:"+e.now.String()))
	require.Equal(t, 1, outbox())
	require.Equal(t, 4, e.db().AuditLog.Query().CountX(e.op), "one entry per write, nothing else")
}
