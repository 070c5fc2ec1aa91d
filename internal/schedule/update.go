package schedule

import (
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/google/uuid"

	"github.com/venueplatform/venue/ent"
	"github.com/venueplatform/venue/ent/classinstance"
	"github.com/venueplatform/venue/ent/classtype"
	"github.com/venueplatform/venue/ent/instructor"
	"github.com/venueplatform/venue/ent/room"
	"github.com/venueplatform/venue/internal/apperr"
	"github.com/venueplatform/venue/internal/audit"
	"github.com/venueplatform/venue/internal/concurrency"
	"github.com/venueplatform/venue/internal/events"
	"github.com/venueplatform/venue/internal/notify"
	"github.com/venueplatform/venue/internal/viewer"
)

// Clock is a time of day, in minutes after midnight.
type Clock int

// ParseClock parses HH:MM (24-hour).
func ParseClock(s string) (Clock, bool) {
	t, err := time.Parse("15:04", s)
	if err != nil || len(s) != 5 {
		return 0, false
	}
	return Clock(t.Hour()*60 + t.Minute()), true
}

// ClockChange moves a class to new clock times on its own date in Loc.
type ClockChange struct {
	Start, End Clock
	Loc        *time.Location
}

// Patch is a change to one class. Nil pointers leave a field as it is;
// SetInstructor and SetRoom with a nil id clear them.
type Patch struct {
	// Expected guards the write when not zero.
	Expected      concurrency.Token
	StartTime     *time.Time
	EndTime       *time.Time
	Clock         *ClockChange
	SetInstructor bool
	InstructorID  *uuid.UUID
	ClassTypeID   *uuid.UUID
	Capacity      *int
	SetRoom       bool
	RoomID        *uuid.UUID
	Notify        notify.Request
	// Bulk marks a row of a bulk edit: its event and audit entry say bulk.
	Bulk bool
}

// Empty reports whether p changes nothing.
func (p Patch) Empty() bool {
	return p.StartTime == nil && p.EndTime == nil && p.Clock == nil && !p.SetInstructor &&
		p.ClassTypeID == nil && p.Capacity == nil && !p.SetRoom
}

// WriteResult is the outcome of a write on one class.
type WriteResult struct {
	Row               StaffRow
	CancelledBookings int
	PromotedBookings  int
	Notify            NotifyResult
}

// NotifyResult says what a write asked to send and how much was queued.
type NotifyResult struct {
	Requested bool
	Queued    int
}

// Update applies p to the class id of the viewer's venue: one transaction
// with the class.updated event, an audit entry (schedule.update) and the
// notifications p asks for. The caller authorized the write.
func Update(ctx context.Context, client *ent.Client, id uuid.UUID, p Patch, now time.Time) (WriteResult, error) {
	if err := CheckNotify(ctx, notify.ActionEdit, p.Notify); err != nil {
		return WriteResult{}, err
	}
	var res WriteResult
	err := events.WithTx(ctx, client, func(ctx context.Context, tx *ent.Tx) error {
		c, err := lockClass(ctx, tx.Client(), id, p.Expected, now)
		if err != nil {
			return err
		}
		changes, err := applyPatch(ctx, tx.Client(), c, p, now)
		if err != nil {
			return err
		}
		if len(changes) > 0 {
			if err := recordChange(ctx, tx.Client(), c, "schedule.update", changes, bulkMark(p.Bulk)); err != nil {
				return err
			}
			if p.Capacity != nil && *p.Capacity > c.Capacity {
				if res.PromotedBookings, err = promote(ctx, tx.Client(), c.ID, now); err != nil {
					return err
				}
			}
			if res.Notify, err = queue(ctx, tx.Client(), c.ID, notify.ActionEdit, p.Notify); err != nil {
				return err
			}
		}
		res.Row, err = loadRow(ctx, tx.Client(), id, now)
		return err
	})
	return res, err
}

// lockClass reads class id for update and checks it may take an ordinary
// write: the token (when given) matches, it is not cancelled and has not ended.
func lockClass(ctx context.Context, client *ent.Client, id uuid.UUID, tok concurrency.Token, now time.Time) (*ent.ClassInstance, error) {
	c, err := client.ClassInstance.Query().Where(classinstance.ID(id)).ForUpdate().Only(ctx)
	if err != nil {
		return nil, err
	}
	if !tok.IsZero() && !tok.Matches(c.UpdatedAt) {
		return nil, concurrency.Stale(c.UpdatedAt)
	}
	if c.Status == classinstance.StatusCancelled {
		return nil, ErrClassCancelled()
	}
	if Historical(c, now) {
		return nil, ErrClassEnded()
	}
	return c, nil
}

// change is one field's old and new value, for the event and the audit entry.
type change struct{ From, To any }

