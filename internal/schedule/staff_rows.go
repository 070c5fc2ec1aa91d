package schedule

import (
	"context"
	"fmt"
	"time"

	"github.com/google/uuid"

	"github.com/venueplatform/venue/ent"
	"github.com/venueplatform/venue/ent/booking"
	"github.com/venueplatform/venue/ent/classinstance"
	"github.com/venueplatform/venue/ent/organization"
	"github.com/venueplatform/venue/internal/viewer"
)

// StaffRow is one class instance as staff see it.
type StaffRow struct {
	Class      *ent.ClassInstance
	CheckedIn  int
	Available  int
	Bookable   bool
	Historical bool
}

// Historical reports whether c has ended at now.
func Historical(c *ent.ClassInstance, now time.Time) bool { return !c.EndTime.After(now) }

// newRow derives a row of c; checkedIn comes from the bookings.
func newRow(c *ent.ClassInstance, checkedIn int, now time.Time) StaffRow {
	r := NewRow(c, now)
	return StaffRow{Class: c, CheckedIn: checkedIn, Available: r.Available, Bookable: r.Bookable, Historical: Historical(c, now)}
}

// withEdges loads what a row shows of a class.
func withEdges(q *ent.ClassInstanceQuery) *ent.ClassInstanceQuery {
	return q.WithClassType().WithInstructor().WithLocation().WithRoom()
}

// rowsOf builds the rows of classes, counting checked-in bookings in one query.
func rowsOf(ctx context.Context, client *ent.Client, classes []*ent.ClassInstance, now time.Time) ([]StaffRow, error) {
	counts, err := checkedIn(ctx, client, classes)
	if err != nil {
		return nil, err
	}
	rows := make([]StaffRow, len(classes))
	for i, c := range classes {
		rows[i] = newRow(c, counts[c.ID], now)
	}
	return rows, nil
}

// checkedIn counts the checked-in bookings of classes.
func checkedIn(ctx context.Context, client *ent.Client, classes []*ent.ClassInstance) (map[uuid.UUID]int, error) {
	out := map[uuid.UUID]int{}
	if len(classes) == 0 {
		return out, nil
	}
	ids := make([]uuid.UUID, len(classes))
	for i, c := range classes {
		ids[i] = c.ID
	}
	var res []struct {
		ClassInstanceID uuid.UUID `json:"class_instance_id"`
		Count           int       `json:"count"`
	}
	err := client.Booking.Query().
		Where(booking.ClassInstanceIDIn(ids...), booking.StatusEQ(booking.StatusCheckedIn)).
		GroupBy(booking.FieldClassInstanceID).
		Aggregate(ent.Count()).
		Scan(ctx, &res)
	if err != nil {
		return nil, fmt.Errorf("schedule: count check-ins: %w", err)
	}
	for _, r := range res {
		out[r.ClassInstanceID] = r.Count
	}
	return out, nil
}

// loadRow reads one class of the viewer's venue as a row.
func loadRow(ctx context.Context, client *ent.Client, id uuid.UUID, now time.Time) (StaffRow, error) {
	c, err := withEdges(client.ClassInstance.Query().Where(classinstance.ID(id))).Only(ctx)
	if err != nil {
		return StaffRow{}, err
	}
	rows, err := rowsOf(ctx, client, []*ent.ClassInstance{c}, now)
	if err != nil {
		return StaffRow{}, err
	}
	return rows[0], nil
}

// Venue is the caller's venue with its time zone.
type Venue struct {
	Org *ent.Organization
	Loc *time.Location
}

// LoadVenue reads the venue of the viewer of ctx.
func LoadVenue(ctx context.Context, client *ent.Client) (Venue, error) {
	id, ok := viewer.VenueFromContext(ctx)
	if !ok {
		return Venue{}, fmt.Errorf("schedule: no venue viewer")
	}
	org, err := client.Organization.Query().Where(organization.ID(id)).Only(ctx)
	if err != nil {
		return Venue{}, fmt.Errorf("schedule: read venue: %w", err)
	}
	loc, err := Location(org.Timezone)
	if err != nil {
		return Venue{}, fmt.Errorf("schedule: venue time zone %q: %w", org.Timezone, err)
	}
	return Venue{Org: org, Loc: loc}, nil
}

// Today returns the venue-local date of now (midnight UTC of that date).
func (v Venue) Today(now time.Time) time.Time { return Today(now, v.Loc) }
