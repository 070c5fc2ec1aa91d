package schema

import (
	"time"

	"entgo.io/contrib/entoas"
	"entgo.io/ent"
	"entgo.io/ent/schema/edge"
	"entgo.io/ent/schema/field"
	"entgo.io/ent/schema/index"
	"entgo.io/ent/schema/mixin"
	"github.com/google/uuid"
)

// BaseMixin gives every entity a UUID primary key and creation and update times.
type BaseMixin struct{ mixin.Schema }

// Fields of the BaseMixin.
func (BaseMixin) Fields() []ent.Field {
	return []ent.Field{
		field.UUID("id", uuid.UUID{}).Default(uuid.New).Immutable(),
		field.Time("created_at").Default(time.Now).Immutable(),
		field.Time("updated_at").Default(time.Now).UpdateDefault(time.Now),
	}
}

// VenueMixin marks an entity as owned by one venue (organization). Its policy
// (venue_rules.go) filters every query, update and delete to the viewer's venue,
// its hook sets organization_id on create from the viewer, and every row a
// mutation references must be visible to the same viewer.
type VenueMixin struct{ mixin.Schema }

// Fields of the VenueMixin.
func (VenueMixin) Fields() []ent.Field {
	return []ent.Field{
		field.UUID("organization_id", uuid.UUID{}).Immutable(),
	}
}

// Edges of the VenueMixin: the owning venue, with a foreign key.
func (VenueMixin) Edges() []ent.Edge {
	return []ent.Edge{
		edge.To("organization", Organization.Type).
			Field("organization_id").
			Unique().
			Required().
			Immutable(),
	}
}

// Indexes of the VenueMixin.
func (VenueMixin) Indexes() []ent.Index {
	return []ent.Index{index.Fields("organization_id")}
}

// ImportRefMixin carries the item's id in the source system of a venue import
// (import-format.md), unique per venue, so re-running an import updates rows
// instead of duplicating them.
type ImportRefMixin struct{ mixin.Schema }

// Fields of the ImportRefMixin.
func (ImportRefMixin) Fields() []ent.Field {
	return []ent.Field{
		field.String("import_ref").Optional().Nillable().MaxLen(200).
			Annotations(entoas.Skip(true)),
	}
}

// Indexes of the ImportRefMixin.
func (ImportRefMixin) Indexes() []ent.Index {
	return []ent.Index{index.Fields("organization_id", "import_ref").Unique()}
}
