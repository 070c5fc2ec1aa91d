package schema

import (
	"entgo.io/ent"
	"entgo.io/ent/schema/field"
	"entgo.io/ent/schema/index"
)

// FavoriteVenue is a venue a user marked as a favourite. It is the user's,
// not the venue's (a venue does not see who favourited it), so it is global
// and user-owned like sessions.
type FavoriteVenue struct{ ent.Schema }

// Mixin of the FavoriteVenue.
func (FavoriteVenue) Mixin() []ent.Mixin { return []ent.Mixin{BaseMixin{}} }

// Fields of the FavoriteVenue.
func (FavoriteVenue) Fields() []ent.Field {
	return []ent.Field{
		field.UUID("user_id", uuidType).Immutable(),
		field.UUID("venue_id", uuidType).Immutable().
			Comment("The organization id of the venue; named apart from organization_id, which marks venue-owned rows."),
	}
}

// Indexes of the FavoriteVenue.
func (FavoriteVenue) Indexes() []ent.Index {
	return []ent.Index{index.Fields("user_id", "venue_id").Unique()}
}
