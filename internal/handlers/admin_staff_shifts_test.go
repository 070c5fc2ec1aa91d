package handlers_test

import (
	"net/http"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/stretchr/testify/require"

	api "github.com/venueplatform/venue/internal/gen/api"
)

// TestStaffShiftsInCalendar: staff add a shift of an instructor, which
// /calendar serves as kind shift beside the classes; zero and negative
// durations, an overlapping shift of the same person, another venue's
// person and staff without the permission are refused with nothing saved;
// a deleted shift leaves the feed.
func TestStaffShiftsInCalendar(t *testing.T) {
	e := newSchedEnv(t)
	ctx := e.ctx
	staff := e.staff(t, "manager@studio.example", "bookings.manage", "staff.view", "schedule.view_all")
	plain := e.staff(t, "desk@studio.example")
	day := e.today.AddDate(0, 0, 2)
	at := func(h int) time.Time { return time.Date(day.Year(), day.Month(), day.Day(), h, 0, 0, 0, e.loc) }
	create := func(c *api.Client, who uuid.UUID, from, to time.Time) (*api.StaffShiftResponse, error) {
		return c.CreateStaffShift(ctx, &api.StaffShiftCreateRequest{StaffID: who, StartTime: from, EndTime: to,
			Note: api.NewOptString("front desk")}, api.CreateStaffShiftParams{})
	}
	sh, err := create(staff, e.instructor, at(8), at(16))
	require.NoError(t, err)
	require.Equal(t, e.instructor, sh.Data.Staff.ID)

	for _, bad := range [][2]time.Time{{at(10), at(10)}, {at(12), at(11)}, {at(0), at(0).Add(25 * time.Hour)}} {
		_, err = create(staff, e.instructor, bad[0], bad[1])
		requireErr(t, err, http.StatusBadRequest, "VALIDATION_ERROR")
	}
	_, err = create(staff, e.instructor, at(15), at(18))
	requireErr(t, err, http.StatusConflict, "SHIFT_OVERLAP")
	_, err = create(staff, e.otherInstr, at(8), at(9))
	requireErr(t, err, http.StatusNotFound, "NOT_FOUND")
	_, err = create(plain, e.instructor, at(18), at(19))
	requireErr(t, err, http.StatusForbidden, "ACCESS_DENIED")
	require.Equal(t, 1, e.db().StaffShift.Query().CountX(e.op))

	cal, err := staff.GetCalendar(ctx, api.GetCalendarParams{Start: dateParam(day), End: dateParam(day)})
	require.NoError(t, err)
	require.Contains(t, cal.Meta.Kinds, "shift")
	var found *api.CalendarItem
	for i, it := range cal.Data {
		if it.Kind == "shift" {
			found = &cal.Data[i]
		}
	}
	require.NotNil(t, found)
	require.Equal(t, sh.Data.ID, found.ID)
	require.True(t, found.StartTime.Equal(at(8)))
	require.Equal(t, "front desk", found.Shift.Value.Note)

	list, err := staff.ListStaffShifts(ctx, api.ListStaffShiftsParams{From: at(0), To: at(23)})
	require.NoError(t, err)
	require.Len(t, list.Data, 1)
	require.NoError(t, staff.DeleteStaffShift(ctx, api.DeleteStaffShiftParams{ShiftId: sh.Data.ID}))
	list, err = staff.ListStaffShifts(ctx, api.ListStaffShiftsParams{From: at(0), To: at(23)})
	require.NoError(t, err)
	require.Empty(t, list.Data)
}
