package rule_test

import (
	"context"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/venueplatform/venue/ent"
)

// Late fees on renewals: a venue's late fee policy, and the late fee an
// unpaid renewal invoice owes (referencing the member).
func init() {
	worldExtras = append(worldExtras, func(t *testing.T, ctx context.Context, c *ent.Client, w *world) map[string]uuid.UUID {
		t.Helper()
		return map[string]uuid.UUID{"LateFee": newLateFee(c, w.ids["Member"]).SaveX(ctx).ID,
			"LateFeePolicy":         newLateFeePolicy(c).SaveX(ctx).ID,
			"RenewalReminderPolicy": c.RenewalReminderPolicy.Create().SetDaysBefore([]int{3}).SetPreviewHash("h").SaveX(ctx).ID}
	})
	cases["LateFee"] = venueCase{
		get: func(ctx context.Context, c *ent.Client, id uuid.UUID) error {
			return ignore(c.LateFee.Get(ctx, id))
		},
		update: func(ctx context.Context, c *ent.Client, id uuid.UUID) error {
			return c.LateFee.UpdateOneID(id).SetWaiveReason("because").Exec(ctx)
		},
		delete: func(ctx context.Context, c *ent.Client, id uuid.UUID) error {
			return c.LateFee.DeleteOneID(id).Exec(ctx)
		},
		create: func(ctx context.Context, c *ent.Client, org, refs *world) (uuid.UUID, error) {
			return saved(inVenue(newLateFee(c, refs.ids["Member"]), org).Save(ctx))
		},
	}
	noReferences = append(noReferences, "LateFeePolicy", "RenewalReminderPolicy")
	cases["RenewalReminderPolicy"] = venueCase{
		get: func(ctx context.Context, c *ent.Client, id uuid.UUID) error {
			return ignore(c.RenewalReminderPolicy.Get(ctx, id))
		},
		update: func(ctx context.Context, c *ent.Client, id uuid.UUID) error {
			return c.RenewalReminderPolicy.UpdateOneID(id).SetDaysBefore([]int{1}).Exec(ctx)
		},
		delete: func(ctx context.Context, c *ent.Client, id uuid.UUID) error {
			return c.RenewalReminderPolicy.DeleteOneID(id).Exec(ctx)
		},
		create: func(ctx context.Context, c *ent.Client, org, refs *world) (uuid.UUID, error) {
			// One row per venue: make room for the new one first.
			if _, err := c.RenewalReminderPolicy.Delete().Exec(ctx); err != nil {
				return uuid.Nil, err
			}
			return saved(inVenue(c.RenewalReminderPolicy.Create().SetDaysBefore([]int{2}).SetPreviewHash("h"), org).Save(ctx))
		},
	}
	cases["LateFeePolicy"] = venueCase{
		get: func(ctx context.Context, c *ent.Client, id uuid.UUID) error {
			return ignore(c.LateFeePolicy.Get(ctx, id))
		},
		update: func(ctx context.Context, c *ent.Client, id uuid.UUID) error {
			return c.LateFeePolicy.UpdateOneID(id).SetGraceDays(7).Exec(ctx)
		},
		delete: func(ctx context.Context, c *ent.Client, id uuid.UUID) error {
			return c.LateFeePolicy.DeleteOneID(id).Exec(ctx)
		},
		create: func(ctx context.Context, c *ent.Client, org, refs *world) (uuid.UUID, error) {
			return saved(inVenue(newLateFeePolicy(c).SetCurrency(randomCurrency()), org).Save(ctx))
		},
	}
}

// lateFeeMemberRows adds a member's late fee (memberRows).
func lateFeeMemberRows(client *ent.Client, w *world, member uuid.UUID, rows map[string]uuid.UUID) map[string]uuid.UUID {
	rows["LateFee"] = newLateFee(client, member).SaveX(w.ctx).ID
	return rows
}

func newLateFee(c *ent.Client, member uuid.UUID) *ent.LateFeeCreate {
	return c.LateFee.Create().SetMemberID(member).SetInvoiceID(uuid.New()).SetAmountMinor(5000).
		SetCurrency("DKK").SetAppliedAt(time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC))
}

func newLateFeePolicy(c *ent.Client) *ent.LateFeePolicyCreate {
	return c.LateFeePolicy.Create().SetCurrency("DKK").SetAmountMinor(5000).SetGraceDays(3)
}

// randomCurrency is a currency code no other policy of the test uses (one
// policy per venue and currency).
func randomCurrency() string {
	b, id := []byte("Q"), uuid.New()
	for _, x := range id[:2] {
		b = append(b, 'A'+x%26)
	}
	return string(b)
}
