package booking

import (
	"context"
	"fmt"
	"time"

	"github.com/google/uuid"

	"github.com/venueplatform/venue/ent"
)

// Policy is a venue's booking rules (the BookingPolicy row, or the defaults).
type Policy struct {
	// OpensBefore and ClosesBefore place the booking window before a
	// class's start: booking is open in [start-OpensBefore, start-ClosesBefore).
	OpensBefore, ClosesBefore time.Duration
	// LateCancel is how close to the start a cancellation is late.
	LateCancel time.Duration
	// LateCancelForfeitsClip keeps the clip of a late-cancelled booking.
	LateCancelForfeitsClip bool
	// LateCancelFeeMinor is the fee of a late cancellation; FeeByPassType
	// overrides it per pass type id.
	LateCancelFeeMinor int64
	FeeByPassType      map[string]int64
	// DailyLimit bounds a member's live bookings per venue-local day; 0 is
	// no limit.
	DailyLimit int
}

// DefaultPolicy is the policy of a venue without a BookingPolicy row.
func DefaultPolicy() Policy {
	return Policy{
		OpensBefore:            30 * 24 * time.Hour,
		LateCancel:             12 * time.Hour,
		LateCancelForfeitsClip: true,
	}
}

// LoadPolicy returns the booking policy of the viewer's venue.
func LoadPolicy(ctx context.Context, client *ent.Client) (Policy, error) {
	row, err := client.BookingPolicy.Query().Only(ctx)
	if ent.IsNotFound(err) {
		return DefaultPolicy(), nil
	}
	if err != nil {
		return Policy{}, fmt.Errorf("booking: policy: %w", err)
	}
	return Policy{
		OpensBefore:            time.Duration(row.OpensMinutesBefore) * time.Minute,
		ClosesBefore:           time.Duration(row.ClosesMinutesBefore) * time.Minute,
		LateCancel:             time.Duration(row.LateCancelMinutes) * time.Minute,
		LateCancelForfeitsClip: row.LateCancelForfeitsClip,
		LateCancelFeeMinor:     row.LateCancelFeeMinor,
		FeeByPassType:          row.LateCancelFeeByPassType,
		DailyLimit:             row.DailyLimit,
	}, nil
}

// SetPolicy stores p as the booking policy of the viewer's venue.
func SetPolicy(ctx context.Context, client *ent.Client, p Policy) error {
	row, err := client.BookingPolicy.Query().Only(ctx)
	if err != nil && !ent.IsNotFound(err) {
		return fmt.Errorf("booking: policy: %w", err)
	}
	if row == nil {
		err = client.BookingPolicy.Create().
			SetOpensMinutesBefore(int(p.OpensBefore / time.Minute)).
			SetClosesMinutesBefore(int(p.ClosesBefore / time.Minute)).
			SetLateCancelMinutes(int(p.LateCancel / time.Minute)).
			SetLateCancelForfeitsClip(p.LateCancelForfeitsClip).
			SetLateCancelFeeMinor(p.LateCancelFeeMinor).
			SetLateCancelFeeByPassType(p.FeeByPassType).
			SetDailyLimit(p.DailyLimit).Exec(ctx)
	} else {
		err = client.BookingPolicy.UpdateOneID(row.ID).
			SetOpensMinutesBefore(int(p.OpensBefore / time.Minute)).
			SetClosesMinutesBefore(int(p.ClosesBefore / time.Minute)).
			SetLateCancelMinutes(int(p.LateCancel / time.Minute)).
			SetLateCancelForfeitsClip(p.LateCancelForfeitsClip).
			SetLateCancelFeeMinor(p.LateCancelFeeMinor).
			SetLateCancelFeeByPassType(p.FeeByPassType).
			SetDailyLimit(p.DailyLimit).Exec(ctx)
	}
	if err != nil {
		return fmt.Errorf("booking: set policy: %w", err)
	}
	return nil
}

// Window returns when booking a class starting at start opens and closes.
func (p Policy) Window(start time.Time) (opens, closes time.Time) {
	return start.Add(-p.OpensBefore), start.Add(-p.ClosesBefore)
}

// IsLate reports whether cancelling at now a class starting at start is a
// late cancellation.
func (p Policy) IsLate(start, now time.Time) bool {
	return !now.Before(start.Add(-p.LateCancel))
}

// Fee returns the late-cancellation fee of a booking made with a pass of
// pass type passType (nil: no pass).
func (p Policy) Fee(passType *uuid.UUID) int64 {
	if passType != nil {
		if fee, ok := p.FeeByPassType[passType.String()]; ok {
			return fee
		}
	}
	return p.LateCancelFeeMinor
}
