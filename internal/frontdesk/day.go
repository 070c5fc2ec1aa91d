package frontdesk

import (
	"context"
	"fmt"
	"time"

	"github.com/venueplatform/venue/ent"
	"github.com/venueplatform/venue/ent/alert"
	"github.com/venueplatform/venue/ent/booking"
	"github.com/venueplatform/venue/ent/classinstance"
	bookingdom "github.com/venueplatform/venue/internal/booking"
)

// Ceilings of the list reads.
const (
	MaxBookings = 500
	MaxAlerts   = 100
)

// Bookings returns the bookings (every status) of the viewer's venue in
// classes starting in [start, end), ordered by class start, at most
// MaxBookings, and whether more exist. Each carries its Member (with User)
// and ClassInstance (with ClassType) edges.
func Bookings(ctx context.Context, client *ent.Client, start, end time.Time) ([]*ent.Booking, bool, error) {
	bs, err := client.Booking.Query().
		Where(booking.HasClassInstanceWith(classinstance.StartTimeGTE(start), classinstance.StartTimeLT(end))).
		WithMember(func(q *ent.MemberQuery) { q.WithUser() }).
		WithClassInstance(func(q *ent.ClassInstanceQuery) { q.WithClassType() }).
		Order(booking.ByClassInstanceField(classinstance.FieldStartTime), ent.Asc(booking.FieldCreatedAt), ent.Asc(booking.FieldID)).
		Limit(MaxBookings + 1).
		All(ctx)
	if err != nil {
		return nil, false, fmt.Errorf("bookings of the day: %w", err)
	}
	more := len(bs) > MaxBookings
	if more {
		bs = bs[:MaxBookings]
	}
	return bs, more, nil
}

// OpenAlerts returns the unresolved alerts of the viewer's venue, newest
// first, at most MaxAlerts, and whether more exist.
func OpenAlerts(ctx context.Context, client *ent.Client) ([]*ent.Alert, bool, error) {
	as, err := client.Alert.Query().
		Where(alert.Resolved(false)).
		Order(ent.Desc(alert.FieldCreatedAt), ent.Asc(alert.FieldID)).
		Limit(MaxAlerts + 1).
		All(ctx)
	if err != nil {
		return nil, false, fmt.Errorf("open alerts: %w", err)
	}
	more := len(as) > MaxAlerts
	if more {
		as = as[:MaxAlerts]
	}
	return as, more, nil
}

// Overview counts a day of the viewer's venue.
type Overview struct {
	// Classes are the listed, not cancelled classes starting in the day.
	Classes int `json:"classes"`
	// Bookings hold a seat in those classes; Waitlisted wait for one.
	Bookings   int `json:"bookings"`
	Waitlisted int `json:"waitlisted"`
	// OpenAlerts are the unresolved alerts (of any day).
	OpenAlerts int `json:"open_alerts"`
}

// DayOverview counts the classes starting in [start, end), their bookings and the
// open alerts.
func DayOverview(ctx context.Context, client *ent.Client, start, end time.Time) (Overview, error) {
	classes := classinstance.And(
		classinstance.StartTimeGTE(start), classinstance.StartTimeLT(end),
		classinstance.Listed(true), classinstance.StatusNEQ(classinstance.StatusCancelled),
	)
	var o Overview
	var err error
	if o.Classes, err = client.ClassInstance.Query().Where(classes).Count(ctx); err != nil {
		return o, fmt.Errorf("count classes: %w", err)
	}
	if o.Bookings, err = client.Booking.Query().
		Where(booking.StatusIn(bookingdom.SeatHolding...), booking.HasClassInstanceWith(classes)).Count(ctx); err != nil {
		return o, fmt.Errorf("count bookings: %w", err)
	}
	if o.Waitlisted, err = client.Booking.Query().
		Where(booking.StatusEQ(booking.StatusWaitlisted), booking.HasClassInstanceWith(classes)).Count(ctx); err != nil {
		return o, fmt.Errorf("count waitlist: %w", err)
	}
	if o.OpenAlerts, err = client.Alert.Query().Where(alert.Resolved(false)).Count(ctx); err != nil {
		return o, fmt.Errorf("count alerts: %w", err)
	}
	return o, nil
}
