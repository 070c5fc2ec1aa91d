package reports

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/google/uuid"

	"github.com/venueplatform/venue/ent"
	"github.com/venueplatform/venue/ent/salesdaily"
	"github.com/venueplatform/venue/internal/system"
	"github.com/venueplatform/venue/internal/viewer"
)

// BrandEntry is one brand's figures; BrandID nil is what belongs to no brand.
type BrandEntry struct {
	BrandID                   *uuid.UUID
	Name                      string
	Classes, CancelledClasses int64
	Booked, CheckedIn         int64
	Sales                     []Amount // cash basis, per currency
	real                      bool
}

// BrandReport is brand analytics of a period.
type BrandReport struct {
	Period   Period
	Timezone string
	Brands   []BrandEntry
}

// brandClassesSQL counts the classes starting in [$2, $3) by their class
// type's brand, with their seat-holding bookings and check-ins.
const brandClassesSQL = `
SELECT ct.brand_id,
       count(*) FILTER (WHERE ci.status <> 'cancelled') AS classes,
       count(*) FILTER (WHERE ci.status = 'cancelled') AS cancelled,
       coalesce(sum(ci.booked_count) FILTER (WHERE ci.status <> 'cancelled'), 0)::bigint AS booked,
       coalesce(sum(ck.n), 0)::bigint AS checked_in
FROM class_instances ci
JOIN class_types ct ON ct.id = ci.class_type_id AND ct.organization_id = $1
LEFT JOIN LATERAL (SELECT count(*) AS n FROM bookings b
    WHERE b.class_instance_id = ci.id AND b.organization_id = $1 AND b.status = 'checked_in') ck ON true
WHERE ci.organization_id = $1 AND ci.start_time >= $2 AND ci.start_time < $3
GROUP BY ct.brand_id`

// BrandAnalytics returns, per brand of the viewer's venue (and one entry for
// no brand), the classes, bookings and check-ins of period p and its sales
// (cash basis), ordered by name with the no-brand entry last.
func BrandAnalytics(ctx context.Context, client *ent.Client, p Period, loc *time.Location, tz string) (*BrandReport, error) {
	org, ok := viewer.VenueFromContext(ctx)
	if !ok {
		return nil, fmt.Errorf("reports: brands without a venue")
	}
	brands, err := client.Brand.Query().All(ctx)
	if err != nil {
		return nil, fmt.Errorf("reports: brands: %w", err)
	}
	entries := map[uuid.UUID]*BrandEntry{uuid.Nil: {}}
	for _, b := range brands {
		id := b.ID
		entries[id] = &BrandEntry{BrandID: &id, Name: b.Name, real: true}
	}
	start, end := p.Bounds(loc)
	rows, err := client.QueryContext(system.RawSQL(ctx, "reports.class_counts"), brandClassesSQL, org, start, end)
	if err != nil {
		return nil, fmt.Errorf("reports: brand classes: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var id *uuid.UUID
		var c BrandEntry
		if err := rows.Scan(&id, &c.Classes, &c.CancelledClasses, &c.Booked, &c.CheckedIn); err != nil {
			return nil, fmt.Errorf("reports: brand classes: %w", err)
		}
		key := uuid.Nil
		if id != nil {
			key = *id
		}
		if e, ok := entries[key]; ok {
			e.Classes, e.CancelledClasses, e.Booked, e.CheckedIn = c.Classes, c.CancelledClasses, c.Booked, c.CheckedIn
		}
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("reports: brand classes: %w", err)
	}
	var sales []struct {
		BrandID  uuid.UUID `json:"brand_id"`
		Currency string    `json:"currency"`
		Sum      int64     `json:"sum"`
		Count    int64     `json:"count"`
	}
	err = client.SalesDaily.Query().
		Where(salesdaily.BasisEQ(salesdaily.BasisCash), salesdaily.DayGTE(p.From), salesdaily.DayLTE(p.To)).
		GroupBy(salesdaily.FieldBrandID, salesdaily.FieldCurrency).
		Aggregate(sumAs(salesdaily.FieldAmountMinor, "sum"), sumAs(salesdaily.FieldPayments, "count")).
		Scan(ctx, &sales)
	if err != nil {
		return nil, fmt.Errorf("reports: brand sales: %w", err)
	}
	for _, s := range sales {
		e, ok := entries[s.BrandID]
		if !ok || (s.Count == 0 && s.Sum == 0) {
			continue // a brand deleted since, or sales taken back out
		}
		e.Sales = append(e.Sales, Amount{Currency: s.Currency, AmountMinor: s.Sum, Payments: s.Count})
	}
	out := &BrandReport{Period: p, Timezone: tz}
	for _, e := range entries {
		slices.SortFunc(e.Sales, func(a, b Amount) int { return strings.Compare(a.Currency, b.Currency) })
		if e.Sales == nil {
			e.Sales = []Amount{}
		}
		out.Brands = append(out.Brands, *e)
	}
	slices.SortFunc(out.Brands, func(a, b BrandEntry) int {
		if a.real != b.real {
			if a.real {
				return -1
			}
			return 1
		}
		if c := strings.Compare(a.Name, b.Name); c != 0 {
			return c
		}
		if a.BrandID == nil || b.BrandID == nil {
			return 0
		}
		return strings.Compare(a.BrandID.String(), b.BrandID.String())
	})
	return out, nil
}
