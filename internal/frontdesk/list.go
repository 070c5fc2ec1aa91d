package frontdesk

import (
	"context"
	"fmt"
	"time"

	"github.com/google/uuid"

	"github.com/venueplatform/venue/ent"
	"github.com/venueplatform/venue/ent/booking"
	"github.com/venueplatform/venue/ent/classinstance"
	"github.com/venueplatform/venue/ent/location"
	"github.com/venueplatform/venue/internal/apperr"
	"github.com/venueplatform/venue/internal/input"
)

// MaxDayClasses bounds ListDay.
const MaxDayClasses = 500

// Class is a class with its attendance counts, as the front desk sees it.
type Class struct {
	*ent.ClassInstance
	CheckedIn, NoShow int
}

// Started and Ended report the class's timing at now.
func (c Class) Started(now time.Time) bool { return !now.Before(c.StartTime) }

// Ended reports whether the class has ended at now.
func (c Class) Ended(now time.Time) bool { return !now.Before(c.EndTime) }

// Venue returns the viewer's venue and its time zone.
func Venue(ctx context.Context, client *ent.Client) (*ent.Organization, *time.Location, error) {
	o, err := client.Organization.Query().Only(ctx)
	if err != nil {
		return nil, nil, fmt.Errorf("frontdesk: venue: %w", err)
	}
	loc, err := time.LoadLocation(o.Timezone)
	if err != nil {
		loc = time.UTC
	}
	return o, loc, nil
}

// Day is a venue-local date.
type Day struct {
	Date time.Time // midnight in the venue's zone
}

// ParseDay reads a YYYY-MM-DD venue-local date; empty is today at now.
func ParseDay(s string, loc *time.Location, now time.Time) (Day, error) {
	if s == "" {
		y, m, d := now.In(loc).Date()
		return Day{Date: time.Date(y, m, d, 0, 0, 0, 0, loc)}, nil
	}
	t, err := time.ParseInLocation(time.DateOnly, s, loc)
	if err != nil {
		return Day{}, apperr.Validation("date", "date must be a date (YYYY-MM-DD)")
	}
	if e := input.Date(t); e != nil {
		return Day{}, apperr.Validation("date", "date "+e.Reason)
	}
	return Day{Date: t}, nil
}

// ListDay returns the classes starting on day, at location when given (a location the viewer
// cannot see is 404), ordered by start time, at most MaxDayClasses (truncated reports more).
func ListDay(ctx context.Context, client *ent.Client, day Day, locationID *uuid.UUID) ([]Class, bool, error) {
	if locationID != nil {
		ok, err := client.Location.Query().Where(location.ID(*locationID)).Exist(ctx)
		if err != nil {
			return nil, false, fmt.Errorf("frontdesk: location: %w", err)
		}
		if !ok {
			return nil, false, apperr.NotFound("location").With("parameter", "location_id")
		}
	}
	next := day.Date.AddDate(0, 0, 1)
	q := client.ClassInstance.Query().
		Where(classinstance.StartTimeGTE(day.Date), classinstance.StartTimeLT(next)).
		Order(classinstance.ByStartTime(), classinstance.ByID()).
		Limit(MaxDayClasses + 1)
	if locationID != nil {
		q.Where(classinstance.LocationID(*locationID))
	}
	cs, err := withRefs(q).All(ctx)
	if err != nil {
		return nil, false, fmt.Errorf("frontdesk: classes: %w", err)
	}
	truncated := len(cs) > MaxDayClasses
	if truncated {
		cs = cs[:MaxDayClasses]
	}
	out, err := withCounts(ctx, client, cs)
	return out, truncated, err
}

func withRefs(q *ent.ClassInstanceQuery) *ent.ClassInstanceQuery {
	return q.WithClassType().WithInstructor().WithLocation().WithRoom()
}

