package fees

import (
	"context"
	"fmt"

	"github.com/venueplatform/venue/ent"
	"github.com/venueplatform/venue/ent/booking"
	"github.com/venueplatform/venue/ent/pass"
	bookingpolicy "github.com/venueplatform/venue/internal/booking"
)

// Raising fees. A late cancellation owes its fee when the member cancels
// (internal/booking). A no-show owes the same fee under the same venue
// policy (the booking policy's late-cancel fee, per pass type where the
// venue set one): a no-show is a cancellation at the last possible moment.
// The fee is raised when staff mark the booking no-show and lifted again,
// while still unpaid, when staff correct it back to confirmed or checked in;
// a fee already charged, settled or waived stays as it is.

// OnAttendance raises or lifts the no-show fee of booking b whose
// attendance staff change to to, on upd (the booking's pending update in
// the change's transaction).
func OnAttendance(ctx context.Context, tx *ent.Tx, b *ent.Booking, to booking.Status, upd *ent.BookingUpdateOne) error {
	switch {
	case to == booking.StatusNoShow && b.FeeStatus == nil:
		pol, err := bookingpolicy.LoadPolicy(ctx, tx.Client())
		if err != nil {
			return err
		}
		fee := pol.Fee(nil)
		if b.PassID != nil {
			p, err := tx.Pass.Query().Where(pass.ID(*b.PassID)).Only(ctx)
			if err != nil && !ent.IsNotFound(err) {
				return fmt.Errorf("fees: pass: %w", err)
			}
			if p != nil {
				fee = pol.Fee(&p.PassTypeID)
			}
		}
		if fee > 0 {
			upd.SetLateCancelFeeMinor(fee).SetFeeStatus(booking.FeeStatusUnpaid)
		}
	case b.Status == booking.StatusNoShow && to != booking.StatusNoShow &&
		b.FeeStatus != nil && *b.FeeStatus == booking.FeeStatusUnpaid:
		if err := liveCollection(ctx, tx, b.ID); err != nil {
			return err
		}
		upd.ClearLateCancelFeeMinor().ClearFeeStatus()
	}
	return nil
}
