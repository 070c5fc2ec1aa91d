package schedule

import (
	"context"
	"net/http"
	"time"

	"github.com/google/uuid"

	"github.com/venueplatform/venue/ent"
	"github.com/venueplatform/venue/internal/apperr"
	"github.com/venueplatform/venue/internal/events"
)

// MaxSeriesClasses is the most classes one weekly series creates (a year).
const MaxSeriesClasses = 53

// CreateParams is a class (or a weekly series of it) to create.
type CreateParams struct {
	ClassTypeID  uuid.UUID
	InstructorID *uuid.UUID
	LocationID   *uuid.UUID
	RoomID       *uuid.UUID
	Start, End   time.Time
	Capacity     int
	Online       bool
	// RepeatUntil, when set, repeats the class every week at the same
	// venue-local wall-clock time while its venue-local date is on or
	// before this date (YYYY-MM-DD as a UTC midnight).
	RepeatUntil *time.Time
}

// Create creates the class p describes (or its weekly series) in the
// viewer's venue, in one transaction with an audit entry (schedule.create)
// per class; a series keeps its wall-clock time across daylight-saving
// changes. The end must be after the start, the start in the future, and a
// series at most MaxSeriesClasses long (400 VALIDATION_ERROR otherwise);
// another venue's class type, instructor, location or room is 404
// NOT_FOUND. The caller authorized the write.
func Create(ctx context.Context, client *ent.Client, p CreateParams, now time.Time) ([]StaffRow, error) {
	if !p.End.After(p.Start) {
		return nil, &apperr.Error{Status: http.StatusBadRequest, Code: "INVALID_RANGE", Message: "end_time must be after start_time"}
	}
	if !p.Start.After(now) {
		return nil, apperr.Validation("start_time", "start_time must be in the future")
	}
	v, err := LoadVenue(ctx, client)
	if err != nil {
		return nil, err
	}
	starts := []time.Time{p.Start}
	if p.RepeatUntil != nil {
		first := p.Start.In(v.Loc)
		until := *p.RepeatUntil
		starts = starts[:0]
		for k := 0; ; k++ {
			s := time.Date(first.Year(), first.Month(), first.Day()+7*k, first.Hour(), first.Minute(), first.Second(), 0, v.Loc)
			if time.Date(s.Year(), s.Month(), s.Day(), 0, 0, 0, 0, time.UTC).After(until) {
				break
			}
			if len(starts) == MaxSeriesClasses {
				return nil, apperr.Validation("repeat_weekly_until", "a series has at most 53 classes")
			}
			starts = append(starts, s)
		}
		if len(starts) == 0 {
			return nil, apperr.Validation("repeat_weekly_until", "repeat_weekly_until is before the first class")
		}
	}
	length := p.End.Sub(p.Start)
	var rows []StaffRow
	err = events.WithTx(ctx, client, func(ctx context.Context, tx *ent.Tx) error {
		c := tx.Client()
		series := uuid.New()
		for _, s := range starts {
			cl, err := c.ClassInstance.Create().SetClassTypeID(p.ClassTypeID).SetNillableInstructorID(p.InstructorID).
				SetNillableLocationID(p.LocationID).SetNillableRoomID(p.RoomID).SetStartTime(s).SetEndTime(s.Add(length)).
				SetCapacity(p.Capacity).SetOnline(p.Online).Save(ctx)
			if err != nil {
				return err
			}
			details := map[string]any{"start_time": s.UTC().Format(time.RFC3339), "capacity": p.Capacity}
			if len(starts) > 1 {
				details["series_id"] = series.String()
			}
			if err := auditClass(ctx, c, "schedule.create", cl.ID, details); err != nil {
				return err
			}
			row, err := loadRow(ctx, c, cl.ID, now)
			if err != nil {
				return err
			}
			rows = append(rows, row)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return rows, nil
}
