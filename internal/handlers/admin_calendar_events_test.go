package handlers_test

import (
	"net/http"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/stretchr/testify/require"

	api "github.com/venueplatform/venue/internal/gen/api"
)

// TestCalendarEvents: staff add a private event, a stream, a room rental and
// maintenance; /calendar serves them beside classes (a cancelled one with its
// status, maintenance begun before the range because it overlaps it), with
// location and room names, to keys and staff alike and never to another
// venue; bad input changes nothing; a retry with the same key replays.
func TestCalendarEvents(t *testing.T) {
	e := newSchedEnv(t)
	ctx := e.ctx
	staff := e.staff(t, "planner@studio.example", "scheduling.manage", "schedule.view_all")
	day := e.today.AddDate(0, 0, 2)
	at := func(h int) time.Time { return day.Add(time.Duration(h) * time.Hour) }
	create := func(c *api.Client, req api.CalendarEventCreateRequest, key string) (api.CalendarEventView, error) {
		p := api.CreateCalendarEventParams{}
		if key != "" {
			p.IdempotencyKey = api.NewOptString(key)
		}
		res, err := c.CreateCalendarEvent(ctx, &req, p)
		if err != nil {
			return api.CalendarEventView{}, err
		}
		return res.Data, nil
	}
	private, err := create(staff, api.CalendarEventCreateRequest{Kind: "private_event", Title: "Birthday flow", StartTime: at(18),
		EndTime: at(20), RoomID: api.NewOptUUID(e.room), Notes: api.NewOptString("12 guests")}, "evt-1")
	require.NoError(t, err)
	require.Equal(t, api.NewNilUUID(e.location), private.LocationID, "a room alone sets its location")
	again, err := create(staff, api.CalendarEventCreateRequest{Kind: "private_event", Title: "Birthday flow", StartTime: at(18),
		EndTime: at(20), RoomID: api.NewOptUUID(e.room), Notes: api.NewOptString("12 guests")}, "evt-1")
	require.NoError(t, err)
	require.Equal(t, private.ID, again.ID, "the same Idempotency-Key replays")
	writer := e.keyClient(t, e.writeKey)
	stream, err := create(writer, api.CalendarEventCreateRequest{Kind: "stream", Title: "Live yin", StartTime: at(7), EndTime: at(8)}, "")
	require.NoError(t, err)
	require.Contains(t, stream.CreatedBy, "api_key:")
	rental, err := create(staff, api.CalendarEventCreateRequest{Kind: "room_rental", Title: "Physio rental", StartTime: at(12),
		EndTime: at(14), LocationID: api.NewOptUUID(e.location), RoomID: api.NewOptUUID(e.room)}, "")
	require.NoError(t, err)
	// Maintenance from before the range's start into it.
	maint, err := create(staff, api.CalendarEventCreateRequest{Kind: "maintenance", Title: "Floor sanding",
		StartTime: e.today.Add(-6 * time.Hour), EndTime: e.today.Add(6 * time.Hour)}, "")
	require.NoError(t, err)
	res, err := staff.CancelCalendarEvent(ctx, api.CancelCalendarEventParams{ID: rental.ID})
	require.NoError(t, err)
	require.Equal(t, api.CalendarEventViewStatusCancelled, res.Data.Status)

	for name, c := range map[string]*api.Client{"api key": e.keyClient(t, e.studio.key), "staff": staff} {
		got, err := c.GetCalendar(ctx, api.GetCalendarParams{})
		require.NoError(t, err, name)
		byID := map[uuid.UUID]api.CalendarItem{}
		for _, it := range got.Data {
			byID[it.ID] = it
		}
		p := byID[private.ID]
		require.Equal(t, "private_event", p.Kind, name)
		require.Equal(t, "Birthday flow", p.Title)
		require.Equal(t, "scheduled", p.Status)
		require.Equal(t, "Vesterbro", p.Location.Value.Name)
		require.Equal(t, "Studio 1", p.Room.Value.Name)
		require.Equal(t, "12 guests", p.Event.Value.Notes)
		require.Equal(t, "stream", byID[stream.ID].Kind)
		require.Equal(t, "cancelled", byID[rental.ID].Status)
		require.Equal(t, "maintenance", byID[maint.ID].Kind)
		require.True(t, byID[maint.ID].StartTime.Before(e.today))
		require.Len(t, byID, len(got.Data), "no duplicates")
	}
	other, err := e.keyClient(t, e.otherKey).GetCalendar(ctx, api.GetCalendarParams{})
	require.NoError(t, err)
	for _, it := range other.Data {
		require.NotEqual(t, private.ID, it.ID)
	}

	// Refusals change nothing.
	count := func() int { return e.db().CalendarEvent.Query().CountX(e.op) }
	before := count()
	_, err = create(staff, api.CalendarEventCreateRequest{Kind: "stream", Title: "Backwards", StartTime: at(9), EndTime: at(8)}, "")
	requireErr(t, err, http.StatusBadRequest, "INVALID_RANGE")
	_, err = create(staff, api.CalendarEventCreateRequest{Kind: "stream", Title: "Too long", StartTime: at(9), EndTime: at(9).AddDate(0, 0, 32)}, "")
	requireErr(t, err, http.StatusBadRequest, "INVALID_RANGE")
	_, err = create(staff, api.CalendarEventCreateRequest{Kind: "stream", Title: "Nowhere", StartTime: at(9), EndTime: at(10),
		RoomID: api.NewOptUUID(uuid.New())}, "")
	requireErr(t, err, http.StatusNotFound, "NOT_FOUND")
	elsewhere := e.db().Location.Create().SetName("Nørrebro").SaveX(e.op)
	_, err = create(staff, api.CalendarEventCreateRequest{Kind: "stream", Title: "Mismatch", StartTime: at(9), EndTime: at(10),
		LocationID: api.NewOptUUID(elsewhere.ID), RoomID: api.NewOptUUID(e.room)}, "")
	requireErr(t, err, http.StatusBadRequest, "VALIDATION_ERROR")
	_, err = create(e.keyClient(t, e.otherKey), api.CalendarEventCreateRequest{Kind: "stream", Title: "Theirs", StartTime: at(9),
		EndTime: at(10), LocationID: api.NewOptUUID(e.location)}, "")
	requireErr(t, err, http.StatusNotFound, "NOT_FOUND")
	_, err = create(e.keyClient(t, e.studio.key), api.CalendarEventCreateRequest{Kind: "stream", Title: "Read key", StartTime: at(9), EndTime: at(10)}, "")
	requireErr(t, err, http.StatusForbidden, "ACCESS_DENIED")
	_, err = create(e.staff(t, "viewer@studio.example", "schedule.view_all"), api.CalendarEventCreateRequest{Kind: "stream",
		Title: "No permission", StartTime: at(9), EndTime: at(10)}, "")
	requireErr(t, err, http.StatusForbidden, "ACCESS_DENIED")
	_, err = e.keyClient(t, e.otherKey).CancelCalendarEvent(ctx, api.CancelCalendarEventParams{ID: private.ID})
	requireErr(t, err, http.StatusNotFound, "NOT_FOUND")
	require.Equal(t, before, count())
	require.True(t, e.audited(t, "calendar_event.create", "calendar_event:"+private.ID.String()))
	require.True(t, e.audited(t, "calendar_event.cancel", "calendar_event:"+rental.ID.String()))
}
