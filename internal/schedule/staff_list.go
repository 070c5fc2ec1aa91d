package schedule

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/google/uuid"

	"github.com/venueplatform/venue/ent"
	"github.com/venueplatform/venue/ent/classinstance"
	"github.com/venueplatform/venue/ent/predicate"
	"github.com/venueplatform/venue/internal/apperr"
	"github.com/venueplatform/venue/internal/input"
)

// Limits of the staff list.
const (
	// MaxStaffListDays is the widest range GET /admin/schedule accepts.
	MaxStaffListDays = 92
	// DefaultDays is the default range length (start plus six days).
	DefaultDays = 7
	// MaxStaffListRows caps the rows of one list (meta.truncated).
	MaxStaffListRows = 1000
	// AvailabilityMaxDays and AvailabilityMaxRows bound the windows for which
	// a list includes notification availability (contract's Limits).
	AvailabilityMaxDays = 62
	AvailabilityMaxRows = 300
)

// DateRange is an inclusive range of venue-local dates (midnight UTC values).
type DateRange struct {
	From, To time.Time
}

// Days is the number of dates in r.
func (r DateRange) Days() int { return int(r.To.Sub(r.From).Hours()/24) + 1 }

// Bounds returns the instants bounding r in loc.
func (r DateRange) Bounds(loc *time.Location) (time.Time, time.Time) {
	return DayRange(r.From, r.To, loc)
}

// ParseRange parses a date range given as YYYY-MM-DD strings named fromName
// and toName: empty from is today, empty to is from plus DefaultDays-1. A
// malformed date is 400 VALIDATION_ERROR naming it; to before from, or more
// than maxDays dates, is 400 INVALID_RANGE.
func ParseRange(fromName, from, toName, to string, today time.Time, maxDays int) (DateRange, error) {
	parse := func(name, s string) (time.Time, error) {
		d, err := time.Parse(time.DateOnly, strings.TrimSpace(s))
		if err != nil {
			return time.Time{}, apperr.Validation(name, name+" must be a date, YYYY-MM-DD")
		}
		if e := input.Date(d); e != nil {
			return time.Time{}, apperr.Validation(name, name+" "+e.Reason)
		}
		return d, nil
	}
	r := DateRange{From: today}
	var err error
	if from != "" {
		if r.From, err = parse(fromName, from); err != nil {
			return DateRange{}, err
		}
	}
	r.To = r.From.AddDate(0, 0, DefaultDays-1)
	if to != "" {
		if r.To, err = parse(toName, to); err != nil {
			return DateRange{}, err
		}
	}
	if r.To.Before(r.From) {
		return DateRange{}, ErrInvalidRange(toName, toName+" is before "+fromName)
	}
	if r.Days() > maxDays {
		return DateRange{}, ErrInvalidRange(toName, fmt.Sprintf("the range spans more than %d days", maxDays))
	}
	return r, nil
}

// StaffListParams select the classes of the staff list.
type StaffListParams struct {
	Range             DateRange
	IncludeHistorical bool
	LocationID        *uuid.UUID
	Now               time.Time
}

// StaffListResult is one page of the staff list.
type StaffListResult struct {
	Rows []StaffRow
	// HistoricalExcluded counts ended classes of the range left out.
	HistoricalExcluded int
	Truncated          bool
}

// StaffList returns the class instances of the viewer's venue starting within p's
// range (every status, listed or not), ordered by start time. The caller
// checks that the viewer may see historical classes before asking for them.
func StaffList(ctx context.Context, client *ent.Client, v Venue, p StaffListParams) (StaffListResult, error) {
	start, end := p.Range.Bounds(v.Loc)
	preds := []predicate.ClassInstance{classinstance.StartTimeGTE(start), classinstance.StartTimeLT(end)}
	if p.LocationID != nil {
		preds = append(preds, classinstance.LocationID(*p.LocationID))
	}
	var res StaffListResult
	if !p.IncludeHistorical {
		n, err := client.ClassInstance.Query().Where(append(preds, classinstance.EndTimeLTE(p.Now))...).Count(ctx)
		if err != nil {
			return StaffListResult{}, fmt.Errorf("schedule: count historical: %w", err)
		}
		res.HistoricalExcluded = n
		preds = append(preds, classinstance.EndTimeGT(p.Now))
	}
	classes, err := withEdges(client.ClassInstance.Query().Where(preds...)).
		Order(ent.Asc(classinstance.FieldStartTime), ent.Asc(classinstance.FieldID)).
		Limit(MaxStaffListRows + 1).
		All(ctx)
	if err != nil {
		return StaffListResult{}, fmt.Errorf("schedule: list classes: %w", err)
	}
	if len(classes) > MaxStaffListRows {
		classes, res.Truncated = classes[:MaxStaffListRows], true
	}
	if res.Rows, err = rowsOf(ctx, client, classes, p.Now); err != nil {
		return StaffListResult{}, err
	}
	return res, nil
}

// StaffGet returns one class of the viewer's venue, historical or not (the row
// says which).
func StaffGet(ctx context.Context, client *ent.Client, id uuid.UUID, now time.Time) (StaffRow, error) {
	return loadRow(ctx, client, id, now)
}
