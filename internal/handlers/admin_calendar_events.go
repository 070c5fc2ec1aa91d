package handlers

import (
	"context"
	"time"

	"github.com/google/uuid"

	"github.com/venueplatform/venue/ent"
	"github.com/venueplatform/venue/ent/location"
	"github.com/venueplatform/venue/ent/room"
	api "github.com/venueplatform/venue/internal/gen/api"
	"github.com/venueplatform/venue/internal/schedule"
)

// CreateCalendarEvent implements createCalendarEvent.
func (h *Handler) CreateCalendarEvent(ctx context.Context, req *api.CalendarEventCreateRequest, _ api.CreateCalendarEventParams) (*api.CalendarEventResponse, error) {
	if err := schedule.Authorize(ctx, schedule.AccessWrite); err != nil {
		return nil, err
	}
	ev, err := schedule.CreateCalendarEvent(ctx, h.client, schedule.CalendarEventParams{Kind: string(req.Kind),
		Title: req.Title, Notes: req.Notes.Or(""), Start: req.StartTime, End: req.EndTime,
		LocationID: optUUID(req.LocationID), RoomID: optUUID(req.RoomID)})
	if err != nil {
		return nil, err
	}
	return &api.CalendarEventResponse{Data: calendarEventView(ev)}, nil
}

// CancelCalendarEvent implements cancelCalendarEvent.
func (h *Handler) CancelCalendarEvent(ctx context.Context, p api.CancelCalendarEventParams) (*api.CalendarEventResponse, error) {
	if err := schedule.Authorize(ctx, schedule.AccessWrite); err != nil {
		return nil, err
	}
	ev, err := schedule.CancelCalendarEvent(ctx, h.client, p.ID)
	if err != nil {
		return nil, err
	}
	return &api.CalendarEventResponse{Data: calendarEventView(ev)}, nil
}

func calendarEventView(ev *ent.CalendarEvent) api.CalendarEventView {
	return api.CalendarEventView{ID: ev.ID, Kind: api.CalendarEventViewKind(ev.Kind), Title: ev.Title,
		StartTime: ev.StartsAt.UTC(), EndTime: ev.EndsAt.UTC(), Status: api.CalendarEventViewStatus(ev.Status),
		LocationID: nilUUIDOf(ev.LocationID), RoomID: nilUUIDOf(ev.RoomID), Notes: ev.Notes, CreatedBy: ev.CreatedBy}
}

// calendarEventItem is a calendar event (loaded with nothing; its location
// and room by names) as a feed item.
func calendarEventItem(ev *ent.CalendarEvent, names map[uuid.UUID]string) api.CalendarItem {
	out := api.CalendarItem{Kind: string(ev.Kind), ID: ev.ID, Title: ev.Title, StartTime: ev.StartsAt.UTC(),
		EndTime: ev.EndsAt.UTC(), Status: string(ev.Status), Location: api.NilNamedRef{Null: true},
		Room: api.NilNamedRef{Null: true}, People: []api.CalendarPerson{}}
	if ev.LocationID != nil {
		out.Location = api.NewNilNamedRef(api.NamedRef{ID: *ev.LocationID, Name: names[*ev.LocationID]})
	}
	if ev.RoomID != nil {
		out.Room = api.NewNilNamedRef(api.NamedRef{ID: *ev.RoomID, Name: names[*ev.RoomID]})
	}
	out.Event.SetTo(api.CalendarEventItem{Notes: ev.Notes, CreatedBy: ev.CreatedBy})
	return out
}

// calendarEvents reads the venue's calendar events overlapping [start, end)
// and the names of their locations and rooms, by id.
func (h *Handler) calendarEvents(ctx context.Context, start, end time.Time) ([]*ent.CalendarEvent, map[uuid.UUID]string, error) {
	evs, err := schedule.CalendarEvents(ctx, h.client, start, end, schedule.MaxCalendarItems)
	if err != nil {
		return nil, nil, err
	}
	var locs, rooms []uuid.UUID
	for _, ev := range evs {
		if ev.LocationID != nil {
			locs = append(locs, *ev.LocationID)
		}
		if ev.RoomID != nil {
			rooms = append(rooms, *ev.RoomID)
		}
	}
	names := map[uuid.UUID]string{}
	if len(locs) > 0 {
		ls, err := h.client.Location.Query().Where(location.IDIn(locs...)).All(ctx)
		if err != nil {
			return nil, nil, err
		}
		for _, l := range ls {
			names[l.ID] = l.Name
		}
	}
	if len(rooms) > 0 {
		rs, err := h.client.Room.Query().Where(room.IDIn(rooms...)).All(ctx)
		if err != nil {
			return nil, nil, err
		}
		for _, r := range rs {
			names[r.ID] = r.Name
		}
	}
	return evs, names, nil
}
