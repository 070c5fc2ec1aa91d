package schedule

import (
	"context"
	"fmt"
	"time"

	"github.com/google/uuid"

	"github.com/venueplatform/venue/ent"
	"github.com/venueplatform/venue/ent/classinstance"
	"github.com/venueplatform/venue/ent/predicate"
)

// Totals sums a day's timeline.
type Totals struct {
	Classes, Cancelled, Capacity, Booked, Waitlisted, CheckedIn int
}

// Timeline is the classes of one venue-local day.
type Timeline struct {
	Date   time.Time
	Rows   []StaffRow
	Totals Totals
}

// TodayTimeline returns the classes of the venue-local today (every status, ended
// ones included), ordered by start time, with totals over the classes that
// are not cancelled.
func TodayTimeline(ctx context.Context, client *ent.Client, v Venue, locationID *uuid.UUID, now time.Time) (Timeline, error) {
	day := v.Today(now)
	start, end := DateRange{From: day, To: day}.Bounds(v.Loc)
	preds := []predicate.ClassInstance{classinstance.StartTimeGTE(start), classinstance.StartTimeLT(end)}
	if locationID != nil {
		preds = append(preds, classinstance.LocationID(*locationID))
	}
	classes, err := withEdges(client.ClassInstance.Query().Where(preds...)).
		Order(ent.Asc(classinstance.FieldStartTime), ent.Asc(classinstance.FieldID)).
		Limit(MaxStaffListRows).All(ctx)
	if err != nil {
		return Timeline{}, fmt.Errorf("schedule: today: %w", err)
	}
	rows, err := rowsOf(ctx, client, classes, now)
	if err != nil {
		return Timeline{}, err
	}
	t := Timeline{Date: day, Rows: rows}
	for _, r := range rows {
		if r.Class.Status == classinstance.StatusCancelled {
			t.Totals.Cancelled++
			continue
		}
		t.Totals.Classes++
		t.Totals.Capacity += r.Class.Capacity
		t.Totals.Booked += r.Class.BookedCount
		t.Totals.Waitlisted += r.Class.WaitlistCount
		t.Totals.CheckedIn += r.CheckedIn
	}
	return t, nil
}

// Calendar limits.
const (
	MaxCalendarDays  = 62
	MaxCalendarItems = 2000
)

// CalendarKindClass is the kind of class items in the calendar feed.
const CalendarKindClass = "class"

// CalendarItem is one entry of the unified calendar feed. Class is set for
// kind class; later kinds add their own field.
type CalendarItem struct {
	Kind  string
	ID    uuid.UUID
	Start time.Time
	End   time.Time
	Class *StaffRow
}

// Calendar returns the feed items starting within r, ordered by start time,
// and whether the item limit cut it short. Only classes (every status,
// listed or not) are served in this version.
func Calendar(ctx context.Context, client *ent.Client, v Venue, r DateRange, now time.Time) ([]CalendarItem, bool, error) {
	start, end := r.Bounds(v.Loc)
	classes, err := withEdges(client.ClassInstance.Query().
		Where(classinstance.StartTimeGTE(start), classinstance.StartTimeLT(end))).
		Order(ent.Asc(classinstance.FieldStartTime), ent.Asc(classinstance.FieldID)).
		Limit(MaxCalendarItems + 1).All(ctx)
	if err != nil {
		return nil, false, fmt.Errorf("schedule: calendar: %w", err)
	}
	truncated := len(classes) > MaxCalendarItems
	if truncated {
		classes = classes[:MaxCalendarItems]
	}
	rows, err := rowsOf(ctx, client, classes, now)
	if err != nil {
		return nil, false, err
	}
	items := make([]CalendarItem, len(rows))
	for i := range rows {
		items[i] = CalendarItem{Kind: CalendarKindClass, ID: rows[i].Class.ID, Start: rows[i].Class.StartTime,
			End: rows[i].Class.EndTime, Class: &rows[i]}
	}
	return items, truncated, nil
}
