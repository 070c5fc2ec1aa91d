package rule

import (
	"context"
	"fmt"
	"strings"
	"unicode"

	"entgo.io/ent"
	"github.com/google/uuid"

	gen "github.com/venueplatform/venue/ent"
	"github.com/venueplatform/venue/ent/privacy"
	"github.com/venueplatform/venue/internal/system"
	"github.com/venueplatform/venue/internal/viewer"
)

// organizationField is the column every venue-owned entity carries.
const organizationField = "organization_id"

// SetVenueOnCreate is the create hook of every venue-owned entity: it sets
// organization_id from the viewer, and refuses a create that names another
// venue as not found. Only a system site that lists the entity type
// (system.Allow, and no venue viewer) may create rows for an explicit venue.
func SetVenueOnCreate() ent.Hook {
	return func(next ent.Mutator) ent.Mutator {
		return ent.MutateFunc(func(ctx context.Context, m ent.Mutation) (ent.Value, error) {
			if !m.Op().Is(ent.OpCreate) {
				return next.Mutate(ctx, m)
			}
			given, hasGiven := m.Field(organizationField)
			org, hasViewerOrg := viewer.VenueFromContext(ctx)
			switch {
			case hasViewerOrg && hasGiven && given.(uuid.UUID) != org:
				return nil, gen.NewNotFoundError("organization")
			case hasViewerOrg && !hasGiven:
				if err := m.SetField(organizationField, org); err != nil {
					return nil, fmt.Errorf("set venue: %w", err)
				}
			case !hasViewerOrg && !hasGiven:
				return nil, privacy.Denyf("%s create without a venue", m.Type())
			case !hasViewerOrg:
				if _, ok := system.Permits(ctx, m.Type()); !ok {
					return nil, privacy.Denyf("%s create for an explicit venue outside a system site that lists it", m.Type())
				}
			}
			return next.Mutate(ctx, m)
		})
	}
}

// snake turns a type name such as ClassInstance into class_instance.
func snake(name string) string {
	var b strings.Builder
	for i, r := range name {
		if unicode.IsUpper(r) && i > 0 {
			b.WriteByte('_')
		}
		b.WriteRune(unicode.ToLower(r))
	}
	return b.String()
}
