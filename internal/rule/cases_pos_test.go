package rule_test

import (
	"context"
	"sync/atomic"
	"testing"

	"github.com/google/uuid"

	"github.com/venueplatform/venue/ent"
	"github.com/venueplatform/venue/ent/posfavorites"
	"github.com/venueplatform/venue/ent/possale"
	"github.com/venueplatform/venue/ent/stockmovement"
	"github.com/venueplatform/venue/internal/model"
)

// The point of sale: products and their price books and stock movements
// (referencing a product), desk sales, returns, day closes, quick-sale pins
// (one row per venue) and staff kiosk PINs.
func init() {
	noReferences = append(noReferences, "Product", "PosSale", "PosReturn", "PosDayClose", "PosFavorites", "StaffPin")
	worldExtras = append(worldExtras, func(t *testing.T, ctx context.Context, c *ent.Client, w *world) map[string]uuid.UUID {
		t.Helper()
		p := newProduct(c).SaveX(ctx)
		w.ids["Product"] = p.ID
		return map[string]uuid.UUID{
			"Product":       p.ID,
			"ProductPrice":  newProductPrice(c, p.ID).SaveX(ctx).ID,
			"StockMovement": newStockMovement(c, p.ID).SaveX(ctx).ID,
			"PosSale":       newPosSale(c).SaveX(ctx).ID,
			"PosReturn":     newPosReturn(c).SaveX(ctx).ID,
			"PosDayClose":   newDayClose(c).SaveX(ctx).ID,
			"PosFavorites":  c.PosFavorites.Create().SetPinned([]model.PosPin{}).SetUpdatedByUserID(uuid.New()).SaveX(ctx).ID,
			"StaffPin":      newStaffPin(c).SaveX(ctx).ID,
		}
	})
	simple := func(get func(context.Context, *ent.Client, uuid.UUID) error, update, del func(context.Context, *ent.Client, uuid.UUID) error,
		create func(context.Context, *ent.Client, *world, *world) (uuid.UUID, error)) venueCase {
		return venueCase{get: get, update: update, delete: del, create: create}
	}
	cases["Product"] = simple(
		func(ctx context.Context, c *ent.Client, id uuid.UUID) error { return ignore(c.Product.Get(ctx, id)) },
		func(ctx context.Context, c *ent.Client, id uuid.UUID) error {
			return c.Product.UpdateOneID(id).SetName("Mat " + uuid.NewString()[:4]).Exec(ctx)
		},
		func(ctx context.Context, c *ent.Client, id uuid.UUID) error {
			return c.Product.DeleteOneID(id).Exec(ctx)
		},
		func(ctx context.Context, c *ent.Client, org, _ *world) (uuid.UUID, error) {
			return saved(inVenue(newProduct(c), org).Save(ctx))
		})
	cases["ProductPrice"] = simple(
		func(ctx context.Context, c *ent.Client, id uuid.UUID) error {
			return ignore(c.ProductPrice.Get(ctx, id))
		},
		func(ctx context.Context, c *ent.Client, id uuid.UUID) error {
			return c.ProductPrice.UpdateOneID(id).SetPriceMinor(3000).Exec(ctx)
		},
		func(ctx context.Context, c *ent.Client, id uuid.UUID) error {
			return c.ProductPrice.DeleteOneID(id).Exec(ctx)
		},
		func(ctx context.Context, c *ent.Client, org, refs *world) (uuid.UUID, error) {
			return saved(inVenue(newProductPrice(c, refs.ids["Product"]).SetCurrency(currencies[next()%len(currencies)]), org).Save(ctx))
		})
	cases["StockMovement"] = simple(
		func(ctx context.Context, c *ent.Client, id uuid.UUID) error {
			return ignore(c.StockMovement.Get(ctx, id))
		},
		func(ctx context.Context, c *ent.Client, id uuid.UUID) error {
			return c.StockMovement.UpdateOneID(id).Exec(ctx)
		},
		func(ctx context.Context, c *ent.Client, id uuid.UUID) error {
			return c.StockMovement.DeleteOneID(id).Exec(ctx)
		},
		func(ctx context.Context, c *ent.Client, org, refs *world) (uuid.UUID, error) {
			return saved(inVenue(newStockMovement(c, refs.ids["Product"]), org).Save(ctx))
		})
	cases["PosSale"] = simple(
		func(ctx context.Context, c *ent.Client, id uuid.UUID) error { return ignore(c.PosSale.Get(ctx, id)) },
		func(ctx context.Context, c *ent.Client, id uuid.UUID) error {
			return c.PosSale.UpdateOneID(id).Exec(ctx)
		},
		func(ctx context.Context, c *ent.Client, id uuid.UUID) error {
			return c.PosSale.DeleteOneID(id).Exec(ctx)
		},
		func(ctx context.Context, c *ent.Client, org, _ *world) (uuid.UUID, error) {
			return saved(inVenue(newPosSale(c), org).Save(ctx))
		})
	cases["PosReturn"] = simple(
		func(ctx context.Context, c *ent.Client, id uuid.UUID) error { return ignore(c.PosReturn.Get(ctx, id)) },
		func(ctx context.Context, c *ent.Client, id uuid.UUID) error {
			return c.PosReturn.UpdateOneID(id).Exec(ctx)
		},
		func(ctx context.Context, c *ent.Client, id uuid.UUID) error {
			return c.PosReturn.DeleteOneID(id).Exec(ctx)
		},
		func(ctx context.Context, c *ent.Client, org, _ *world) (uuid.UUID, error) {
			return saved(inVenue(newPosReturn(c), org).Save(ctx))
		})
	cases["PosDayClose"] = simple(
		func(ctx context.Context, c *ent.Client, id uuid.UUID) error {
			return ignore(c.PosDayClose.Get(ctx, id))
		},
		func(ctx context.Context, c *ent.Client, id uuid.UUID) error {
			return c.PosDayClose.UpdateOneID(id).SetNote("recount").Exec(ctx)
		},
		func(ctx context.Context, c *ent.Client, id uuid.UUID) error {
			return c.PosDayClose.DeleteOneID(id).Exec(ctx)
		},
		func(ctx context.Context, c *ent.Client, org, _ *world) (uuid.UUID, error) {
			return saved(inVenue(newDayClose(c), org).Save(ctx))
		})
	cases["PosFavorites"] = simple(
		func(ctx context.Context, c *ent.Client, id uuid.UUID) error {
			return ignore(c.PosFavorites.Get(ctx, id))
		},
		func(ctx context.Context, c *ent.Client, id uuid.UUID) error {
			return c.PosFavorites.UpdateOneID(id).SetPinned([]model.PosPin{}).Exec(ctx)
		},
		func(ctx context.Context, c *ent.Client, id uuid.UUID) error {
			return c.PosFavorites.DeleteOneID(id).Exec(ctx)
		},
		func(ctx context.Context, c *ent.Client, org, _ *world) (uuid.UUID, error) {
			// One row per venue: a second create of the venue's row replaces it.
			return inVenue(c.PosFavorites.Create().SetPinned([]model.PosPin{}).SetUpdatedByUserID(uuid.New()), org).
				OnConflictColumns(posfavorites.FieldOrganizationID).UpdateNewValues().ID(ctx)
		})
	cases["StaffPin"] = simple(
		func(ctx context.Context, c *ent.Client, id uuid.UUID) error { return ignore(c.StaffPin.Get(ctx, id)) },
		func(ctx context.Context, c *ent.Client, id uuid.UUID) error {
			return c.StaffPin.UpdateOneID(id).SetPinHash("$argon2id$other").Exec(ctx)
		},
		func(ctx context.Context, c *ent.Client, id uuid.UUID) error {
			return c.StaffPin.DeleteOneID(id).Exec(ctx)
		},
		func(ctx context.Context, c *ent.Client, org, _ *world) (uuid.UUID, error) {
			return saved(inVenue(newStaffPin(c), org).Save(ctx))
		})
}

