package appointments

import (
	"context"
	"fmt"
	"net/http"
	"time"

	"github.com/google/uuid"

	"github.com/venueplatform/venue/ent"
	"github.com/venueplatform/venue/ent/staffshift"
	"github.com/venueplatform/venue/internal/apperr"
	"github.com/venueplatform/venue/internal/audit"
	"github.com/venueplatform/venue/internal/events"
	"github.com/venueplatform/venue/internal/viewer"
)

// Shift limits.
const (
	MaxShift          = 24 * time.Hour
	MaxShiftWindow    = 62 * 24 * time.Hour
	MaxShiftsListed   = 2000
	CodeShiftOverlaps = "SHIFT_OVERLAP"
)

// NewShift is a shift to add.
type NewShift struct {
	StaffID    uuid.UUID
	LocationID *uuid.UUID
	Start, End time.Time
	Note       string
}

// CreateShift adds a shift of the viewer's venue: more than zero and at
// most 24 hours (else 400), of a person and at a location of the venue
// (else 404); an overlap with another shift of the person is refused by the
// database (409 SHIFT_OVERLAP).
func CreateShift(ctx context.Context, client *ent.Client, p NewShift) (*ent.StaffShift, error) {
	if !p.End.After(p.Start) {
		return nil, apperr.Validation("end_time", "a shift ends after it starts")
	}
	if p.End.Sub(p.Start) > MaxShift {
		return nil, apperr.Validation("end_time", "a shift lasts at most 24 hours")
	}
	if _, err := client.Instructor.Get(ctx, p.StaffID); ent.IsNotFound(err) {
		return nil, apperr.NotFound("staff")
	} else if err != nil {
		return nil, fmt.Errorf("appointments: shift staff: %w", err)
	}
	if p.LocationID != nil {
		if _, err := client.Location.Get(ctx, *p.LocationID); ent.IsNotFound(err) {
			return nil, apperr.NotFound("location")
		} else if err != nil {
			return nil, fmt.Errorf("appointments: shift location: %w", err)
		}
	}
	var out *ent.StaffShift
	err := events.WithTx(ctx, client, func(ctx context.Context, tx *ent.Tx) error {
		var err error
		out, err = tx.StaffShift.Create().SetStaffID(p.StaffID).SetNillableLocationID(p.LocationID).
			SetStartsAt(p.Start.UTC()).SetEndsAt(p.End.UTC()).SetNote(p.Note).Save(ctx)
		if err != nil {
			return err
		}
		return shiftAudit(ctx, tx.Client(), "shift.created", out)
	})
	if IsOverlap(err) {
		return nil, &apperr.Error{Status: http.StatusConflict, Code: CodeShiftOverlaps,
			Message: "the shift overlaps another shift of the same person"}
	}
	if err != nil {
		return nil, err
	}
	return shiftOf(ctx, client, out.ID)
}

func shiftOf(ctx context.Context, client *ent.Client, id uuid.UUID) (*ent.StaffShift, error) {
	s, err := client.StaffShift.Query().Where(staffshift.ID(id)).WithStaff().WithLocation().Only(ctx)
	if ent.IsNotFound(err) {
		return nil, apperr.NotFound("shift")
	}
	return s, err
}

// Shifts lists the viewer's venue's shifts starting in [from, to) (at most
// 62 days), by start, optionally of one person; at most MaxShiftsListed+1
// rows, so the caller learns truncation.
func Shifts(ctx context.Context, client *ent.Client, from, to time.Time, staff *uuid.UUID) ([]*ent.StaffShift, error) {
	if !to.After(from) || to.Sub(from) > MaxShiftWindow {
		return nil, apperr.Validation("to", "the window is more than zero and at most 62 days")
	}
	q := client.StaffShift.Query().Where(staffshift.StartsAtGTE(from), staffshift.StartsAtLT(to)).
		WithStaff().WithLocation().Order(staffshift.ByStartsAt(), staffshift.ByID()).Limit(MaxShiftsListed + 1)
	if staff != nil {
		q.Where(staffshift.StaffID(*staff))
	}
	return q.All(ctx)
}

// DeleteShift removes shift id of the viewer's venue.
func DeleteShift(ctx context.Context, client *ent.Client, id uuid.UUID) error {
	s, err := client.StaffShift.Get(ctx, id)
	if ent.IsNotFound(err) {
		return apperr.NotFound("shift")
	}
	if err != nil {
		return err
	}
	return events.WithTx(ctx, client, func(ctx context.Context, tx *ent.Tx) error {
		if err := tx.StaffShift.DeleteOneID(id).Exec(ctx); err != nil {
			return err
		}
		return shiftAudit(ctx, tx.Client(), "shift.deleted", s)
	})
}

func shiftAudit(ctx context.Context, c *ent.Client, action string, s *ent.StaffShift) error {
	e := audit.Entry{Action: action, Target: "shift:" + s.ID.String(), Details: map[string]any{
		"staff_id": s.StaffID.String(), "starts_at": s.StartsAt.UTC().Format(time.RFC3339),
		"ends_at": s.EndsAt.UTC().Format(time.RFC3339)}}
	if u, ok := viewer.UserFromContext(ctx); ok {
		e.ActorKind = audit.KindUser
		e.UserID = &u.UserID
	}
	_, err := audit.Record(ctx, c, e)
	return err
}
