package pos

import (
	"context"
	"fmt"

	"github.com/google/uuid"

	"github.com/venueplatform/venue/ent"
	"github.com/venueplatform/venue/ent/passtype"
	"github.com/venueplatform/venue/ent/posfavorites"
	"github.com/venueplatform/venue/ent/product"
	"github.com/venueplatform/venue/internal/apperr"
	"github.com/venueplatform/venue/internal/model"
)

// MaxPins is how many quick-sale pins a venue keeps (contract: at most 24).
const MaxPins = 24

// Favorites is the venue's quick-sale pins in order; empty before any are
// set. Needs pos.access.
func (s *Service) Favorites(ctx context.Context) ([]model.PosPin, error) {
	if _, err := Staff(ctx, false, PermAccess); err != nil {
		return nil, err
	}
	f, err := s.client.PosFavorites.Query().Only(ctx)
	switch {
	case ent.IsNotFound(err):
		return []model.PosPin{}, nil
	case err != nil:
		return nil, fmt.Errorf("pos: favorites: %w", err)
	}
	return f.Pinned, nil
}

// SetFavorites replaces the venue's quick-sale pins. Each names an active
// pass type or product of the venue (404 NOT_FOUND otherwise, nothing
// changed); a pin given twice is 400. Needs pos.manage.
func (s *Service) SetFavorites(ctx context.Context, pins []model.PosPin) ([]model.PosPin, error) {
	u, err := Staff(ctx, false, PermManage)
	if err != nil {
		return nil, err
	}
	if len(pins) > MaxPins {
		return nil, apperr.Validation("pinned", fmt.Sprintf("at most %d pins", MaxPins))
	}
	seen := map[model.PosPin]bool{}
	for _, p := range pins {
		id, err := uuid.Parse(p.ID)
		if err != nil {
			return nil, apperr.Validation("pinned", "an id is not a UUID")
		}
		if seen[p] {
			return nil, apperr.Validation("pinned", "a pin is given twice")
		}
		seen[p] = true
		var n int
		switch p.Kind {
		case "pass_type":
			n, err = s.client.PassType.Query().Where(passtype.ID(id), passtype.Active(true)).Count(ctx)
		case "product":
			n, err = s.client.Product.Query().Where(product.ID(id), product.Active(true)).Count(ctx)
		default:
			return nil, apperr.Validation("pinned", "kind is pass_type or product")
		}
		if err != nil {
			return nil, err
		}
		if n == 0 {
			return nil, apperr.NotFound(p.Kind).With("id", p.ID)
		}
	}
	if pins == nil {
		pins = []model.PosPin{}
	}
	err = s.client.PosFavorites.Create().SetPinned(pins).SetUpdatedByUserID(u.UserID).
		OnConflictColumns(posfavorites.FieldOrganizationID).UpdateNewValues().Exec(ctx)
	if err != nil {
		return nil, err
	}
	return pins, nil
}
