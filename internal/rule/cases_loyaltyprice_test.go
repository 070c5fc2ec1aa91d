package rule_test

import (
	"context"
	"testing"

	"github.com/google/uuid"

	"github.com/venueplatform/venue/ent"
)

// Loyalty prices: what one member pays for a pass type (referencing nothing
// by edge: billing.GrantLoyaltyPrice finds the member and the pass type in
// the viewer's venue first).
func init() {
	worldExtras = append(worldExtras, func(t *testing.T, ctx context.Context, c *ent.Client, w *world) map[string]uuid.UUID {
		t.Helper()
		return map[string]uuid.UUID{"LoyaltyPrice": newLoyaltyPrice(c, w.ids["Member"], w.ids["PassType"]).SaveX(ctx).ID}
	})
	noReferences = append(noReferences, "LoyaltyPrice")
	cases["LoyaltyPrice"] = venueCase{
		get: func(ctx context.Context, c *ent.Client, id uuid.UUID) error {
			return ignore(c.LoyaltyPrice.Get(ctx, id))
		},
		update: func(ctx context.Context, c *ent.Client, id uuid.UUID) error {
			return c.LoyaltyPrice.UpdateOneID(id).SetReason("changed").Exec(ctx)
		},
		delete: func(ctx context.Context, c *ent.Client, id uuid.UUID) error {
			return c.LoyaltyPrice.DeleteOneID(id).Exec(ctx)
		},
		create: func(ctx context.Context, c *ent.Client, org, refs *world) (uuid.UUID, error) {
			return saved(inVenue(newLoyaltyPrice(c, refs.ids["Member"], refs.ids["PassType"]), org).Save(ctx))
		},
	}
}

// loyaltyPriceMemberRows adds a loyalty price of member (memberRows).
func loyaltyPriceMemberRows(client *ent.Client, w *world, member uuid.UUID, rows map[string]uuid.UUID) map[string]uuid.UUID {
	rows["LoyaltyPrice"] = newLoyaltyPrice(client, member, w.ids["PassType"]).SaveX(w.ctx).ID
	return rows
}

func newLoyaltyPrice(c *ent.Client, member, passType uuid.UUID) *ent.LoyaltyPriceCreate {
	return c.LoyaltyPrice.Create().SetMemberID(member).SetUserID(uuid.New()).SetPassTypeID(passType).
		SetAmountMinor(30000).SetCurrency("DKK")
}
