// Package schedule reads a venue's class schedule with real-time
// availability. REST (/venues/{slug}/schedule) and MCP (search_schedule,
// venue://schedule, venue://classes) call the same List, so the query exists
// once; the venue comes from the viewer in the context.
package schedule

import (
	"context"
	"fmt"
	"sync"
	"time"

	"entgo.io/ent/dialect/sql"
	"github.com/google/uuid"

	"github.com/venueplatform/venue/ent"
	"github.com/venueplatform/venue/ent/booking"
	"github.com/venueplatform/venue/ent/classinstance"
	"github.com/venueplatform/venue/ent/classtype"
	"github.com/venueplatform/venue/ent/instructor"
	"github.com/venueplatform/venue/ent/predicate"
)

// MaxRangeDays is the widest date range one schedule read may span.
const MaxRangeDays = 62

// DefaultLimit is the row ceiling when a caller sets none.
const DefaultLimit = 1000

// Filter selects class instances.
type Filter struct {
	// Start and End bound start_time: Start <= start_time < End.
	Start, End     time.Time
	LocationID     *uuid.UUID
	BrandID        *uuid.UUID
	ClassTypeID    *uuid.UUID
	InstructorID   *uuid.UUID
	OnlineOnly     bool
	ClassTypeName  string // case-insensitive substring
	InstructorName string // case-insensitive substring of first or last name
	// Limit caps the rows returned (DefaultLimit when zero).
	Limit int
}

// Row is one class instance with its availability.
type Row struct {
	Class         *ent.ClassInstance
	Booked        int
	Waitlisted    int
	Available     int
	Bookable      bool
	RequiresEntry bool
}

// occupying are the booking statuses that hold a seat.
var occupying = []booking.Status{
	booking.StatusConfirmed, booking.StatusCheckedIn, booking.StatusNoShow, booking.StatusPendingPayment,
}

// List returns the listed class instances of the viewer's venue matching f,
// ordered by start time, and whether the limit cut the list short.
func List(ctx context.Context, client *ent.Client, f Filter, now time.Time) ([]Row, bool, error) {
	limit := f.Limit
	if limit <= 0 {
		limit = DefaultLimit
	}
	preds := []predicate.ClassInstance{
		classinstance.Listed(true),
		classinstance.StartTimeGTE(f.Start),
		classinstance.StartTimeLT(f.End),
	}
	if f.LocationID != nil {
		preds = append(preds, classinstance.LocationID(*f.LocationID))
	}
	if f.ClassTypeID != nil {
		preds = append(preds, classinstance.ClassTypeID(*f.ClassTypeID))
	}
	if f.InstructorID != nil {
		preds = append(preds, classinstance.InstructorID(*f.InstructorID))
	}
	if f.OnlineOnly {
		preds = append(preds, classinstance.Online(true))
	}
	if f.BrandID != nil {
		preds = append(preds, classinstance.HasClassTypeWith(classtype.BrandID(*f.BrandID)))
	}
	if f.ClassTypeName != "" {
		preds = append(preds, classinstance.HasClassTypeWith(classtype.NameContainsFold(f.ClassTypeName)))
	}
	if f.InstructorName != "" {
		preds = append(preds, classinstance.HasInstructorWith(instructor.Or(
			instructor.FirstNameContainsFold(f.InstructorName),
			instructor.LastNameContainsFold(f.InstructorName),
		)))
	}
	classes, err := client.ClassInstance.Query().
		Where(preds...).
		WithClassType().
		WithInstructor().
		WithLocation().
		WithRoom().
		Order(ent.Asc(classinstance.FieldStartTime), ent.Asc(classinstance.FieldID)).
		Limit(limit + 1).
		All(ctx)
	if err != nil {
		return nil, false, fmt.Errorf("query classes: %w", err)
	}
	truncated := len(classes) > limit
	if truncated {
		classes = classes[:limit]
	}
	counts, err := countBookings(ctx, client, classes)
	if err != nil {
		return nil, false, err
	}
	rows := make([]Row, len(classes))
	for i, c := range classes {
		rows[i] = NewRow(c, counts[c.ID], now)
	}
	return rows, truncated, nil
}

