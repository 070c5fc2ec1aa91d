package handlers_test

import (
	"net/http"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/stretchr/testify/require"

	"github.com/venueplatform/venue/ent"
	"github.com/venueplatform/venue/ent/classinstance"
	api "github.com/venueplatform/venue/internal/gen/api"
	"github.com/venueplatform/venue/internal/viewer"
)

var allSchedulePerms = []string{"schedule.view_all", "scheduling.manage", "scheduling.manage_history", "class.cancel",
	"notifications.send"}

// TestAdminScheduleCrossVenueStaff: a staff member of both venues acting in
// venue A, holding every schedule permission in both, meets venue B's class as
// an unknown one on every schedule operation: 404 NOT_FOUND by id, 422
// CLASS_SCOPE_MISMATCH in bulk requests, absent from the list, the dashboard
// and the calendar; and B's class is unchanged. Switching the session to B
// turns the wall around.
func TestAdminScheduleCrossVenueStaff(t *testing.T) {
	e := newSchedEnv(t)
	otherOrg := viewer.FromContext(e.otherOp).(viewer.Operator).Org
	s := e.signup(t, "both@example.com", goodPassword)
	enroll(t, e.authEnv, e.op, "both@example.com", "staff", allSchedulePerms...)
	enroll(t, e.authEnv, e.otherOp, "both@example.com", "staff", allSchedulePerms...)
	a := e.client(t, s.AccessToken)
	_, err := a.SetActiveOrganization(e.ctx, &api.ActiveOrganizationRequest{OrganizationID: e.venue.ID})
	require.NoError(t, err)
	before := e.db().ClassInstance.Query().Where(classinstance.ID(e.otherClass)).OnlyX(e.otherOp)
	otherToken := before.UpdatedAt.UTC().Format(time.RFC3339Nano)

	notFound := func(err error) {
		t.Helper()
		requireErr(t, err, http.StatusNotFound, "NOT_FOUND")
	}
	mismatch := func(err error) {
		t.Helper()
		es := requireErr(t, err, http.StatusUnprocessableEntity, "CLASS_SCOPE_MISMATCH")
		require.Contains(t, string(es.Response.Error.Details.AdditionalProps["class_ids"]), e.otherClass.String())
	}
	wall := func(c *api.Client, foreign, own uuid.UUID, token string) {
		t.Helper()
		_, err := c.GetAdminScheduleItem(e.ctx, api.GetAdminScheduleItemParams{ID: foreign})
		notFound(err)
		_, err = c.UpdateAdminScheduleItem(e.ctx, &api.AdminScheduleUpdateRequest{Capacity: api.NewOptInt(30),
			ExpectedUpdatedAt: api.NewOptString(token)}, api.UpdateAdminScheduleItemParams{ID: foreign})
		notFound(err)
		_, err = c.CancelAdminScheduleItem(e.ctx, &api.AdminScheduleCancelRequest{}, api.CancelAdminScheduleItemParams{ID: foreign})
		notFound(err)
		_, err = c.SubstituteAdminScheduleInstructor(e.ctx, &api.AdminScheduleSubstituteRequest{InstructorID: e.instructor},
			api.SubstituteAdminScheduleInstructorParams{ID: foreign})
		notFound(err)
		_, err = c.CorrectAdminScheduleHistory(e.ctx, &api.AdminScheduleHistoryRequest{Operation: api.AdminScheduleHistoryRequestOperationCOMPLETE,
			ExpectedUpdatedAt: token, ExpectedStatus: api.ClassStatusScheduled, HistoryReason: "closing the day",
			EffectiveAt: time.Now().Add(-time.Hour)}, api.CorrectAdminScheduleHistoryParams{ID: foreign})
		notFound(err)
		_, err = c.BulkEditAdminSchedule(e.ctx, &api.AdminScheduleBulkEditRequest{InstanceIds: []uuid.UUID{own, foreign},
			Set: api.NewOptAdminScheduleBulkSet(api.AdminScheduleBulkSet{Capacity: api.NewOptInt(30)})}, api.BulkEditAdminScheduleParams{})
		es := requireErr(t, err, http.StatusUnprocessableEntity, "CLASS_SCOPE_MISMATCH")
		require.Contains(t, string(es.Response.Error.Details.AdditionalProps["class_ids"]), foreign.String())
		_, err = c.BulkCancelAdminSchedule(e.ctx, &api.AdminScheduleBulkCancelRequest{InstanceIds: []uuid.UUID{own, foreign}},
			api.BulkCancelAdminScheduleParams{})
		requireErr(t, err, http.StatusUnprocessableEntity, "CLASS_SCOPE_MISMATCH")
		_, err = c.AdminScheduleNotificationAvailability(e.ctx, &api.AdminScheduleAvailabilityRequest{
			InstanceIds: []uuid.UUID{foreign}, Action: api.AdminScheduleActionRestore})
		requireErr(t, err, http.StatusUnprocessableEntity, "CLASS_SCOPE_MISMATCH")
	}
	wall(a, e.otherClass, e.fullClass, otherToken)
	_, err = a.AdminScheduleNotificationAvailability(e.ctx, &api.AdminScheduleAvailabilityRequest{
		InstanceIds: []uuid.UUID{e.fullClass, e.otherClass}, Action: api.AdminScheduleActionCancel})
	mismatch(err)

	list, err := a.ListAdminSchedule(e.ctx, api.ListAdminScheduleParams{StartDate: dateParam(e.today.AddDate(0, 0, -3)),
		EndDate: dateParam(e.today.AddDate(0, 0, 40)), IncludeHistorical: api.NewOptBool(true)})
	require.NoError(t, err)
	require.NotContains(t, rowIDs(list.Data), e.otherClass)
	require.Contains(t, rowIDs(list.Data), e.fullClass)
	cal, err := a.GetCalendar(e.ctx, api.GetCalendarParams{Start: dateParam(e.today), End: dateParam(e.today.AddDate(0, 0, 7))})
	require.NoError(t, err)
	for _, it := range cal.Data {
		require.NotEqual(t, e.otherClass, it.ID)
	}
	// Venue B's class moved to today, so the dashboard would show it if the wall leaked.
	e.db().ClassInstance.UpdateOneID(e.otherClass).SetStartTime(e.today.Add(20 * time.Hour)).
		SetEndTime(e.today.Add(21 * time.Hour)).ExecX(e.otherOp)
	dash, err := a.GetAdminDashboardToday(e.ctx, api.GetAdminDashboardTodayParams{})
	require.NoError(t, err)
	for _, c := range dash.Data.Classes {
		require.NotEqual(t, e.otherClass, c.ID)
	}

	after := e.db().ClassInstance.Query().Where(classinstance.ID(e.otherClass)).OnlyX(e.otherOp)
	require.Equal(t, before.Capacity, after.Capacity)
	require.Equal(t, classinstance.StatusScheduled, after.Status)
	require.Equal(t, before.InstructorID, after.InstructorID)

	// The same person acting in venue B sees B's class and not A's.
	_, err = a.SetActiveOrganization(e.ctx, &api.ActiveOrganizationRequest{OrganizationID: otherOrg})
	require.NoError(t, err)
	got, err := a.GetAdminScheduleItem(e.ctx, api.GetAdminScheduleItemParams{ID: e.otherClass})
	require.NoError(t, err)
	require.Equal(t, e.otherClass, got.Data.ID)
	wall(a, e.fullClass, e.otherClass, e.token(t, e.fullClass))
	require.Equal(t, 2, e.class(t, e.fullClass).Capacity)
	require.Equal(t, classinstance.StatusScheduled, e.class(t, e.fullClass).Status)
}

