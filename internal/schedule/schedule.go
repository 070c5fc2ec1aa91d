package schedule

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/google/uuid"

	"github.com/venueplatform/venue/ent"
	"github.com/venueplatform/venue/ent/classinstance"
	"github.com/venueplatform/venue/ent/classtype"
	"github.com/venueplatform/venue/ent/instructor"
	"github.com/venueplatform/venue/ent/location"
	"github.com/venueplatform/venue/ent/predicate"
	"github.com/venueplatform/venue/ent/room"
	"github.com/venueplatform/venue/internal/db"
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

// listColumns are the class columns List reads: what a schedule row shows
// and the keys of its edges. Timestamps, the import reference and the
// cancellation details are left in the table.
var listColumns = []string{
	classinstance.FieldID,
	classinstance.FieldClassTypeID,
	classinstance.FieldInstructorID,
	classinstance.FieldLocationID,
	classinstance.FieldRoomID,
	classinstance.FieldStartTime,
	classinstance.FieldEndTime,
	classinstance.FieldCapacity,
	classinstance.FieldStatus,
	classinstance.FieldOnline,
	classinstance.FieldWorkshopEntryKind,
	classinstance.FieldWorkshopEntryID,
	classinstance.FieldWorkshopEntrySlug,
	classinstance.FieldBookedCount,
	classinstance.FieldWaitlistCount,
}

// List returns the listed class instances of the viewer's venue matching f,
// ordered by start time, and whether the limit cut the list short. A row's
// Class carries the columns of listColumns only (identity, times, status,
// capacity and counts, online, workshop entry, edge keys), and its edges
// their id and name (an instructor's first and last name).
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
	query := func() *ent.ClassInstanceQuery {
		return client.ClassInstance.Query().
			Where(preds...).
			Select(listColumns...).
			Order(ent.Asc(classinstance.FieldStartTime), ent.Asc(classinstance.FieldID)).
			Limit(limit + 1)
	}
	// The classes are hundreds of rows: pgx scans them and their edges
	// directly (scanList). A client without the direct path (one bound to a
	// transaction) reads them through ent's eager loads, the same statements.
	classes, err := scanList(ctx, client, query())
	if errors.Is(err, db.ErrNotDirect) {
		classes, err = query().
			WithClassType(func(q *ent.ClassTypeQuery) { q.Select(classtype.FieldName) }).
			WithInstructor(func(q *ent.InstructorQuery) { q.Select(instructor.FieldFirstName, instructor.FieldLastName) }).
			WithLocation(func(q *ent.LocationQuery) { q.Select(location.FieldName) }).
			WithRoom(func(q *ent.RoomQuery) { q.Select(room.FieldName) }).
			All(ctx)
	}
	if err != nil {
		return nil, false, fmt.Errorf("query classes: %w", err)
	}
	truncated := len(classes) > limit
	if truncated {
		classes = classes[:limit]
	}
	rows := make([]Row, len(classes))
	for i, c := range classes {
		rows[i] = NewRow(c, now)
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
	return NewRow(c, now), nil
}

// NewRow derives availability from a class. Its booked and waitlist counts
// are kept by a database trigger on bookings, in the same transaction as
// every booking change, so they are real-time without a count query.
func NewRow(c *ent.ClassInstance, now time.Time) Row {
	available := max(c.Capacity-c.BookedCount, 0)
	return Row{
		Class:         c,
		Booked:        c.BookedCount,
		Waitlisted:    c.WaitlistCount,
		Available:     available,
		Bookable:      c.Status == classinstance.StatusScheduled && c.StartTime.After(now) && available > 0,
		RequiresEntry: c.WorkshopEntryKind != nil,
	}
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