// Get returns one class instance of the viewer's venue with its availability.
func Get(ctx context.Context, client *ent.Client, id uuid.UUID, now time.Time) (Row, error) {
	c, err := client.ClassInstance.Query().
		Where(classinstance.ID(id), classinstance.Listed(true)).
		WithClassType().WithInstructor().WithLocation().WithRoom().
		Only(ctx)
	if err != nil {
		return Row{}, err
	}
	counts, err := countBookings(ctx, client, []*ent.ClassInstance{c})
	if err != nil {
		return Row{}, err
	}
	return NewRow(c, counts[c.ID], now), nil
}

// Counts are a class's seats taken and waitlist length.
type Counts struct{ Booked, Waitlisted int }

// NewRow derives availability from a class and its booking counts.
func NewRow(c *ent.ClassInstance, n Counts, now time.Time) Row {
	available := max(c.Capacity-n.Booked, 0)
	return Row{
		Class:         c,
		Booked:        n.Booked,
		Waitlisted:    n.Waitlisted,
		Available:     available,
		Bookable:      c.Status == classinstance.StatusScheduled && c.StartTime.After(now) && available > 0,
		RequiresEntry: c.WorkshopEntryKind != nil,
	}
}

// countBookings counts seat-holding and waitlisted bookings per class in one
// grouped query.
func countBookings(ctx context.Context, client *ent.Client, classes []*ent.ClassInstance) (map[uuid.UUID]Counts, error) {
	out := make(map[uuid.UUID]Counts, len(classes))
	if len(classes) == 0 {
		return out, nil
	}
	ids := make([]uuid.UUID, len(classes))
	for i, c := range classes {
		ids[i] = c.ID
	}
	var groups []struct {
		ClassInstanceID uuid.UUID `json:"class_instance_id"`
		Status          string    `json:"status"`
		Count           int       `json:"count"`
	}
	err := client.Booking.Query().
		Where(booking.ClassInstanceIDIn(ids...), booking.StatusIn(append(occupying, booking.StatusWaitlisted)...)).
		GroupBy(booking.FieldClassInstanceID, booking.FieldStatus).
		Aggregate(func(s *sql.Selector) string { return sql.As(sql.Count("*"), "count") }).
		Scan(ctx, &groups)
	if err != nil {
		return nil, fmt.Errorf("count bookings: %w", err)
	}
	for _, g := range groups {
		c := out[g.ClassInstanceID]
		if g.Status == booking.StatusWaitlisted.String() {
			c.Waitlisted += g.Count
		} else {
			c.Booked += g.Count
		}
		out[g.ClassInstanceID] = c
	}
	return out, nil
}

// DayRange returns the instants bounding the venue-local dates from..to
// (inclusive) in loc.
func DayRange(from, to time.Time, loc *time.Location) (time.Time, time.Time) {
	start := time.Date(from.Year(), from.Month(), from.Day(), 0, 0, 0, 0, loc)
	end := time.Date(to.Year(), to.Month(), to.Day()+1, 0, 0, 0, 0, loc)
	return start.UTC(), end.UTC()
}

// Today returns the venue-local date of now in loc, as midnight UTC of that date.
func Today(now time.Time, loc *time.Location) time.Time {
	l := now.In(loc)
	return time.Date(l.Year(), l.Month(), l.Day(), 0, 0, 0, 0, time.UTC)
}

var locations sync.Map // IANA name -> *time.Location

// Location loads an IANA time zone once and caches it.
func Location(name string) (*time.Location, error) {
	if l, ok := locations.Load(name); ok {
		return l.(*time.Location), nil
	}
	l, err := time.LoadLocation(name)
	if err != nil {
		return nil, err
	}
	locations.Store(name, l)
	return l, nil
}