var (
	posCounter atomic.Int64
	currencies = []string{"EUR", "SEK", "NOK", "USD", "GBP", "CHF", "PLN", "JPY", "CAD", "AUD"}
)

func next() int { return int(posCounter.Add(1)) }

func newProduct(c *ent.Client) *ent.ProductCreate {
	return c.Product.Create().SetName("Mat").SetStockOnHand(5)
}

func newProductPrice(c *ent.Client, product uuid.UUID) *ent.ProductPriceCreate {
	return c.ProductPrice.Create().SetProductID(product).SetCurrency("DKK").SetPriceMinor(2500)
}

func newStockMovement(c *ent.Client, product uuid.UUID) *ent.StockMovementCreate {
	return c.StockMovement.Create().SetProductID(product).SetKind(stockmovement.KindAdjustment).SetDelta(5).SetStockAfter(5)
}

func newPosSale(c *ent.Client) *ent.PosSaleCreate {
	return c.PosSale.Create().SetRequestKey("rk_" + uuid.NewString()).SetKind(possale.KindProducts).
		SetMethod(possale.MethodCash).SetCurrency("DKK").SetSubtotalMinor(2500).SetVatMinor(500).SetVatRateBp(2500).
		SetTotalMinor(2500).SetLines([]model.PosLine{}).SetPaymentID(uuid.New()).SetSoldByUserID(uuid.New()).SetBusinessDate(t0)
}

func newPosReturn(c *ent.Client) *ent.PosReturnCreate {
	return c.PosReturn.Create().SetRequestKey("return-" + uuid.NewString()).SetBodyDigest("d").
		SetLines([]model.PosLine{}).SetReason("torn").SetUserID(uuid.New())
}

func newDayClose(c *ent.Client) *ent.PosDayCloseCreate {
	return c.PosDayClose.Create().SetBusinessDate(t0.AddDate(0, 0, -next())).SetCurrency("DKK").
		SetTotals([]model.PosMethodTotal{}).SetExpectedCashMinor(0).SetCountedCashMinor(0).SetDifferenceMinor(0).
		SetClosedByUserID(uuid.New()).SetClosedAt(t0)
}

func newStaffPin(c *ent.Client) *ent.StaffPinCreate {
	return c.StaffPin.Create().SetUserID(uuid.New()).SetPinHash("$argon2id$test")
}
