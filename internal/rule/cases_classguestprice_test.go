package rule_test

import (
	"context"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/venueplatform/venue/ent"
)

// Class guest prices: staff's guest price of one class (referencing the
// class).
func init() {
	worldExtras = append(worldExtras, func(t *testing.T, ctx context.Context, c *ent.Client, w *world) map[string]uuid.UUID {
		t.Helper()
		return map[string]uuid.UUID{"ClassGuestPrice": newClassGuestPrice(c, w.ids["ClassInstance"]).SaveX(ctx).ID}
	})
	cases["ClassGuestPrice"] = venueCase{
		get: func(ctx context.Context, c *ent.Client, id uuid.UUID) error {
			return ignore(c.ClassGuestPrice.Get(ctx, id))
		},
		update: func(ctx context.Context, c *ent.Client, id uuid.UUID) error {
			return c.ClassGuestPrice.UpdateOneID(id).SetAmountMinor(12300).Exec(ctx)
		},
		delete: func(ctx context.Context, c *ent.Client, id uuid.UUID) error {
			return c.ClassGuestPrice.DeleteOneID(id).Exec(ctx)
		},
		create: func(ctx context.Context, c *ent.Client, org, refs *world) (uuid.UUID, error) {
			// One price per class: each create prices a class of its own,
			// made from refs' rows (another venue's rows are not found).
			t0 := time.Now().Add(72 * time.Hour)
			class, err := c.ClassInstance.Create().SetClassTypeID(refs.ids["ClassType"]).
				SetInstructorID(refs.ids["Instructor"]).SetRoomID(refs.ids["Room"]).SetLocationID(refs.ids["Location"]).
				SetStartTime(t0).SetEndTime(t0.Add(time.Hour)).SetCapacity(8).Save(ctx)
			if err != nil {
				return uuid.Nil, err
			}
			return saved(inVenue(newClassGuestPrice(c, class.ID), org).Save(ctx))
		},
	}
}

func newClassGuestPrice(c *ent.Client, class uuid.UUID) *ent.ClassGuestPriceCreate {
	return c.ClassGuestPrice.Create().SetClassInstanceID(class).SetAmountMinor(9900).SetCurrency("DKK")
}