// TestAdminScheduleBulkLimits: the limits' upper bounds are accepted: 50
// classes in a bulk edit and a bulk cancel, 200 in an availability request
// (one more is 400, see TestAdminScheduleBulk and
// TestAdminScheduleAvailability).
func TestAdminScheduleBulkLimits(t *testing.T) {
	e := newSchedEnv(t)
	day := e.today.AddDate(0, 0, 3)
	creates := make([]*ent.ClassInstanceCreate, 200)
	for i := range creates {
		start := day.Add(time.Duration(i) * time.Minute)
		creates[i] = e.db().ClassInstance.Create().SetClassTypeID(e.classType).SetStartTime(start).
			SetEndTime(start.Add(time.Hour)).SetCapacity(5)
	}
	classes := e.db().ClassInstance.CreateBulk(creates...).SaveX(e.op)
	ids := make([]uuid.UUID, len(classes))
	for i, c := range classes {
		ids[i] = c.ID
	}
	w := e.keyClient(t, e.writeKey)

	av, err := w.AdminScheduleNotificationAvailability(e.ctx, &api.AdminScheduleAvailabilityRequest{InstanceIds: ids,
		Action: api.AdminScheduleActionEdit})
	require.NoError(t, err)
	require.Len(t, av.Data.Items, 200)
	require.Equal(t, "no_recipients", av.Data.Items[0].Availability.Clients.Email.ReasonCode.Value)

	res, err := w.BulkEditAdminSchedule(e.ctx, &api.AdminScheduleBulkEditRequest{InstanceIds: ids[:50],
		Set: api.NewOptAdminScheduleBulkSet(api.AdminScheduleBulkSet{Capacity: api.NewOptInt(12)})}, api.BulkEditAdminScheduleParams{})
	require.NoError(t, err)
	require.Equal(t, 50, res.Data.Succeeded)
	require.Len(t, res.Data.Results, 50)
	require.Equal(t, 12, e.class(t, ids[49]).Capacity)
	require.Equal(t, 5, e.class(t, ids[50]).Capacity)

	res, err = w.BulkCancelAdminSchedule(e.ctx, &api.AdminScheduleBulkCancelRequest{InstanceIds: ids[50:100]},
		api.BulkCancelAdminScheduleParams{})
	require.NoError(t, err)
	require.Equal(t, 50, res.Data.Succeeded)
	require.Equal(t, classinstance.StatusCancelled, e.class(t, ids[99]).Status)
	require.Equal(t, 50, e.db().ClassInstance.Query().Where(classinstance.StatusEQ(classinstance.StatusCancelled),
		classinstance.IDIn(ids...)).CountX(e.op))
	_, err = w.BulkCancelAdminSchedule(e.ctx, &api.AdminScheduleBulkCancelRequest{InstanceIds: ids[100:151]},
		api.BulkCancelAdminScheduleParams{})
	requireErr(t, err, http.StatusBadRequest, "VALIDATION_ERROR")
	require.Equal(t, classinstance.StatusScheduled, e.class(t, ids[100]).Status)
}

