package schedule

import (
	"context"
	"fmt"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgtype"

	"github.com/venueplatform/venue/ent"
	"github.com/venueplatform/venue/ent/classinstance"
	"github.com/venueplatform/venue/ent/classtype"
	"github.com/venueplatform/venue/ent/instructor"
	"github.com/venueplatform/venue/ent/location"
	"github.com/venueplatform/venue/ent/room"
	"github.com/venueplatform/venue/internal/db"
)

// scanList runs the class query q (selecting listColumns) and the four
// edge reads through db.ScanRows: ent builds every statement and applies the
// tenancy policy as for an eager-loaded query, and the same statements run
// in the same order (class types, instructors, locations, rooms, each over
// the distinct keys in order of first appearance), but pgx scans the rows
// into the classes directly, without ent's per-row scan holders. It returns
// db.ErrNotDirect, having read nothing, when the client has no direct path.
func scanList(ctx context.Context, client *ent.Client, q *ent.ClassInstanceQuery) ([]*ent.ClassInstance, error) {
	var (
		cs   []ent.ClassInstance
		keys []classKeys
	)
	err := db.ScanRows(ctx, func(ctx context.Context) error {
		_, err := q.All(ctx)
		return err
	}, func(r pgx.Rows) error {
		if err := checkColumns(r, listColumns); err != nil {
			return err
		}
		for r.Next() {
			var (
				c  ent.ClassInstance
				k  classKeys
				id pgtype.UUID
				ct pgtype.UUID
			)
			// status (column 8) is read from the raw value: it is one
			// of four words, kept as constants instead of one string per row.
			if err := r.Scan(&id, &ct, &k.instructor, &k.location, &k.room, &c.StartTime, &c.EndTime,
				&c.Capacity, nil, &c.Online, &k.workshopKind, &k.workshopID, &k.workshopSlug,
				&c.BookedCount, &c.WaitlistCount); err != nil {
				return err
			}
			c.ID, c.ClassTypeID = id.Bytes, ct.Bytes
			c.Status = status(r.RawValues()[8])
			cs = append(cs, c)
			keys = append(keys, k)
		}
		return r.Err()
	})
	if err != nil {
		return nil, err
	}
	out := make([]*ent.ClassInstance, len(cs))
	fks := make([]uuid.UUID, 3*len(cs)) // backing store of the nullable keys
	for i := range cs {
		c, k := &cs[i], &keys[i]
		c.InstructorID = optional(k.instructor, &fks[3*i])
		c.LocationID = optional(k.location, &fks[3*i+1])
		c.RoomID = optional(k.room, &fks[3*i+2])
		if k.workshopKind.Valid {
			kind := classinstance.WorkshopEntryKind(k.workshopKind.String)
			c.WorkshopEntryKind = &kind
		}
		if k.workshopID.Valid {
			id := uuid.UUID(k.workshopID.Bytes)
			c.WorkshopEntryID = &id
		}
		if k.workshopSlug.Valid {
			slug := k.workshopSlug.String
			c.WorkshopEntrySlug = &slug
		}
		out[i] = c
	}
	if len(out) == 0 {
		return out, nil
	}
	if err := loadEdges(ctx, client, out); err != nil {
		return nil, err
	}
	return out, nil
}

// classKeys are a class row's nullable columns as scanned.
type classKeys struct {
	instructor, location, room, workshopID pgtype.UUID
	workshopKind, workshopSlug             pgtype.Text
}

func optional(v pgtype.UUID, slot *uuid.UUID) *uuid.UUID {
	if !v.Valid {
		return nil
	}
	*slot = v.Bytes
	return slot
}

// status returns the class status in raw (text), without allocating for
// the known values.
func status(raw []byte) classinstance.Status {
	switch classinstance.Status(raw) {
	case classinstance.StatusScheduled:
		return classinstance.StatusScheduled
	case classinstance.StatusLive:
		return classinstance.StatusLive
	case classinstance.StatusCompleted:
		return classinstance.StatusCompleted
	case classinstance.StatusCancelled:
		return classinstance.StatusCancelled
	}
	return classinstance.Status(raw)
}

// checkColumns guards the positional scans against a change of the
// statement's columns.
func checkColumns(r pgx.Rows, want []string) error {
	fds := r.FieldDescriptions()
	if len(fds) != len(want) {
		return fmt.Errorf("schedule: %d columns, want %d", len(fds), len(want))
	}
	for i, fd := range fds {
		if fd.Name != want[i] {
			return fmt.Errorf("schedule: column %d is %s, want %s", i, fd.Name, want[i])
		}
	}
	return nil
}

