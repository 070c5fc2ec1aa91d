package rule_test

import (
	"context"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/venueplatform/venue/ent"
	"github.com/venueplatform/venue/ent/poscardsale"
	"github.com/venueplatform/venue/internal/model"
)

// Desk card sales waiting for their money (no references checked: the
// member, pass type and checkout are the sale's own, made by package pos).
func init() {
	noReferences = append(noReferences, "PosCardSale")
	worldExtras = append(worldExtras, func(t *testing.T, ctx context.Context, c *ent.Client, _ *world) map[string]uuid.UUID {
		t.Helper()
		return map[string]uuid.UUID{"PosCardSale": newPosCardSale(c).SaveX(ctx).ID}
	})
	cases["PosCardSale"] = venueCase{
		get: func(ctx context.Context, c *ent.Client, id uuid.UUID) error {
			return ignore(c.PosCardSale.Get(ctx, id))
		},
		update: func(ctx context.Context, c *ent.Client, id uuid.UUID) error {
			return c.PosCardSale.UpdateOneID(id).SetStatus(poscardsale.StatusLapsed).Exec(ctx)
		},
		delete: func(ctx context.Context, c *ent.Client, id uuid.UUID) error {
			return c.PosCardSale.DeleteOneID(id).Exec(ctx)
		},
		create: func(ctx context.Context, c *ent.Client, org, _ *world) (uuid.UUID, error) {
			return saved(inVenue(newPosCardSale(c), org).Save(ctx))
		},
	}
}

func newPosCardSale(c *ent.Client) *ent.PosCardSaleCreate {
	return c.PosCardSale.Create().SetRequestKey("rk_" + uuid.NewString()).SetKind(poscardsale.KindProducts).
		SetMethod(poscardsale.MethodPaymentLink).SetCurrency("DKK").SetSubtotalMinor(2500).SetVatMinor(500).
		SetVatRateBp(2500).SetTotalMinor(2500).SetLines([]model.PosLine{}).SetSoldByUserID(uuid.New()).
		SetBusinessDate(t0).SetHoldExpiresAt(t0.Add(30 * time.Minute))
}
