package rule_test

import (
	"context"
	"testing"

	"github.com/google/uuid"

	"github.com/venueplatform/venue/ent"
	"github.com/venueplatform/venue/ent/bookingpolicy"
	"github.com/venueplatform/venue/ent/buddyinvite"
)

func init() {
	worldExtras = append(worldExtras, func(t *testing.T, ctx context.Context, c *ent.Client, w *world) map[string]uuid.UUID {
		pol := c.BookingPolicy.Create().SetDailyLimit(2).SaveX(ctx)
		inv := c.BuddyInvite.Create().SetClassInstanceID(w.ids["ClassInstance"]).SetInviterMemberID(w.ids["Member"]).
			SetInviterBookingID(w.ids["Booking"]).SetInviteeMemberID(w.ids["Member"]).SetExpiresAt(t0).SaveX(ctx)
		return map[string]uuid.UUID{"BookingPolicy": pol.ID, "BuddyInvite": inv.ID}
	})
	// A booking policy references no other venue row.
	noReferences = append(noReferences, "BookingPolicy")

	cases["BookingPolicy"] = venueCase{
		get: func(ctx context.Context, c *ent.Client, id uuid.UUID) error {
			return ignore(c.BookingPolicy.Get(ctx, id))
		},
		update: func(ctx context.Context, c *ent.Client, id uuid.UUID) error {
			return c.BookingPolicy.UpdateOneID(id).SetDailyLimit(3).Exec(ctx)
		},
		delete: func(ctx context.Context, c *ent.Client, id uuid.UUID) error {
			return c.BookingPolicy.DeleteOneID(id).Exec(ctx)
		},
		// One row per venue: a second create in the same venue updates it
		// (an upsert on the venue), so both creates answer the same row.
		create: func(ctx context.Context, c *ent.Client, org, refs *world) (uuid.UUID, error) {
			return inVenue(c.BookingPolicy.Create().SetDailyLimit(1), org).
				OnConflictColumns(bookingpolicy.FieldOrganizationID).UpdateNewValues().ID(ctx)
		},
	}
	cases["BuddyInvite"] = venueCase{
		get: func(ctx context.Context, c *ent.Client, id uuid.UUID) error {
			return ignore(c.BuddyInvite.Get(ctx, id))
		},
		update: func(ctx context.Context, c *ent.Client, id uuid.UUID) error {
			return c.BuddyInvite.UpdateOneID(id).SetStatus(buddyinvite.StatusDeclined).Exec(ctx)
		},
		delete: func(ctx context.Context, c *ent.Client, id uuid.UUID) error {
			return c.BuddyInvite.DeleteOneID(id).Exec(ctx)
		},
		create: func(ctx context.Context, c *ent.Client, org, refs *world) (uuid.UUID, error) {
			return saved(inVenue(c.BuddyInvite.Create().SetClassInstanceID(refs.ids["ClassInstance"]).
				SetInviterMemberID(refs.ids["Member"]).SetInviterBookingID(refs.ids["Booking"]).
				SetInviteeMemberID(refs.ids["Member"]).SetExpiresAt(t0), org).Save(ctx))
		},
		attach: func(ctx context.Context, c *ent.Client, id uuid.UUID, refs *world) error {
			return c.BuddyInvite.UpdateOneID(id).SetBookingID(refs.ids["Booking"]).Exec(ctx)
		},
	}
}
