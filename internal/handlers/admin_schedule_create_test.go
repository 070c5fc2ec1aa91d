package handlers_test

import (
	"net/http"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	api "github.com/venueplatform/venue/internal/gen/api"
)

// TestStaffCreatesClasses: staff with scheduling.manage create one class and
// a weekly series across the autumn daylight-saving change (same local
// time every week); bad ranges, another venue's class type and staff
// without the permission change nothing; each class is audited.
func TestStaffCreatesClasses(t *testing.T) {
	e := newSchedEnv(t)
	ctx := e.ctx
	staff := e.staff(t, "planner@studio.example", "scheduling.manage")
	plain := e.staff(t, "viewer@studio.example", "schedule.view_all")
	before := e.db().ClassInstance.Query().CountX(e.op)

	start := e.today.AddDate(0, 0, 2).Add(18 * time.Hour)
	one, err := staff.CreateAdminScheduleClasses(ctx, &api.AdminScheduleCreateRequest{ClassTypeID: e.classType,
		InstructorID: api.NewOptUUID(e.instructor), StartTime: start, EndTime: start.Add(time.Hour), Capacity: 12},
		api.CreateAdminScheduleClassesParams{})
	require.NoError(t, err)
	require.Len(t, one.Data, 1)
	require.Equal(t, 12, one.Data[0].Capacity)
	require.True(t, e.audited(t, "schedule.create", "class:"+one.Data[0].ID.String()))

	// A weekly series from a Monday in October 2027 (UTC+2) to one in November (UTC+1).
	loc := e.loc
	first := time.Date(2027, time.October, 18, 7, 30, 0, 0, loc)
	until := time.Date(2027, time.November, 8, 0, 0, 0, 0, time.UTC)
	series, err := staff.CreateAdminScheduleClasses(ctx, &api.AdminScheduleCreateRequest{ClassTypeID: e.classType,
		StartTime: first, EndTime: first.Add(75 * time.Minute), Capacity: 8, RepeatWeeklyUntil: api.NewOptDate(until)},
		api.CreateAdminScheduleClassesParams{})
	require.NoError(t, err)
	require.Len(t, series.Data, 4)
	for i, row := range series.Data {
		local := row.StartTime.In(loc)
		require.Equal(t, 7, local.Hour(), "class %d keeps 07:30 local", i)
		require.Equal(t, 30, local.Minute())
		require.Equal(t, 75*time.Minute, row.EndTime.Sub(row.StartTime))
	}
	require.Equal(t, "05:30", series.Data[0].StartTime.UTC().Format("15:04"))
	require.Equal(t, "06:30", series.Data[3].StartTime.UTC().Format("15:04"))

	_, err = staff.CreateAdminScheduleClasses(ctx, &api.AdminScheduleCreateRequest{ClassTypeID: e.classType,
		StartTime: start, EndTime: start.Add(-time.Hour), Capacity: 5}, api.CreateAdminScheduleClassesParams{})
	requireErr(t, err, http.StatusBadRequest, "INVALID_RANGE")
	_, err = staff.CreateAdminScheduleClasses(ctx, &api.AdminScheduleCreateRequest{ClassTypeID: e.classType,
		StartTime: start, EndTime: start.Add(time.Hour), Capacity: 5,
		RepeatWeeklyUntil: api.NewOptDate(start.AddDate(2, 0, 0))}, api.CreateAdminScheduleClassesParams{})
	requireErr(t, err, http.StatusBadRequest, "VALIDATION_ERROR")
	other := e.db().ClassInstance.GetX(e.otherOp, e.otherClass)
	_, err = staff.CreateAdminScheduleClasses(ctx, &api.AdminScheduleCreateRequest{ClassTypeID: other.ClassTypeID,
		StartTime: start, EndTime: start.Add(time.Hour), Capacity: 5}, api.CreateAdminScheduleClassesParams{})
	requireErr(t, err, http.StatusNotFound, "NOT_FOUND")
	_, err = plain.CreateAdminScheduleClasses(ctx, &api.AdminScheduleCreateRequest{ClassTypeID: e.classType,
		StartTime: start, EndTime: start.Add(time.Hour), Capacity: 5}, api.CreateAdminScheduleClassesParams{})
	requireErr(t, err, http.StatusForbidden, "ACCESS_DENIED")
	require.Equal(t, before+5, e.db().ClassInstance.Query().CountX(e.op))
}
