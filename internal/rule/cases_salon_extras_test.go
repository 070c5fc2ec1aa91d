package rule_test

import (
	"context"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/venueplatform/venue/ent"
)

// bundlePosition and shiftHour hand every bundle item and shift these tests
// create its own position and hour (a bundle's positions are unique, one
// person's shifts never overlap).
var (
	bundlePosition atomic.Int64
	shiftHour      atomic.Int64
)

func newBundle(c *ent.Client) *ent.ServiceBundleCreate {
	return c.ServiceBundle.Create().SetName("Cut & colour").SetPriceMinor(100).SetCurrency("DKK")
}

func newBundleItem(c *ent.Client, refs *world) *ent.ServiceBundleItemCreate {
	return c.ServiceBundleItem.Create().SetBundleID(refs.ids["ServiceBundle"]).SetServiceID(refs.ids["AppointmentService"]).
		SetPosition(int(bundlePosition.Add(1) % 8))
}

func newShift(c *ent.Client, refs *world) *ent.StaffShiftCreate {
	start := t0.Add(time.Duration(shiftHour.Add(1)) * 2 * time.Hour)
	return c.StaffShift.Create().SetStaffID(refs.ids["Instructor"]).SetStartsAt(start).SetEndsAt(start.Add(time.Hour))
}

// Bundles, their items and staff shifts: items reference their venue's
// bundle and service, shifts their venue's person and location.
func init() {
	worldExtras = append(worldExtras, func(t *testing.T, ctx context.Context, c *ent.Client, w *world) map[string]uuid.UUID {
		t.Helper()
		ids := map[string]uuid.UUID{"ServiceBundle": newBundle(c).SaveX(ctx).ID}
		w.ids["ServiceBundle"] = ids["ServiceBundle"]
		ids["ServiceBundleItem"] = c.ServiceBundleItem.Create().SetBundleID(ids["ServiceBundle"]).
			SetServiceID(w.ids["AppointmentService"]).SetPosition(0).SaveX(ctx).ID
		ids["StaffShift"] = newShift(c, w).SaveX(ctx).ID
		return ids
	})
	noReferences = append(noReferences, "ServiceBundle")
	cases["ServiceBundle"] = venueCase{
		get: func(ctx context.Context, c *ent.Client, id uuid.UUID) error {
			return ignore(c.ServiceBundle.Get(ctx, id))
		},
		update: func(ctx context.Context, c *ent.Client, id uuid.UUID) error {
			return c.ServiceBundle.UpdateOneID(id).SetName("Spa day").Exec(ctx)
		},
		delete: func(ctx context.Context, c *ent.Client, id uuid.UUID) error {
			return c.ServiceBundle.DeleteOneID(id).Exec(ctx)
		},
		create: func(ctx context.Context, c *ent.Client, org, refs *world) (uuid.UUID, error) {
			return saved(inVenue(newBundle(c), org).Save(ctx))
		},
	}
	cases["ServiceBundleItem"] = venueCase{
		get: func(ctx context.Context, c *ent.Client, id uuid.UUID) error {
			return ignore(c.ServiceBundleItem.Get(ctx, id))
		},
		update: func(ctx context.Context, c *ent.Client, id uuid.UUID) error {
			return c.ServiceBundleItem.UpdateOneID(id).SetUpdatedAt(time.Now()).Exec(ctx)
		},
		delete: func(ctx context.Context, c *ent.Client, id uuid.UUID) error {
			return c.ServiceBundleItem.DeleteOneID(id).Exec(ctx)
		},
		create: func(ctx context.Context, c *ent.Client, org, refs *world) (uuid.UUID, error) {
			return saved(inVenue(newBundleItem(c, refs), org).Save(ctx))
		},
	}
	cases["StaffShift"] = venueCase{
		get: func(ctx context.Context, c *ent.Client, id uuid.UUID) error { return ignore(c.StaffShift.Get(ctx, id)) },
		update: func(ctx context.Context, c *ent.Client, id uuid.UUID) error {
			return c.StaffShift.UpdateOneID(id).SetNote("front desk").Exec(ctx)
		},
		delete: func(ctx context.Context, c *ent.Client, id uuid.UUID) error {
			return c.StaffShift.DeleteOneID(id).Exec(ctx)
		},
		create: func(ctx context.Context, c *ent.Client, org, refs *world) (uuid.UUID, error) {
			return saved(inVenue(newShift(c, refs), org).Save(ctx))
		},
		attach: func(ctx context.Context, c *ent.Client, id uuid.UUID, refs *world) error {
			return c.StaffShift.UpdateOneID(id).SetLocationID(refs.ids["Location"]).Exec(ctx)
		},
	}
}
