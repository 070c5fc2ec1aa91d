package booking

import (
	"context"
	"fmt"
	"time"

	"github.com/google/uuid"

	"github.com/venueplatform/venue/ent"
	entbooking "github.com/venueplatform/venue/ent/booking"
	"github.com/venueplatform/venue/internal/events"
)

// ReasonClassCancelled is the cancel_reason (and booking.cancelled
// data.reason) of bookings cancelled with their class.
const ReasonClassCancelled = "class_cancelled"

// CancelClass cancels every live booking of the class classID that has not
// been attended — confirmed, waitlisted and pending_payment — because the
// class itself is cancelled: each becomes cancelled (cancelled_at now,
// cancel_reason class_cancelled, off the waitlist), every clip a booking took
// is restored to its pass, nobody is promoted, and booking.cancelled is
// recorded for each (data.reason class_cancelled). Checked-in and no-show
// bookings are left as they are. It returns the cancelled bookings, in
// creation order.
//
// It locks the class row first (the lock every booking change takes). Call
// it from inside events.WithTx with the transaction's context and
// tx.Client() to make it part of a larger change (the class's own status
// update, its class.cancelled event): it then joins that transaction;
// otherwise it runs in a transaction of its own. ctx must carry a venue
// viewer that can write the class's venue (a class the viewer cannot see is
// ErrClassNotFound). It does not change the class's status.
func CancelClass(ctx context.Context, client *ent.Client, classID uuid.UUID, now time.Time) ([]*ent.Booking, error) {
	var out []*ent.Booking
	err := events.WithTx(ctx, client, func(ctx context.Context, tx *ent.Tx) error {
		c := tx.Client()
		if _, err := lockClass(ctx, c, classID); err != nil {
			return err
		}
		live, err := c.Booking.Query().Where(entbooking.ClassInstanceID(classID), entbooking.StatusIn(CancelledWithClass...)).
			Order(ent.Asc(entbooking.FieldCreatedAt), ent.Asc(entbooking.FieldID)).All(ctx)
		if err != nil {
			return fmt.Errorf("booking: cancel class: %w", err)
		}
		var restore []uuid.UUID
		for _, b := range live {
			if b.ClipCharged && b.PassID != nil {
				restore = append(restore, *b.PassID)
			}
		}
		if err := restoreClips(ctx, c, restore); err != nil {
			return err
		}
		for _, b := range live {
			nb, err := c.Booking.UpdateOne(b).SetStatus(entbooking.StatusCancelled).SetCancelledAt(now).
				SetCancelReason(ReasonClassCancelled).ClearWaitlistPosition().SetClipCharged(false).Save(ctx)
			if err != nil {
				return fmt.Errorf("booking: cancel class: %w", err)
			}
			if err := record(ctx, c, events.BookingCancelled, nb, map[string]any{
				"reason": ReasonClassCancelled, "clip_restored": b.ClipCharged,
			}); err != nil {
				return err
			}
			out = append(out, nb)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}
