package rule_test

import (
	"context"
	"testing"

	"github.com/google/uuid"

	"github.com/venueplatform/venue/ent"
)

// Desk charges: a charge the front desk made to a member's saved card
// (referencing the member).
func init() {
	worldExtras = append(worldExtras, func(t *testing.T, ctx context.Context, c *ent.Client, w *world) map[string]uuid.UUID {
		t.Helper()
		return map[string]uuid.UUID{"DeskCharge": newDeskCharge(c, w.ids["Member"]).SaveX(ctx).ID}
	})
	cases["DeskCharge"] = venueCase{
		get: func(ctx context.Context, c *ent.Client, id uuid.UUID) error {
			return ignore(c.DeskCharge.Get(ctx, id))
		},
		update: func(ctx context.Context, c *ent.Client, id uuid.UUID) error {
			return c.DeskCharge.UpdateOneID(id).SetPaymentIntentID("pi_" + uuid.NewString()).Exec(ctx)
		},
		delete: func(ctx context.Context, c *ent.Client, id uuid.UUID) error {
			return c.DeskCharge.DeleteOneID(id).Exec(ctx)
		},
		create: func(ctx context.Context, c *ent.Client, org, refs *world) (uuid.UUID, error) {
			return saved(inVenue(newDeskCharge(c, refs.ids["Member"]), org).Save(ctx))
		},
	}
}

// deskChargeMemberRows adds a member's desk charge (memberRows).
func deskChargeMemberRows(client *ent.Client, w *world, member uuid.UUID, rows map[string]uuid.UUID) map[string]uuid.UUID {
	rows["DeskCharge"] = newDeskCharge(client, member).SaveX(w.ctx).ID
	return rows
}

func newDeskCharge(c *ent.Client, member uuid.UUID) *ent.DeskChargeCreate {
	return c.DeskCharge.Create().SetMemberID(member).SetRequestKey("rk_" + uuid.NewString()).
		SetAmountMinor(12500).SetCurrency("DKK").SetPaymentMethodID("pm_visa")
}
