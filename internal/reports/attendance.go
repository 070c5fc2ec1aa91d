package reports

import (
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/google/uuid"

	"github.com/venueplatform/venue/ent"
	"github.com/venueplatform/venue/internal/system"
	"github.com/venueplatform/venue/internal/viewer"
)

// The views of the attendance report.
const (
	ViewClassDate  = "class_date"
	ViewActionDate = "action_date"
)

// Counts are the bookings of one date by what happened to them.
type Counts struct {
	Booked, CheckedIn, NoShow, LateCancelled, Cancelled, Waitlisted int64
}

func (c *Counts) add(what string, n int64) {
	switch what {
	case "booked":
		c.Booked += n
	case "checked_in":
		c.CheckedIn += n
	case "no_show":
		c.NoShow += n
	case "late_cancelled":
		c.LateCancelled += n
	case "cancelled":
		c.Cancelled += n
	case "waitlisted":
		c.Waitlisted += n
	}
}

func (c *Counts) plus(o Counts) {
	c.Booked += o.Booked
	c.CheckedIn += o.CheckedIn
	c.NoShow += o.NoShow
	c.LateCancelled += o.LateCancelled
	c.Cancelled += o.Cancelled
	c.Waitlisted += o.Waitlisted
}

// AttendanceDay is one date's counts.
type AttendanceDay struct {
	Date time.Time
	Counts
}

// Attendance is the attendance report of a period.
type Attendance struct {
	Period     Period
	Timezone   string
	View       string
	LocationID *uuid.UUID
	Days       []AttendanceDay // dates with a count, in order
	Totals     Counts
}

// classDateSQL counts the bookings of the classes starting in [$3, $4) by
// the class's venue-local date ($2 the zone) and the booking's status.
const classDateSQL = `
SELECT (ci.start_time AT TIME ZONE $2)::date AS day,
       CASE b.status WHEN 'checked_in' THEN 'checked_in' WHEN 'no-show' THEN 'no_show'
         WHEN 'late-cancelled' THEN 'late_cancelled' WHEN 'cancelled' THEN 'cancelled'
         WHEN 'waitlisted' THEN 'waitlisted' END AS what,
       count(*) AS n,
       count(*) FILTER (WHERE b.status IN ('confirmed', 'checked_in', 'no-show', 'pending_payment')) AS seats
FROM class_instances ci
JOIN bookings b ON b.class_instance_id = ci.id AND b.organization_id = $1
WHERE ci.organization_id = $1 AND ci.start_time >= $3 AND ci.start_time < $4
  AND ($5::uuid IS NULL OR ci.location_id = $5)
GROUP BY 1, 2`

// actionDateSQL counts each booking action on the venue-local date it
// happened: made (booked; waitlisted when still waitlisted), checked in,
// cancelled, late-cancelled, and a no-show on its class's date.
const actionDateSQL = `
SELECT (a.at AT TIME ZONE $2)::date AS day, a.what, count(*) AS n, count(*) AS seats
FROM bookings b
JOIN class_instances ci ON ci.id = b.class_instance_id AND ci.organization_id = $1
CROSS JOIN LATERAL (VALUES
    ('booked', b.created_at),
    ('waitlisted', CASE WHEN b.status = 'waitlisted' THEN b.created_at END),
    ('checked_in', CASE WHEN b.status = 'checked_in' THEN b.checked_in_at END),
    ('cancelled', CASE WHEN b.status = 'cancelled' THEN b.cancelled_at END),
    ('late_cancelled', CASE WHEN b.status = 'late-cancelled' THEN b.cancelled_at END),
    ('no_show', CASE WHEN b.status = 'no-show' THEN ci.start_time END)
  ) AS a(what, at)
WHERE b.organization_id = $1 AND a.at >= $3 AND a.at < $4
  AND ($5::uuid IS NULL OR ci.location_id = $5)
GROUP BY 1, 2`

// AttendanceReport counts the viewer's venue's bookings of period p (venue
// zone loc named tz) in view, optionally of one location's classes.
func AttendanceReport(ctx context.Context, client *ent.Client, p Period, loc *time.Location, tz, view string, locationID *uuid.UUID) (*Attendance, error) {
	if view == "" {
		view = ViewClassDate
	}
	if locationID != nil {
		if err := CheckLocation(ctx, client, *locationID); err != nil {
			return nil, err
		}
	}
	org, ok := viewer.VenueFromContext(ctx)
	if !ok {
		return nil, fmt.Errorf("reports: attendance without a venue")
	}
	q := classDateSQL
	if view == ViewActionDate {
		q = actionDateSQL
	}
	start, end := p.Bounds(loc)
	var locArg any
	if locationID != nil {
		locArg = *locationID
	}
	rows, err := client.QueryContext(system.RawSQL(ctx, "reports.class_counts"), q, org, tz, start, end, locArg)
	if err != nil {
		return nil, fmt.Errorf("reports: attendance: %w", err)
	}
	defer rows.Close()
	byDay := map[time.Time]*Counts{}
	for rows.Next() {
		var day time.Time
		var what *string
		var n, seats int64
		if err := rows.Scan(&day, &what, &n, &seats); err != nil {
			return nil, fmt.Errorf("reports: attendance: %w", err)
		}
		day = dateOf(day)
		c, ok := byDay[day]
		if !ok {
			c = &Counts{}
			byDay[day] = c
		}
		if view == ViewClassDate {
			c.Booked += seats
		}
		if what != nil && (view == ViewActionDate || *what != "booked") {
			c.add(*what, n)
		}
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("reports: attendance: %w", err)
	}
	out := &Attendance{Period: p, Timezone: tz, View: view, LocationID: locationID, Days: []AttendanceDay{}}
	for day, c := range byDay {
		out.Days = append(out.Days, AttendanceDay{Date: day, Counts: *c})
		out.Totals.plus(*c)
	}
	slices.SortFunc(out.Days, func(a, b AttendanceDay) int { return a.Date.Compare(b.Date) })
	return out, nil
}
