package reports

import (
	"fmt"
	"net/http"
	"time"

	"github.com/venueplatform/venue/internal/apperr"
)

// The range names of a report period.
const (
	RangeToday     = "today"
	RangeYesterday = "yesterday"
	Range7d        = "7d"
	RangeMTD       = "mtd"
	Range30d       = "30d"
	RangeCustom    = "custom"
)

// MaxRangeDays is the longest custom range.
const MaxRangeDays = 366

// CodeInvalidRange is the 400 of a period that cannot be read.
const CodeInvalidRange = "INVALID_RANGE"

// Period is an inclusive span of venue-local dates (each at midnight UTC).
type Period struct {
	Name     string
	From, To time.Time
}

// Days is the number of dates in p.
func (p Period) Days() int { return int(p.To.Sub(p.From).Hours()/24) + 1 }

// Bounds returns the instants bounding p in loc: start <= t < end.
func (p Period) Bounds(loc *time.Location) (time.Time, time.Time) {
	start := time.Date(p.From.Year(), p.From.Month(), p.From.Day(), 0, 0, 0, 0, loc)
	end := time.Date(p.To.Year(), p.To.Month(), p.To.Day()+1, 0, 0, 0, 0, loc)
	return start.UTC(), end.UTC()
}

// ErrInvalidRange is a 400 INVALID_RANGE naming the parameter at fault.
func ErrInvalidRange(parameter, message string) *apperr.Error {
	return (&apperr.Error{Status: http.StatusBadRequest, Code: CodeInvalidRange, Message: message}).With("parameter", parameter)
}

// ParsePeriod reads a report period: name (empty is today) relative to
// today (the venue-local date at midnight UTC), with from and to (nil when
// absent) only for custom.
func ParsePeriod(name string, from, to *time.Time, today time.Time) (Period, error) {
	if name == "" {
		name = RangeToday
	}
	if name != RangeCustom {
		if from != nil {
			return Period{}, ErrInvalidRange("from", "from and to go with range=custom")
		}
		if to != nil {
			return Period{}, ErrInvalidRange("to", "from and to go with range=custom")
		}
	}
	p := Period{Name: name, From: today, To: today}
	switch name {
	case RangeToday:
	case RangeYesterday:
		p.From, p.To = today.AddDate(0, 0, -1), today.AddDate(0, 0, -1)
	case Range7d:
		p.From = today.AddDate(0, 0, -6)
	case Range30d:
		p.From = today.AddDate(0, 0, -29)
	case RangeMTD:
		p.From = time.Date(today.Year(), today.Month(), 1, 0, 0, 0, 0, time.UTC)
	case RangeCustom:
		if from == nil {
			return Period{}, ErrInvalidRange("from", "range=custom needs from and to")
		}
		if to == nil {
			return Period{}, ErrInvalidRange("to", "range=custom needs from and to")
		}
		p.From, p.To = dateOf(*from), dateOf(*to)
		if p.To.Before(p.From) {
			return Period{}, ErrInvalidRange("to", "to is before from")
		}
		if p.Days() > MaxRangeDays {
			return Period{}, ErrInvalidRange("to", fmt.Sprintf("the range spans more than %d days", MaxRangeDays))
		}
	default:
		return Period{}, apperr.Validation("range", "range must be today, yesterday, 7d, mtd, 30d or custom")
	}
	return p, nil
}

func dateOf(t time.Time) time.Time {
	return time.Date(t.Year(), t.Month(), t.Day(), 0, 0, 0, 0, time.UTC)
}
