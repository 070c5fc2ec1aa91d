package schedule

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/google/uuid"

	"github.com/venueplatform/venue/ent"
	"github.com/venueplatform/venue/ent/calendarevent"
	"github.com/venueplatform/venue/ent/location"
	"github.com/venueplatform/venue/ent/room"
	"github.com/venueplatform/venue/internal/apperr"
	"github.com/venueplatform/venue/internal/audit"
	"github.com/venueplatform/venue/internal/events"
	"github.com/venueplatform/venue/internal/viewer"
)

// CalendarEventKinds are the kinds of calendar events, as /calendar serves them.
var CalendarEventKinds = []string{"private_event", "stream", "room_rental", "maintenance"}

// MaxCalendarEventDays is the longest calendar event.
const MaxCalendarEventDays = 31

// CalendarEventParams are a new calendar event.
type CalendarEventParams struct {
	Kind, Title, Notes string
	Start, End         time.Time
	LocationID, RoomID *uuid.UUID
}

// CreateCalendarEvent adds a private event, stream, room rental or
// maintenance block to the viewer's venue, audited (calendar_event.create).
// end must follow start by at most MaxCalendarEventDays (400 INVALID_RANGE);
// the location and room must be the venue's (404 NOT_FOUND) and the room at
// the location when both are given (400 VALIDATION_ERROR).
func CreateCalendarEvent(ctx context.Context, client *ent.Client, p CalendarEventParams) (*ent.CalendarEvent, error) {
	if !p.End.After(p.Start) {
		return nil, ErrInvalidRange("end_time", "end_time must be after start_time")
	}
	if p.End.Sub(p.Start) > MaxCalendarEventDays*24*time.Hour {
		return nil, ErrInvalidRange("end_time", fmt.Sprintf("an event lasts at most %d days", MaxCalendarEventDays))
	}
	if p.LocationID != nil {
		ok, err := client.Location.Query().Where(location.ID(*p.LocationID)).Exist(ctx)
		if err != nil {
			return nil, err
		}
		if !ok {
			return nil, apperr.NotFound("location").With("parameter", "location_id")
		}
	}
	if p.RoomID != nil {
		r, err := client.Room.Query().Where(room.ID(*p.RoomID)).Only(ctx)
		if ent.IsNotFound(err) {
			return nil, apperr.NotFound("room").With("parameter", "room_id")
		}
		if err != nil {
			return nil, err
		}
		if p.LocationID != nil && r.LocationID != *p.LocationID {
			return nil, apperr.Validation("room_id", "the room is not at the location")
		}
		if p.LocationID == nil {
			p.LocationID = &r.LocationID
		}
	}
	var out *ent.CalendarEvent
	err := events.WithTx(ctx, client, func(ctx context.Context, tx *ent.Tx) error {
		c := tx.Client()
		ev, err := c.CalendarEvent.Create().SetKind(calendarevent.Kind(p.Kind)).SetTitle(p.Title).SetNotes(p.Notes).
			SetStartsAt(p.Start).SetEndsAt(p.End).SetNillableLocationID(p.LocationID).SetNillableRoomID(p.RoomID).
			SetCreatedBy(viewer.FromContext(ctx).Actor()).Save(ctx)
		if err != nil {
			return err
		}
		out = ev
		return auditEvent(ctx, c, "calendar_event.create", ev, map[string]any{"kind": p.Kind,
			"start_time": p.Start.UTC().Format(time.RFC3339), "end_time": p.End.UTC().Format(time.RFC3339)})
	})
	return out, err
}

// CancelCalendarEvent cancels a calendar event of the viewer's venue (404
// NOT_FOUND for another venue's or an unknown one); cancelling a cancelled
// event changes nothing. The feed keeps it with status cancelled.
func CancelCalendarEvent(ctx context.Context, client *ent.Client, id uuid.UUID) (*ent.CalendarEvent, error) {
	var out *ent.CalendarEvent
	err := events.WithTx(ctx, client, func(ctx context.Context, tx *ent.Tx) error {
		c := tx.Client()
		ev, err := c.CalendarEvent.Query().Where(calendarevent.ID(id)).ForUpdate().Only(ctx)
		if ent.IsNotFound(err) {
			return apperr.NotFound("calendar event")
		}
		if err != nil {
			return err
		}
		if ev.Status == calendarevent.StatusCancelled {
			out = ev
			return nil
		}
		if out, err = ev.Update().SetStatus(calendarevent.StatusCancelled).Save(ctx); err != nil {
			return err
		}
		return auditEvent(ctx, c, "calendar_event.cancel", ev, nil)
	})
	var ae *apperr.Error
	if errors.As(err, &ae) {
		return nil, ae
	}
	return out, err
}

func auditEvent(ctx context.Context, client *ent.Client, action string, ev *ent.CalendarEvent, details map[string]any) error {
	e := audit.Entry{Action: action, Target: "calendar_event:" + ev.ID.String(), Details: details}
	if u, ok := viewer.UserFromContext(ctx); ok {
		e.ActorKind, e.UserID = audit.KindUser, &u.UserID
	}
	_, err := audit.Record(ctx, client, e)
	return err
}

// CalendarEvents returns the calendar events of the viewer's venue that
// overlap [start, end) (a maintenance block begun before the range still
// shows), with their location and room, by start, at most limit.
func CalendarEvents(ctx context.Context, client *ent.Client, start, end time.Time, limit int) ([]*ent.CalendarEvent, error) {
	return client.CalendarEvent.Query().
		Where(calendarevent.StartsAtLT(end), calendarevent.EndsAtGT(start)).
		Order(ent.Asc(calendarevent.FieldStartsAt), ent.Asc(calendarevent.FieldID)).
		Limit(limit).All(ctx)
}
