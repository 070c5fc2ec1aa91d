package rule_test

import (
	"context"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/venueplatform/venue/ent"
)

// Reports and the calendar: the daily sales rollup (written by the payments
// trigger; its brand and location are values, not edges) and calendar events
// (their location and room are checked by package schedule on create, not
// edges).
func init() {
	noReferences = append(noReferences, "SalesDaily", "CalendarEvent")
	worldExtras = append(worldExtras, func(t *testing.T, ctx context.Context, c *ent.Client, w *world) map[string]uuid.UUID {
		t.Helper()
		sd := newSalesDaily(c).SaveX(ctx)
		ev := newCalendarEvent(c).SaveX(ctx)
		return map[string]uuid.UUID{"SalesDaily": sd.ID, "CalendarEvent": ev.ID}
	})
	cases["SalesDaily"] = venueCase{
		get: func(ctx context.Context, c *ent.Client, id uuid.UUID) error { return ignore(c.SalesDaily.Get(ctx, id)) },
		update: func(ctx context.Context, c *ent.Client, id uuid.UUID) error {
			return c.SalesDaily.UpdateOneID(id).SetAmountMinor(1).Exec(ctx)
		},
		delete: func(ctx context.Context, c *ent.Client, id uuid.UUID) error {
			return c.SalesDaily.DeleteOneID(id).Exec(ctx)
		},
		create: func(ctx context.Context, c *ent.Client, org, _ *world) (uuid.UUID, error) {
			return saved(inVenue(newSalesDaily(c), org).Save(ctx))
		},
	}
	cases["CalendarEvent"] = venueCase{
		get: func(ctx context.Context, c *ent.Client, id uuid.UUID) error {
			return ignore(c.CalendarEvent.Get(ctx, id))
		},
		update: func(ctx context.Context, c *ent.Client, id uuid.UUID) error {
			return c.CalendarEvent.UpdateOneID(id).SetTitle("Moved").Exec(ctx)
		},
		delete: func(ctx context.Context, c *ent.Client, id uuid.UUID) error {
			return c.CalendarEvent.DeleteOneID(id).Exec(ctx)
		},
		create: func(ctx context.Context, c *ent.Client, org, _ *world) (uuid.UUID, error) {
			return saved(inVenue(newCalendarEvent(c), org).Save(ctx))
		},
	}
}

func newSalesDaily(c *ent.Client) *ent.SalesDailyCreate {
	// A random category keeps the rollup's unique key free across creates.
	return c.SalesDaily.Create().SetBasis("cash").SetDay(time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)).SetCurrency("DKK").
		SetMethod("card").SetCategory("c-" + uuid.NewString()[:8]).SetBrandID(uuid.Nil).SetLocationID(uuid.Nil).SetAmountMinor(100).SetPayments(1)
}

func newCalendarEvent(c *ent.Client) *ent.CalendarEventCreate {
	t0 := time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC)
	return c.CalendarEvent.Create().SetKind("maintenance").SetTitle("Floor").SetStartsAt(t0).SetEndsAt(t0.Add(time.Hour))
}
