package bench

import (
	"context"

	"github.com/google/uuid"
)

// edge is one eager load of the schedule read: the table, its statement
// head, its column count, the positions of the columns that make the name,
// and the foreign key of a row.
type edge struct {
	table   string
	head    string
	columns int
	// name holds the column positions of the name: one, or first and last
	// name joined by a space.
	name []int
	fk   func(*baselineRow) *uuid.UUID
	set  func(*baselineRow, namedRef)
}

// edges are loaded in the service's order.
var edges = []edge{
	{
		table: "class_types", head: sqlClassTypesHead, columns: classTypeColumns, name: []int{1},
		fk:  func(r *baselineRow) *uuid.UUID { return &r.classType },
		set: func(r *baselineRow, n namedRef) { r.ClassType = n },
	},
	{
		table: "instructors", head: sqlInstructorsHead, columns: instructorColumns, name: []int{1, 2},
		fk:  func(r *baselineRow) *uuid.UUID { return r.instructor },
		set: func(r *baselineRow, n namedRef) { r.Instructor = &n },
	},
	{
		table: "locations", head: sqlLocationsHead, columns: locationColumns, name: []int{1},
		fk:  func(r *baselineRow) *uuid.UUID { return r.location },
		set: func(r *baselineRow, n namedRef) { r.Location = &n },
	},
	{
		table: "rooms", head: sqlRoomsHead, columns: roomColumns, name: []int{1},
		fk:  func(r *baselineRow) *uuid.UUID { return r.room },
		set: func(r *baselineRow, n namedRef) { r.Room = &n },
	},
}

// edges runs the four eager loads, each over the distinct keys in order of
// first appearance, and fills the rows' references.
func (b *Baseline) edges(ctx context.Context, org uuid.UUID, rows []*baselineRow) error {
	for _, e := range edges {
		var ids []any
		seen := map[uuid.UUID]bool{}
		for _, r := range rows {
			if id := e.fk(r); id != nil && !seen[*id] {
				seen[*id] = true
				ids = append(ids, *id)
			}
		}
		if len(ids) == 0 {
			continue
		}
		names := make(map[uuid.UUID]string, len(ids))
		res, err := b.pool.Query(ctx, edgeSQL(e.head, e.table, len(ids)), append(ids, org)...)
		if err != nil {
			return err
		}
		dest := make([]any, e.columns)
		var (
			id          uuid.UUID
			first, last string
		)
		dest[0], dest[e.name[0]] = &id, &first
		if len(e.name) > 1 {
			dest[e.name[1]] = &last
		}
		for res.Next() {
			if err := res.Scan(dest...); err != nil {
				res.Close()
				return err
			}
			names[id] = fullName(first, last)
		}
		res.Close()
		if err := res.Err(); err != nil {
			return err
		}
		for _, r := range rows {
			if fk := e.fk(r); fk != nil {
				if name, ok := names[*fk]; ok {
					e.set(r, namedRef{ID: *fk, Name: name})
				}
			}
		}
	}
	return nil
}

// availability derives free seats and bookability from the counts the class
// row carries, as the service does.
func (b *Baseline) availability(rows []*baselineRow) {
	now := b.now()
	for _, r := range rows {
		r.AvailableSpots = max(r.Capacity-r.BookedCount, 0)
		r.IsBookable = r.Status == "scheduled" && r.start.After(now) && r.AvailableSpots > 0
	}
}

func fullName(first, last string) string {
	if last == "" {
		return first
	}
	return first + " " + last
}
