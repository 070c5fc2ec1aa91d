package rule_test

import (
	"context"
	"testing"

	"github.com/google/uuid"

	"github.com/venueplatform/venue/ent"
	"github.com/venueplatform/venue/ent/bookingreassignment"
)

// A funding reassignment attempt references a booking and two passes: another venue's are
// refused on create.
func init() {
	worldExtras = append(worldExtras, func(t *testing.T, ctx context.Context, c *ent.Client, w *world) map[string]uuid.UUID {
		t.Helper()
		a := c.BookingReassignment.Create().SetBookingID(w.ids["Booking"]).SetOldPassID(w.ids["Pass"]).
			SetNewPassID(w.ids["Pass"]).SetStatus(bookingreassignment.StatusApplied).SaveX(ctx)
		return map[string]uuid.UUID{"BookingReassignment": a.ID}
	})
	cases["BookingReassignment"] = venueCase{
		get: func(ctx context.Context, c *ent.Client, id uuid.UUID) error {
			return ignore(c.BookingReassignment.Get(ctx, id))
		},
		update: func(ctx context.Context, c *ent.Client, id uuid.UUID) error {
			return c.BookingReassignment.UpdateOneID(id).SetClipTaken(true).Exec(ctx)
		},
		delete: func(ctx context.Context, c *ent.Client, id uuid.UUID) error {
			return c.BookingReassignment.DeleteOneID(id).Exec(ctx)
		},
		create: func(ctx context.Context, c *ent.Client, org, refs *world) (uuid.UUID, error) {
			// Closed rows: at most one pending attempt per booking.
			return saved(inVenue(c.BookingReassignment.Create().SetBookingID(refs.ids["Booking"]).
				SetNewPassID(refs.ids["Pass"]).SetStatus(bookingreassignment.StatusClosed), org).Save(ctx))
		},
	}
}