// TestAdminScheduleBulkTimezone: a bulk edit's clock times are read in the
// time zone the request names (else the venue's); an unknown zone is 400
// naming time.timezone and changes nothing.
func TestAdminScheduleBulkTimezone(t *testing.T) {
	e := newSchedEnv(t)
	w := e.keyClient(t, e.writeKey)
	before := e.class(t, e.onlineClass)
	_, err := w.BulkEditAdminSchedule(e.ctx, &api.AdminScheduleBulkEditRequest{InstanceIds: []uuid.UUID{e.onlineClass},
		Time: api.NewOptAdminScheduleBulkTime(api.AdminScheduleBulkTime{Start: "09:00", End: "10:00",
			Timezone: api.NewOptString("Mars/Olympus_Mons")})}, api.BulkEditAdminScheduleParams{})
	es := requireErr(t, err, http.StatusBadRequest, "VALIDATION_ERROR")
	require.Equal(t, "time.timezone", es.Response.Error.Details.Parameter.Value)
	require.True(t, before.StartTime.Equal(e.class(t, e.onlineClass).StartTime))

	ny, err := time.LoadLocation("America/New_York")
	require.NoError(t, err)
	res, err := w.BulkEditAdminSchedule(e.ctx, &api.AdminScheduleBulkEditRequest{InstanceIds: []uuid.UUID{e.onlineClass},
		Time: api.NewOptAdminScheduleBulkTime(api.AdminScheduleBulkTime{Start: "09:00", End: "10:00",
			Timezone: api.NewOptString("America/New_York")})}, api.BulkEditAdminScheduleParams{})
	require.NoError(t, err)
	require.Equal(t, 1, res.Data.Succeeded)
	start := e.class(t, e.onlineClass).StartTime.In(ny)
	require.Equal(t, 9, start.Hour())
	require.Zero(t, start.Minute())
	require.Equal(t, time.Hour, e.class(t, e.onlineClass).EndTime.Sub(e.class(t, e.onlineClass).StartTime))
	require.NotEqual(t, 9, e.class(t, e.onlineClass).StartTime.In(e.loc).Hour(), "not the venue's 09:00")
}
