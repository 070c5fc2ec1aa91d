package rule_test

import (
	"context"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/venueplatform/venue/ent"
)

// Payment overrides: staff's amount for an upcoming billing period of a
// membership (referencing nothing by edge).
func init() {
	worldExtras = append(worldExtras, func(t *testing.T, ctx context.Context, c *ent.Client, w *world) map[string]uuid.UUID {
		t.Helper()
		o := newPaymentOverride(c, w.ids["Pass"]).SaveX(ctx)
		return map[string]uuid.UUID{"PaymentOverride": o.ID}
	})
	noReferences = append(noReferences, "PaymentOverride")
	cases["PaymentOverride"] = venueCase{
		get: func(ctx context.Context, c *ent.Client, id uuid.UUID) error {
			return ignore(c.PaymentOverride.Get(ctx, id))
		},
		update: func(ctx context.Context, c *ent.Client, id uuid.UUID) error {
			return c.PaymentOverride.UpdateOneID(id).SetAmountMinor(100).Exec(ctx)
		},
		delete: func(ctx context.Context, c *ent.Client, id uuid.UUID) error {
			return c.PaymentOverride.DeleteOneID(id).Exec(ctx)
		},
		create: func(ctx context.Context, c *ent.Client, org, refs *world) (uuid.UUID, error) {
			return saved(inVenue(newPaymentOverride(c, refs.ids["Pass"]), org).Save(ctx))
		},
	}
}

func newPaymentOverride(c *ent.Client, pass uuid.UUID) *ent.PaymentOverrideCreate {
	start := time.Now().Add(time.Duration(time.Now().UnixNano()%1000) * time.Hour)
	return c.PaymentOverride.Create().SetSubscriptionID(uuid.New()).SetPassID(pass).
		SetPeriodStart(start).SetPeriodEnd(start.AddDate(0, 1, 0)).SetAmountMinor(0)
}
