package schedule

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"time"

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
		out   []*ent.ClassInstance
		chunk []ent.ClassInstance // classes are decoded in place, chunk by chunk,
		fks   []uuid.UUID         // with their nullable keys, so nothing is copied as the list grows
	)
	err := db.ScanRows(ctx, func(ctx context.Context) error {
		_, err := q.All(ctx)
		return err
	}, func(r pgx.Rows) error {
		if err := checkColumns(r, listColumns); err != nil {
			return err
		}
		binary := wireBinary(r, listOIDs)
		var k classKeys
		for r.Next() {
			if len(chunk) == cap(chunk) {
				// Chunks grow with the list (16, 16, 32, ... up to
				// maxChunkRows): a short schedule allocates little.
				n := min(max(len(out), minChunkRows), maxChunkRows)
				chunk = make([]ent.ClassInstance, 0, n)
				fks = make([]uuid.UUID, 0, 3*n)
			}
			chunk = append(chunk, ent.ClassInstance{})
			c := &chunk[len(chunk)-1]
			k = classKeys{}
			if binary {
				if err := decodeClass(r.RawValues(), c, &k); err != nil {
					return err
				}
			} else {
				var id, ct pgtype.UUID
				// status (column 8) is read from the raw value: it is one of
				// four words, kept as constants instead of one string per row.
				if err := r.Scan(&id, &ct, &k.instructor, &k.location, &k.room, &c.StartTime, &c.EndTime,
					&c.Capacity, nil, &c.Online, &k.workshopKind, &k.workshopID, &k.workshopSlug,
					&c.BookedCount, &c.WaitlistCount); err != nil {
					return err
				}
				c.ID, c.ClassTypeID = id.Bytes, ct.Bytes
				c.Status = status(r.RawValues()[8])
			}
			fks = fks[:len(fks)+3]
			n := len(fks)
			c.InstructorID = optional(k.instructor, &fks[n-3])
			c.LocationID = optional(k.location, &fks[n-2])
			c.RoomID = optional(k.room, &fks[n-1])
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
			out = append(out, c)
		}
		return r.Err()
	})
	if err != nil {
		return nil, err
	}
	if len(out) == 0 {
		return []*ent.ClassInstance{}, nil
	}
	if err := loadEdges(ctx, client, out); err != nil {
		return nil, err
	}
	return out, nil
}

// The sizes of the chunks scanList allocates classes in.
const (
	minChunkRows = 16
	maxChunkRows = 256
)

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
		// A statement the server refused (a NUL in a parameter, a
		// cancelled context) has no columns: its error is the cause, and
		// rows hold it only once they are closed.
		r.Close()
		if err := r.Err(); err != nil {
			return fmt.Errorf("schedule: query: %w", err)
		}
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

// listOIDs are the types of listColumns.
var listOIDs = []uint32{
	pgtype.UUIDOID, pgtype.UUIDOID, pgtype.UUIDOID, pgtype.UUIDOID, pgtype.UUIDOID,
	pgtype.TimestamptzOID, pgtype.TimestamptzOID, pgtype.Int8OID, pgtype.VarcharOID, pgtype.BoolOID,
	pgtype.VarcharOID, pgtype.UUIDOID, pgtype.VarcharOID, pgtype.Int8OID, pgtype.Int8OID,
}

// wireBinary reports whether the statement's columns have the types oids,
// in PostgreSQL's binary format as pgx asks for them (character columns
// come as text, which is the same bytes), so that decodeClass can read them.
func wireBinary(r pgx.Rows, oids []uint32) bool {
	fds := r.FieldDescriptions()
	if len(fds) != len(oids) {
		return false
	}
	for i, fd := range fds {
		if fd.DataTypeOID != oids[i] || fd.Format != pgtype.BinaryFormatCode && oids[i] != pgtype.VarcharOID {
			return false
		}
	}
	return true
}

// decodeClass reads a class row of listColumns from its binary values, as
// pgx would (time stamps in the local zone).
func decodeClass(raw [][]byte, c *ent.ClassInstance, k *classKeys) error {
	var err error
	if c.ID, err = wireUUID(raw[0]); err != nil {
		return err
	}
	if c.ClassTypeID, err = wireUUID(raw[1]); err != nil {
		return err
	}
	for i, dst := range []*pgtype.UUID{&k.instructor, &k.location, &k.room} {
		if raw[2+i] != nil {
			if dst.Bytes, err = wireUUID(raw[2+i]); err != nil {
				return err
			}
			dst.Valid = true
		}
	}
	if c.StartTime, err = wireTime(raw[5]); err != nil {
		return err
	}
	if c.EndTime, err = wireTime(raw[6]); err != nil {
		return err
	}
	if c.Capacity, err = wireInt(raw[7]); err != nil {
		return err
	}
	if raw[8] == nil || len(raw[9]) != 1 {
		return errors.New("schedule: malformed status or online")
	}
	c.Status = status(raw[8])
	c.Online = raw[9][0] == 1
	if raw[10] != nil {
		k.workshopKind = pgtype.Text{String: string(raw[10]), Valid: true}
	}
	if raw[11] != nil {
		if k.workshopID.Bytes, err = wireUUID(raw[11]); err != nil {
			return err
		}
		k.workshopID.Valid = true
	}
	if raw[12] != nil {
		k.workshopSlug = pgtype.Text{String: string(raw[12]), Valid: true}
	}
	if c.BookedCount, err = wireInt(raw[13]); err != nil {
		return err
	}
	c.WaitlistCount, err = wireInt(raw[14])
	return err
}

func wireUUID(b []byte) (uuid.UUID, error) {
	if len(b) != 16 {
		return uuid.UUID{}, errors.New("schedule: malformed uuid")
	}
	return uuid.UUID(b), nil
}

func wireInt(b []byte) (int, error) {
	if len(b) != 8 {
		return 0, errors.New("schedule: malformed bigint")
	}
	return int(int64(binary.BigEndian.Uint64(b))), nil
}

// y2kMicros is 2000-01-01 UTC, PostgreSQL's time stamp epoch, in
// microseconds since the Unix epoch.
const y2kMicros = 946684800 * 1_000_000

func wireTime(b []byte) (time.Time, error) {
	if len(b) != 8 {
		return time.Time{}, errors.New("schedule: malformed time stamp")
	}
	us := int64(binary.BigEndian.Uint64(b))
	if us == math.MaxInt64 || us == math.MinInt64 {
		return time.Time{}, errors.New("schedule: infinite time stamp")
	}
	return time.Unix(y2kMicros/1_000_000+us/1_000_000, (y2kMicros%1_000_000+us%1_000_000)*1000), nil
}
