package frontdesk

import (
	"context"
	"fmt"
	"time"

	"github.com/google/uuid"

	"github.com/venueplatform/venue/ent"
	"github.com/venueplatform/venue/ent/booking"
	"github.com/venueplatform/venue/ent/classinstance"
	"github.com/venueplatform/venue/internal/apperr"
	"github.com/venueplatform/venue/internal/audit"
	"github.com/venueplatform/venue/internal/concurrency"
	"github.com/venueplatform/venue/internal/events"
)

// Write is what a booking write returns: the booking as it is now and whether it changed.
type Write struct {
	Booking *ent.Booking
	Changed bool
}

// locked is a booking locked for the rest of a transaction, with its class.
type locked struct {
	class   *ent.ClassInstance
	booking *ent.Booking
}

// lock locks booking id of class classID (the class row first, then the booking, the order
// package booking uses) and checks tok against it when tok is set.
func lock(ctx context.Context, tx *ent.Client, classID, id uuid.UUID, tok concurrency.Token) (*locked, error) {
	c, err := tx.ClassInstance.Query().Where(classinstance.ID(classID)).ForUpdate().Only(ctx)
	if ent.IsNotFound(err) {
		return nil, apperr.NotFound("class")
	}
	if err != nil {
		return nil, fmt.Errorf("frontdesk: lock class: %w", err)
	}
	b, err := tx.Booking.Query().Where(booking.ID(id), booking.ClassInstanceID(classID)).ForUpdate().Only(ctx)
	if ent.IsNotFound(err) {
		return nil, apperr.NotFound("booking")
	}
	if err != nil {
		return nil, fmt.Errorf("frontdesk: lock booking: %w", err)
	}
	if !tok.IsZero() && !tok.Matches(b.UpdatedAt) {
		return nil, concurrency.Stale(b.UpdatedAt)
	}
	return &locked{class: c, booking: b}, nil
}

// reload reads a booking with its references after a write.
func reload(ctx context.Context, client *ent.Client, b *ent.Booking) (*ent.Booking, error) {
	return loadBooking(ctx, client, b.ClassInstanceID, b.ID)
}

// CheckIn marks a confirmed booking checked in at now, from checkinOpensBeforeStart before the
// class starts until it ends. A booking already checked in is answered unchanged.
func CheckIn(ctx context.Context, client *ent.Client, classID, bookingID uuid.UUID, tok concurrency.Token, now time.Time) (*Write, error) {
	var out *Write
	err := events.WithTx(ctx, client, func(ctx context.Context, tx *ent.Tx) error {
		l, err := lock(ctx, tx.Client(), classID, bookingID, tok)
		if err != nil {
			return err
		}
		c, b := l.class, l.booking
		if c.Status == classinstance.StatusCancelled {
			return errClassCancelled()
		}
		if b.Status == booking.StatusCheckedIn {
			out = &Write{Booking: b}
			return nil
		}
		if b.Status != booking.StatusConfirmed {
			return errInvalidTransition(string(b.Status))
		}
		opens := c.StartTime.Add(-checkinOpensBeforeStart)
		if now.Before(opens) || !now.Before(c.EndTime) {
			e := unprocessable(CodeCheckinClosed, "check-in is open from an hour before the class until it ends").
				With("opens_at", opens.UTC().Format(time.RFC3339)).With("closes_at", c.EndTime.UTC().Format(time.RFC3339))
			if !now.Before(c.EndTime) {
				e = e.With("next_step", nextStepAttendanceCorrect)
			}
			return e
		}
		nb, err := tx.Booking.UpdateOne(b).SetStatus(booking.StatusCheckedIn).SetCheckedInAt(now).Save(ctx)
		if err != nil {
			return fmt.Errorf("frontdesk: check in: %w", err)
		}
		if _, err := audit.Record(ctx, tx.Client(), audit.Entry{Action: "checkin.check_in", Target: "booking:" + b.ID.String(),
			Details: map[string]any{"class_instance_id": classID.String(), "member_id": b.MemberID.String()}}); err != nil {
			return err
		}
		out = &Write{Booking: nb, Changed: true}
		return nil
	})
	if err != nil {
		return nil, err
	}
	b, err := reload(ctx, client, out.Booking)
	if err != nil {
		return nil, err
	}
	out.Booking = b
	return out, nil
}
