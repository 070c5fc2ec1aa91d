package appointments

import (
	"context"
	"net/http"
	"time"

	"github.com/google/uuid"

	"github.com/venueplatform/venue/ent"
	"github.com/venueplatform/venue/ent/classinstance"
	"github.com/venueplatform/venue/ent/location"
	"github.com/venueplatform/venue/ent/room"
	"github.com/venueplatform/venue/internal/apperr"
)

// Rooms lists the viewer's venue's rooms by name.
func Rooms(ctx context.Context, c *ent.Client) ([]*ent.Room, error) {
	return c.Room.Query().Order(ent.Asc(room.FieldName), ent.Asc(room.FieldID)).All(ctx)
}

// RoomOf reads room id of the viewer's venue.
func RoomOf(ctx context.Context, c *ent.Client, id uuid.UUID) (*ent.Room, error) {
	r, err := c.Room.Get(ctx, id)
	if ent.IsNotFound(err) {
		return nil, apperr.NotFound("room")
	}
	return r, err
}

// NewRoom is a room to create.
type NewRoom struct {
	Name       string
	Capacity   int
	RoomType   string
	LocationID *uuid.UUID
}

// CreateRoom creates a room. Without a location it goes into the venue's
// only location; a venue with several must name one (400 VALIDATION_ERROR).
func CreateRoom(ctx context.Context, c *ent.Client, p NewRoom) (*ent.Room, error) {
	loc := p.LocationID
	if loc == nil {
		ids, err := c.Location.Query().Where(location.Active(true)).Limit(2).IDs(ctx)
		if err != nil {
			return nil, err
		}
		if len(ids) != 1 {
			return nil, apperr.Validation("location_id", "location_id is required when the venue has no or several locations")
		}
		loc = &ids[0]
	}
	r, err := c.Room.Create().SetName(p.Name).SetCapacity(p.Capacity).SetRoomType(orText(p.RoomType, "studio")).
		SetLocationID(*loc).Save(ctx)
	if err != nil {
		return nil, err
	}
	return r, record(ctx, c, "room.created", "room:"+r.ID.String(), nil)
}

// RoomPatch holds a room's fields to set.
type RoomPatch struct {
	Name           *string
	Capacity       *int
	RoomType       *string
	IsActive       *bool
	ClearFloorPlan bool
}

// Empty reports whether the patch sets nothing.
func (p RoomPatch) Empty() bool {
	return p.Name == nil && p.Capacity == nil && p.RoomType == nil && p.IsActive == nil && !p.ClearFloorPlan
}

// CodeRoomCapacityPartial: the room was saved, but upcoming classes in it
// hold more places than its new capacity and were left as they are.
const CodeRoomCapacityPartial = "ROOM_CAPACITY_PARTIAL"

// UpdateRoom changes room id. Lowering the capacity below that of upcoming
// scheduled classes in the room saves the room and leaves those classes
// alone: the answer is then 409 ROOM_CAPACITY_PARTIAL with details.saved
// true and the classes' ids (staff review them on the schedule), returned
// with the saved room.
func UpdateRoom(ctx context.Context, c *ent.Client, id uuid.UUID, p RoomPatch, now time.Time) (*ent.Room, error) {
	if p.Empty() {
		return nil, apperr.Validation("body", "the patch changes nothing")
	}
	r, err := RoomOf(ctx, c, id)
	if err != nil {
		return nil, err
	}
	u := c.Room.UpdateOne(r).SetNillableName(p.Name).SetNillableCapacity(p.Capacity).SetNillableRoomType(p.RoomType).
		SetNillableActive(p.IsActive)
	if p.ClearFloorPlan {
		u.ClearFloorPlanURL()
	}
	r, err = u.Save(ctx)
	if err != nil {
		return nil, err
	}
	if err := record(ctx, c, "room.updated", "room:"+r.ID.String(), nil); err != nil {
		return nil, err
	}
	if p.Capacity != nil {
		over, err := c.ClassInstance.Query().Where(classinstance.RoomID(r.ID), classinstance.StatusEQ(classinstance.StatusScheduled),
			classinstance.StartTimeGT(now), classinstance.CapacityGT(*p.Capacity)).IDs(ctx)
		if err != nil {
			return nil, err
		}
		if len(over) > 0 {
			ids := make([]string, len(over))
			for i, o := range over {
				ids[i] = o.String()
			}
			return r, (&apperr.Error{Status: http.StatusConflict, Code: CodeRoomCapacityPartial,
				Message: "the room was saved; upcoming classes in it hold more places than its new capacity"}).
				With("saved", true).With("class_ids", ids)
		}
	}
	return r, nil
}