// withCounts adds the checked-in and no-show counts of cs in one query.
func withCounts(ctx context.Context, client *ent.Client, cs []*ent.ClassInstance) ([]Class, error) {
	out := make([]Class, len(cs))
	ids := make([]uuid.UUID, len(cs))
	idx := make(map[uuid.UUID]int, len(cs))
	for i, c := range cs {
		out[i] = Class{ClassInstance: c}
		ids[i] = c.ID
		idx[c.ID] = i
	}
	if len(cs) == 0 {
		return out, nil
	}
	var rows []struct {
		ClassInstanceID uuid.UUID `json:"class_instance_id"`
		Status          string    `json:"status"`
		Count           int       `json:"count"`
	}
	err := client.Booking.Query().
		Where(booking.ClassInstanceIDIn(ids...), booking.StatusIn(booking.StatusCheckedIn, booking.StatusNoShow)).
		GroupBy(booking.FieldClassInstanceID, booking.FieldStatus).
		Aggregate(ent.Count()).
		Scan(ctx, &rows)
	if err != nil {
		return nil, fmt.Errorf("frontdesk: counts: %w", err)
	}
	for _, r := range rows {
		c := &out[idx[r.ClassInstanceID]]
		if r.Status == string(booking.StatusCheckedIn) {
			c.CheckedIn = r.Count
		} else {
			c.NoShow = r.Count
		}
	}
	return out, nil
}

// loadClass returns the class id with its references and counts; unknown and foreign ids are
// 404.
func loadClass(ctx context.Context, client *ent.Client, id uuid.UUID) (Class, error) {
	c, err := withRefs(client.ClassInstance.Query().Where(classinstance.ID(id))).Only(ctx)
	if ent.IsNotFound(err) {
		return Class{}, apperr.NotFound("class")
	}
	if err != nil {
		return Class{}, fmt.Errorf("frontdesk: class: %w", err)
	}
	cs, err := withCounts(ctx, client, []*ent.ClassInstance{c})
	if err != nil {
		return Class{}, err
	}
	return cs[0], nil
}

// RosterResult is a class and its bookings.
type RosterResult struct {
	Class    Class
	Bookings []*ent.Booking
}

// historical are the booking statuses the roster hides by default.
var historical = []booking.Status{booking.StatusCancelled, booking.StatusLateCancelled}

// Roster returns the class and its bookings (member with account, pass with type): seat
// holders by arrival, then the waitlist in order, then (with includeHistorical) cancelled and
// late-cancelled ones by cancellation time.
func Roster(ctx context.Context, client *ent.Client, classID uuid.UUID, includeHistorical bool) (*RosterResult, error) {
	c, err := loadClass(ctx, client, classID)
	if err != nil {
		return nil, err
	}
	q := client.Booking.Query().Where(booking.ClassInstanceID(classID))
	if !includeHistorical {
		q.Where(booking.StatusNotIn(historical...))
	}
	bs, err := withBookingRefs(q).Order(booking.ByCreatedAt(), booking.ByID()).All(ctx)
	if err != nil {
		return nil, fmt.Errorf("frontdesk: roster: %w", err)
	}
	var seats, queue, gone []*ent.Booking
	for _, b := range bs {
		switch b.Status {
		case booking.StatusWaitlisted:
			queue = append(queue, b)
		case booking.StatusCancelled, booking.StatusLateCancelled:
			gone = append(gone, b)
		default:
			seats = append(seats, b)
		}
	}
	sortByPosition(queue)
	return &RosterResult{Class: c, Bookings: append(append(seats, queue...), gone...)}, nil
}

func withBookingRefs(q *ent.BookingQuery) *ent.BookingQuery {
	return q.WithMember(func(q *ent.MemberQuery) { q.WithUser() }).WithPass(func(q *ent.PassQuery) { q.WithPassType() })
}

func sortByPosition(bs []*ent.Booking) {
	pos := func(b *ent.Booking) int {
		if b.WaitlistPosition == nil {
			return 1 << 30
		}
		return *b.WaitlistPosition
	}
	for i := 1; i < len(bs); i++ {
		for j := i; j > 0 && pos(bs[j]) < pos(bs[j-1]); j-- {
			bs[j], bs[j-1] = bs[j-1], bs[j]
		}
	}
}

// loadBooking returns booking id of class classID with its references; a booking of another
// class, another venue or unknown is 404.
func loadBooking(ctx context.Context, client *ent.Client, classID, id uuid.UUID) (*ent.Booking, error) {
	b, err := withBookingRefs(client.Booking.Query().Where(booking.ID(id), booking.ClassInstanceID(classID))).Only(ctx)
	if ent.IsNotFound(err) {
		return nil, apperr.NotFound("booking")
	}
	if err != nil {
		return nil, fmt.Errorf("frontdesk: booking: %w", err)
	}
	return b, nil
}
