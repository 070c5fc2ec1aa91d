package handlers_test

import (
	"net/http"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/stretchr/testify/require"

	api "github.com/venueplatform/venue/internal/gen/api"
)

// TestAdminScheduleAccess: every schedule operation refuses staff without a
// schedule permission, a session without an active organization, and (for
// writes) a key without write:schedule; nothing changes.
func TestAdminScheduleAccess(t *testing.T) {
	e := newSchedEnv(t)
	clerk := e.staff(t, "clerk@example.com", "pos.sell", "notifications.send")
	member := e.client(t, e.signup(t, "member@example.com", goodPassword).AccessToken)
	readKey := e.keyClient(t, e.studio.key)
	tok := e.token(t, e.fullClass)
	ids := []uuid.UUID{e.fullClass}
	setCap := api.NewOptAdminScheduleBulkSet(api.AdminScheduleBulkSet{Capacity: api.NewOptInt(5)})
	calls := map[string]func(c *api.Client) error{
		"list": func(c *api.Client) error {
			_, err := c.ListAdminSchedule(e.ctx, api.ListAdminScheduleParams{})
			return err
		},
		"item": func(c *api.Client) error {
			_, err := c.GetAdminScheduleItem(e.ctx, api.GetAdminScheduleItemParams{ID: e.fullClass})
			return err
		},
		"patch": func(c *api.Client) error {
			_, err := c.UpdateAdminScheduleItem(e.ctx, &api.AdminScheduleUpdateRequest{Capacity: api.NewOptInt(5),
				ExpectedUpdatedAt: api.NewOptString(tok)}, api.UpdateAdminScheduleItemParams{ID: e.fullClass})
			return err
		},
		"cancel": func(c *api.Client) error {
			_, err := c.CancelAdminScheduleItem(e.ctx, &api.AdminScheduleCancelRequest{}, api.CancelAdminScheduleItemParams{ID: e.fullClass})
			return err
		},
		"substitute": func(c *api.Client) error {
			_, err := c.SubstituteAdminScheduleInstructor(e.ctx, &api.AdminScheduleSubstituteRequest{InstructorID: e.instructor},
				api.SubstituteAdminScheduleInstructorParams{ID: e.fullClass})
			return err
		},
		"bulk-edit": func(c *api.Client) error {
			_, err := c.BulkEditAdminSchedule(e.ctx, &api.AdminScheduleBulkEditRequest{InstanceIds: ids, Set: setCap}, api.BulkEditAdminScheduleParams{})
			return err
		},
		"bulk-cancel": func(c *api.Client) error {
			_, err := c.BulkCancelAdminSchedule(e.ctx, &api.AdminScheduleBulkCancelRequest{InstanceIds: ids}, api.BulkCancelAdminScheduleParams{})
			return err
		},
		"availability": func(c *api.Client) error {
			_, err := c.AdminScheduleNotificationAvailability(e.ctx, &api.AdminScheduleAvailabilityRequest{InstanceIds: ids, Action: api.AdminScheduleActionEdit})
			return err
		},
		"history": func(c *api.Client) error {
			_, err := c.CorrectAdminScheduleHistory(e.ctx, &api.AdminScheduleHistoryRequest{Operation: api.AdminScheduleHistoryRequestOperationCOMPLETE,
				ExpectedUpdatedAt: e.token(t, e.past), ExpectedStatus: api.ClassStatusScheduled, HistoryReason: "closing the record",
				EffectiveAt: time.Now().Add(-time.Minute)}, api.CorrectAdminScheduleHistoryParams{ID: e.past})
			return err
		},
		"dashboard": func(c *api.Client) error {
			_, err := c.GetAdminDashboardToday(e.ctx, api.GetAdminDashboardTodayParams{})
			return err
		},
		"calendar": func(c *api.Client) error { _, err := c.GetCalendar(e.ctx, api.GetCalendarParams{}); return err },
	}
	for name, call := range calls {
		es := requireErr(t, call(clerk), http.StatusForbidden, "ACCESS_DENIED")
		require.Equal(t, "permission", es.Response.Error.Details.Reason.Value, name)
		es = requireErr(t, call(member), http.StatusForbidden, "ACCESS_DENIED")
		require.Equal(t, "no_active_organization", es.Response.Error.Details.Reason.Value, name)
	}
	for _, name := range []string{"patch", "cancel", "substitute", "bulk-edit", "bulk-cancel"} {
		es := requireErr(t, calls[name](readKey), http.StatusForbidden, "ACCESS_DENIED")
		require.Equal(t, "scope", es.Response.Error.Details.Reason.Value, name)
	}
	for _, path := range []string{"/admin/schedule", "/admin/dashboard/today", "/calendar"} {
		res, err := http.Get(e.url + "/api/v1" + path)
		require.NoError(t, err)
		require.NoError(t, res.Body.Close())
		require.Equal(t, http.StatusUnauthorized, res.StatusCode, path)
	}
	c := e.class(t, e.fullClass)
	require.Equal(t, 2, c.Capacity)
	require.Equal(t, "scheduled", string(c.Status))
	require.Equal(t, "scheduled", string(e.class(t, e.past).Status))
	require.Empty(t, e.events(t, "class.updated"))
}
