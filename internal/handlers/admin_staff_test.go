package handlers_test

import (
	"net/http"
	"testing"

	"github.com/stretchr/testify/require"

	api "github.com/venueplatform/venue/internal/gen/api"
)

// TestStaffDirectory: staff.view lists the venue's staff by name with their
// active service assignments and working hours, filters by the active flag,
// shows nothing of another venue, and refuses staff without the
// permission.
func TestStaffDirectory(t *testing.T) {
	e := newSchedEnv(t)
	ctx := e.ctx
	svc := e.db().Service.Create().SetName("Facial").SetSlug("facial").SetDurationMinutes(60).
		SetPriceMinor(60000).SetCurrency("DKK").SaveX(e.op)
	other := e.db().Service.Create().SetName("Massage").SetSlug("massage").SetDurationMinutes(60).
		SetPriceMinor(45000).SetCurrency("DKK").SaveX(e.op)
	e.db().ServiceProvider.Create().SetServiceID(svc.ID).SetProviderID(e.instructor).ExecX(e.op)
	e.db().ServiceProvider.Create().SetServiceID(other.ID).SetProviderID(e.instructor).SetIsActive(false).ExecX(e.op)
	e.db().ProviderHours.Create().SetProviderID(e.instructor).SetWeekday(1).SetStartMinute(9 * 60).SetEndMinute(17 * 60).ExecX(e.op)
	gone := e.db().Instructor.Create().SetFirstName("Anders").SetLastName("Berg").SetEmail("anders@studio.example").
		SetActive(false).SaveX(e.op)

	viewer := e.staff(t, "desk@studio.example", "staff.view")
	all, err := viewer.ListStaffDirectory(ctx, api.ListStaffDirectoryParams{})
	require.NoError(t, err)
	require.GreaterOrEqual(t, len(all.Data), 2)
	require.Equal(t, len(all.Data), all.Meta.Total)
	require.False(t, all.Meta.Truncated)
	byID := map[string]api.StaffDirectoryEntry{}
	for i, s := range all.Data {
		byID[s.ID.String()] = s
		if i > 0 {
			prev := all.Data[i-1]
			require.LessOrEqual(t, prev.FirstName+" "+prev.LastName, s.FirstName+" "+s.LastName, "ordered by name")
		}
	}
	mette := byID[e.instructor.String()]
	require.Equal(t, "Mette Hansen", mette.Name)
	require.Equal(t, 1, mette.ServiceCount, "the inactive assignment is not counted")
	require.True(t, mette.HasWorkingHours)
	require.True(t, mette.Active)
	anders := byID[gone.ID.String()]
	require.Equal(t, "Anders Berg", anders.Name)
	require.Equal(t, "anders@studio.example", anders.Email)
	require.False(t, anders.Active)
	require.Zero(t, anders.ServiceCount)
	require.False(t, anders.HasWorkingHours)

	active, err := viewer.ListStaffDirectory(ctx, api.ListStaffDirectoryParams{Active: api.NewOptBool(true)})
	require.NoError(t, err)
	require.Len(t, active.Data, len(all.Data)-1)
	for _, s := range active.Data {
		require.True(t, s.Active)
		require.NotEqual(t, "Olga", s.FirstName, "another venue's staff")
	}
	inactive, err := viewer.ListStaffDirectory(ctx, api.ListStaffDirectoryParams{Active: api.NewOptBool(false)})
	require.NoError(t, err)
	require.Len(t, inactive.Data, 1)
	require.Equal(t, gone.ID, inactive.Data[0].ID)

	_, err = e.staff(t, "clerk@studio.example", "pos.sell").ListStaffDirectory(ctx, api.ListStaffDirectoryParams{})
	requireErr(t, err, http.StatusForbidden, "ACCESS_DENIED")
}
