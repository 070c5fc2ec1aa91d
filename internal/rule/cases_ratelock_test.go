package rule_test

import (
	"context"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/venueplatform/venue/ent"
)

// Rate locks: what a member's membership renews at until a day
// (referencing nothing by edge: billing.SetRateLock finds the pass and its
// subscription in the viewer's venue first).
func init() {
	worldExtras = append(worldExtras, func(t *testing.T, ctx context.Context, c *ent.Client, w *world) map[string]uuid.UUID {
		t.Helper()
		return map[string]uuid.UUID{"RateLock": newRateLock(c, w.ids["Member"], w.ids["Pass"]).SaveX(ctx).ID}
	})
	noReferences = append(noReferences, "RateLock")
	cases["RateLock"] = venueCase{
		get: func(ctx context.Context, c *ent.Client, id uuid.UUID) error {
			return ignore(c.RateLock.Get(ctx, id))
		},
		update: func(ctx context.Context, c *ent.Client, id uuid.UUID) error {
			return c.RateLock.UpdateOneID(id).SetReason("changed").Exec(ctx)
		},
		delete: func(ctx context.Context, c *ent.Client, id uuid.UUID) error {
			return c.RateLock.DeleteOneID(id).Exec(ctx)
		},
		create: func(ctx context.Context, c *ent.Client, org, refs *world) (uuid.UUID, error) {
			return saved(inVenue(newRateLock(c, refs.ids["Member"], refs.ids["Pass"]), org).Save(ctx))
		},
	}
}

// rateLockMemberRows adds a rate lock of member's pass (memberRows).
func rateLockMemberRows(client *ent.Client, w *world, member, pass uuid.UUID, rows map[string]uuid.UUID) map[string]uuid.UUID {
	rows["RateLock"] = newRateLock(client, member, pass).SaveX(w.ctx).ID
	return rows
}

func newRateLock(c *ent.Client, member, pass uuid.UUID) *ent.RateLockCreate {
	return c.RateLock.Create().SetPassID(pass).SetMemberID(member).SetSubscriptionID(uuid.New()).
		SetAmountMinor(30000).SetBaseAmountMinor(49900).SetCurrency("DKK").SetLockedUntil(time.Now().AddDate(0, 3, 0))
}