// applyPatch checks p against c and saves it; it returns the fields that
// changed (none saved when empty).
func applyPatch(ctx context.Context, client *ent.Client, c *ent.ClassInstance, p Patch, now time.Time) (map[string]change, error) {
	changes := map[string]change{}
	upd := client.ClassInstance.UpdateOne(c)
	start, end := c.StartTime, c.EndTime
	if p.Clock != nil {
		day := c.StartTime.In(p.Clock.Loc)
		midnight := time.Date(day.Year(), day.Month(), day.Day(), 0, 0, 0, 0, p.Clock.Loc)
		start = midnight.Add(time.Duration(p.Clock.Start) * time.Minute)
		end = midnight.Add(time.Duration(p.Clock.End) * time.Minute)
	}
	if p.StartTime != nil {
		start = *p.StartTime
	}
	if p.EndTime != nil {
		end = *p.EndTime
	}
	if !end.After(start) {
		return nil, apperr.Validation("end_time", "end_time must be after start_time")
	}
	if !end.After(now) {
		return nil, validationFailed("in_past", "a class cannot be moved to a time that has passed")
	}
	if !start.Equal(c.StartTime) {
		changes["start_time"] = change{c.StartTime.UTC(), start.UTC()}
		upd.SetStartTime(start)
	}
	if !end.Equal(c.EndTime) {
		changes["end_time"] = change{c.EndTime.UTC(), end.UTC()}
		upd.SetEndTime(end)
	}
	if p.Capacity != nil && *p.Capacity != c.Capacity {
		if *p.Capacity < c.BookedCount {
			return nil, ErrCapacityBelowBooked(c.BookedCount)
		}
		changes["capacity"] = change{c.Capacity, *p.Capacity}
		upd.SetCapacity(*p.Capacity)
	}
	if p.ClassTypeID != nil && *p.ClassTypeID != c.ClassTypeID {
		ok, err := client.ClassType.Query().Where(classtype.ID(*p.ClassTypeID)).Exist(ctx)
		if err != nil {
			return nil, err
		}
		if !ok {
			return nil, apperr.NotFound("class type").With("parameter", "class_type_id")
		}
		changes["class_type_id"] = change{c.ClassTypeID, *p.ClassTypeID}
		upd.SetClassTypeID(*p.ClassTypeID)
	}
	if p.SetInstructor && !sameID(c.InstructorID, p.InstructorID) {
		if p.InstructorID != nil {
			ok, err := client.Instructor.Query().Where(instructor.ID(*p.InstructorID)).Exist(ctx)
			if err != nil {
				return nil, err
			}
			if !ok {
				return nil, apperr.NotFound("instructor").With("parameter", "instructor_id")
			}
			upd.SetInstructorID(*p.InstructorID)
		} else {
			upd.ClearInstructorID()
		}
		changes["instructor_id"] = change{c.InstructorID, p.InstructorID}
	}
	if p.SetRoom && !sameID(c.RoomID, p.RoomID) {
		if p.RoomID != nil {
			r, err := client.Room.Query().Where(room.ID(*p.RoomID)).Only(ctx)
			if ent.IsNotFound(err) {
				return nil, apperr.NotFound("room").With("parameter", "room_id")
			}
			if err != nil {
				return nil, err
			}
			upd.SetRoomID(r.ID)
			if !sameID(c.LocationID, &r.LocationID) {
				// A room belongs to one location: the class moves with it.
				changes["location_id"] = change{c.LocationID, r.LocationID}
				upd.SetLocationID(r.LocationID)
			}
		} else {
			upd.ClearRoomID()
		}
		changes["room_id"] = change{c.RoomID, p.RoomID}
	}
	if len(changes) == 0 {
		return changes, nil
	}
	if _, err := upd.Save(ctx); err != nil {
		return nil, fmt.Errorf("schedule: update class: %w", err)
	}
	return changes, nil
}

func sameID(a, b *uuid.UUID) bool {
	if a == nil || b == nil {
		return a == nil && b == nil
	}
	return *a == *b
}

// recordChange records class.updated and the audit entry action for the
// changes of c, inside the running transaction. extra adds event data.
func recordChange(ctx context.Context, client *ent.Client, c *ent.ClassInstance, action string, changes map[string]change, extra map[string]any) error {
	fields := make([]string, 0, len(changes))
	values := map[string]any{}
	before := map[string]any{}
	for k, ch := range changes {
		fields = append(fields, k)
		values[k] = jsonValue(ch.To)
		before[k] = jsonValue(ch.From)
	}
	slices.Sort(fields)
	data := map[string]any{"class_instance_id": c.ID.String(), "changed": fields, "values": values}
	for k, v := range extra {
		data[k] = v
	}
	if _, err := events.Record(ctx, client, events.ClassUpdated, data); err != nil {
		return err
	}
	details := map[string]any{"changed": fields, "before": before, "after": values}
	for k, v := range extra {
		details[k] = v
	}
	return auditClass(ctx, client, action, c.ID, details)
}

// auditClass writes the audit entry action about class id, naming the staff
// user when a session acts.
func auditClass(ctx context.Context, client *ent.Client, action string, id uuid.UUID, details map[string]any) error {
	e := audit.Entry{Action: action, Target: "class:" + id.String(), Details: details}
	if u, ok := viewer.UserFromContext(ctx); ok {
		e.ActorKind, e.UserID = audit.KindUser, &u.UserID
	}
	_, err := audit.Record(ctx, client, e)
	return err
}

// jsonValue renders a change value for event and audit JSON.
func jsonValue(v any) any {
	switch t := v.(type) {
	case time.Time:
		return t.UTC().Format(time.RFC3339)
	case *uuid.UUID:
		if t == nil {
			return nil
		}
		return t.String()
	case uuid.UUID:
		return t.String()
	}
	return v
}

// bulkMark is the extra event and audit data of a row of a bulk operation.
func bulkMark(bulk bool) map[string]any {
	if !bulk {
		return nil
	}
	return map[string]any{"bulk": true}
}
