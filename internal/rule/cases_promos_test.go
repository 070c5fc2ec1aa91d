package rule_test

import (
	"context"
	"testing"

	"github.com/google/uuid"

	"github.com/venueplatform/venue/ent"
	"github.com/venueplatform/venue/ent/promocode"
	"github.com/venueplatform/venue/ent/promoredemption"
)

// Promo codes (no references checked: the pass types and products they
// name are ids in a list the promos package checks) and their redemptions
// (referencing the code and the member).
func init() {
	noReferences = append(noReferences, "PromoCode")
	worldExtras = append(worldExtras, func(t *testing.T, ctx context.Context, c *ent.Client, w *world) map[string]uuid.UUID {
		t.Helper()
		code := newPromoCode(c).SaveX(ctx).ID
		w.ids["PromoCode"] = code
		return map[string]uuid.UUID{
			"PromoCode":       code,
			"PromoRedemption": newPromoRedemption(c, code, w.ids["Member"]).SaveX(ctx).ID,
		}
	})
	cases["PromoCode"] = venueCase{
		get: func(ctx context.Context, c *ent.Client, id uuid.UUID) error {
			return ignore(c.PromoCode.Get(ctx, id))
		},
		update: func(ctx context.Context, c *ent.Client, id uuid.UUID) error {
			return c.PromoCode.UpdateOneID(id).SetActive(false).Exec(ctx)
		},
		delete: func(ctx context.Context, c *ent.Client, id uuid.UUID) error {
			return c.PromoCode.DeleteOneID(id).Exec(ctx)
		},
		create: func(ctx context.Context, c *ent.Client, org, _ *world) (uuid.UUID, error) {
			return saved(inVenue(newPromoCode(c), org).Save(ctx))
		},
	}
	cases["PromoRedemption"] = venueCase{
		get: func(ctx context.Context, c *ent.Client, id uuid.UUID) error {
			return ignore(c.PromoRedemption.Get(ctx, id))
		},
		update: func(ctx context.Context, c *ent.Client, id uuid.UUID) error {
			return c.PromoRedemption.UpdateOneID(id).SetStatus(promoredemption.StatusReleased).Exec(ctx)
		},
		delete: func(ctx context.Context, c *ent.Client, id uuid.UUID) error {
			return c.PromoRedemption.DeleteOneID(id).Exec(ctx)
		},
		create: func(ctx context.Context, c *ent.Client, org, refs *world) (uuid.UUID, error) {
			return saved(inVenue(newPromoRedemption(c, refs.ids["PromoCode"], refs.ids["Member"]), org).Save(ctx))
		},
	}
}

// promoMemberRows adds a member's promo redemption (memberRows).
func promoMemberRows(client *ent.Client, w *world, member uuid.UUID, rows map[string]uuid.UUID) map[string]uuid.UUID {
	rows["PromoRedemption"] = newPromoRedemption(client, w.ids["PromoCode"], member).SaveX(w.ctx).ID
	return rows
}

func newPromoCode(c *ent.Client) *ent.PromoCodeCreate {
	return c.PromoCode.Create().SetCode("C" + uuid.NewString()[:8]).SetDiscountKind(promocode.DiscountKindPercent).
		SetPercentOff(10)
}

func newPromoRedemption(c *ent.Client, code, member uuid.UUID) *ent.PromoRedemptionCreate {
	return c.PromoRedemption.Create().SetPromoCodeID(code).SetMemberID(member).SetSubjectID(uuid.New()).
		SetStatus(promoredemption.StatusHeld).SetDiscountMinor(500).SetCurrency("DKK")
}
