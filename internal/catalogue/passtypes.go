package catalogue

import (
	"context"
	"fmt"

	"github.com/google/uuid"

	"github.com/venueplatform/venue/ent"
	"github.com/venueplatform/venue/ent/brand"
	"github.com/venueplatform/venue/ent/passtype"
	"github.com/venueplatform/venue/ent/predicate"
)

// PassTypeFilter selects pass types.
type PassTypeFilter struct {
	Category *passtype.Category
	// BrandID keeps pass types valid for the brand: those restricted to it
	// and the venue-wide ones without any brand restriction.
	BrandID *uuid.UUID
	// IncludeUnlisted also returns unlisted pass types (staff and key views).
	IncludeUnlisted bool
}

// PassTypes returns the active pass types of the viewer's venue matching f, in
// display order.
func PassTypes(ctx context.Context, client *ent.Client, f PassTypeFilter) ([]*ent.PassType, error) {
	preds := []predicate.PassType{passtype.Active(true)}
	if !f.IncludeUnlisted {
		preds = append(preds, passtype.Listed(true))
	}
	if f.Category != nil {
		preds = append(preds, passtype.CategoryEQ(*f.Category))
	}
	if f.BrandID != nil {
		preds = append(preds, passtype.Or(
			passtype.Not(passtype.HasAllowedBrands()),
			passtype.HasAllowedBrandsWith(brand.ID(*f.BrandID)),
		))
	}
	pts, err := client.PassType.Query().
		Where(preds...).
		Order(ent.Asc(passtype.FieldSortOrder), ent.Asc(passtype.FieldPriceMinor), ent.Asc(passtype.FieldName)).
		All(ctx)
	if err != nil {
		return nil, fmt.Errorf("query pass types: %w", err)
	}
	return pts, nil
}