// loadEdges reads the class types, instructors, locations and rooms of cs
// (id and name, an instructor's first and last name) as ent's eager loads
// would, and sets the classes' edges; classes sharing a key share the edge.
func loadEdges(ctx context.Context, client *ent.Client, cs []*ent.ClassInstance) error {
	cts := map[uuid.UUID]*ent.ClassType{}
	if ids := distinct(cs, func(c *ent.ClassInstance) *uuid.UUID { return &c.ClassTypeID }); len(ids) > 0 {
		err := scanNames(ctx, func(ctx context.Context) error {
			_, err := client.ClassType.Query().Where(classtype.IDIn(ids...)).Select(classtype.FieldName).All(ctx)
			return err
		}, []string{classtype.FieldID, classtype.FieldName}, func(id uuid.UUID, names []string) {
			cts[id] = &ent.ClassType{ID: id, Name: names[0]}
		})
		if err != nil {
			return err
		}
	}
	ins := map[uuid.UUID]*ent.Instructor{}
	if ids := distinct(cs, func(c *ent.ClassInstance) *uuid.UUID { return c.InstructorID }); len(ids) > 0 {
		err := scanNames(ctx, func(ctx context.Context) error {
			_, err := client.Instructor.Query().Where(instructor.IDIn(ids...)).
				Select(instructor.FieldFirstName, instructor.FieldLastName).All(ctx)
			return err
		}, []string{instructor.FieldID, instructor.FieldFirstName, instructor.FieldLastName}, func(id uuid.UUID, names []string) {
			ins[id] = &ent.Instructor{ID: id, FirstName: names[0], LastName: names[1]}
		})
		if err != nil {
			return err
		}
	}
	locs := map[uuid.UUID]*ent.Location{}
	if ids := distinct(cs, func(c *ent.ClassInstance) *uuid.UUID { return c.LocationID }); len(ids) > 0 {
		err := scanNames(ctx, func(ctx context.Context) error {
			_, err := client.Location.Query().Where(location.IDIn(ids...)).Select(location.FieldName).All(ctx)
			return err
		}, []string{location.FieldID, location.FieldName}, func(id uuid.UUID, names []string) {
			locs[id] = &ent.Location{ID: id, Name: names[0]}
		})
		if err != nil {
			return err
		}
	}
	rooms := map[uuid.UUID]*ent.Room{}
	if ids := distinct(cs, func(c *ent.ClassInstance) *uuid.UUID { return c.RoomID }); len(ids) > 0 {
		err := scanNames(ctx, func(ctx context.Context) error {
			_, err := client.Room.Query().Where(room.IDIn(ids...)).Select(room.FieldName).All(ctx)
			return err
		}, []string{room.FieldID, room.FieldName}, func(id uuid.UUID, names []string) {
			rooms[id] = &ent.Room{ID: id, Name: names[0]}
		})
		if err != nil {
			return err
		}
	}
	for _, c := range cs {
		c.Edges.ClassType = cts[c.ClassTypeID]
		if c.InstructorID != nil {
			c.Edges.Instructor = ins[*c.InstructorID]
		}
		if c.LocationID != nil {
			c.Edges.Location = locs[*c.LocationID]
		}
		if c.RoomID != nil {
			c.Edges.Room = rooms[*c.RoomID]
		}
	}
	return nil
}

// distinct returns the non-nil keys of cs in order of first appearance.
func distinct(cs []*ent.ClassInstance, key func(*ent.ClassInstance) *uuid.UUID) []uuid.UUID {
	var ids []uuid.UUID
	seen := make(map[uuid.UUID]struct{})
	for _, c := range cs {
		k := key(c)
		if k == nil {
			continue
		}
		if _, ok := seen[*k]; !ok {
			seen[*k] = struct{}{}
			ids = append(ids, *k)
		}
	}
	return ids
}

// scanNames runs an edge read whose columns are cols (the id, then text
// columns) and calls set with each row.
func scanNames(ctx context.Context, query func(context.Context) error, cols []string, set func(uuid.UUID, []string)) error {
	return db.ScanRows(ctx, query, func(r pgx.Rows) error {
		if err := checkColumns(r, cols); err != nil {
			return err
		}
		var id pgtype.UUID
		names := make([]string, len(cols)-1)
		dest := make([]any, len(cols))
		dest[0] = &id
		for i := range names {
			dest[i+1] = &names[i]
		}
		for r.Next() {
			if err := r.Scan(dest...); err != nil {
				return err
			}
			set(id.Bytes, names)
		}
		return r.Err()
	})
}
