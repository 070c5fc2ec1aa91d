package schema

import (
	"entgo.io/ent"
	"entgo.io/ent/schema/edge"
	"entgo.io/ent/schema/field"
	"entgo.io/ent/schema/index"
)

// ClassGuestPrice is the guest price staff set for one class (a class
// instance): a guest place made for that class is priced at amount_minor
// in currency (the venue's) instead of the venue's default rule (the
// guest-pass pass type, else the cheapest listed drop-in). One per class;
// clearing it deletes the row and the default rule applies again. Places
// already made keep the price frozen on them.
type ClassGuestPrice struct{ ent.Schema }

// Mixin of the ClassGuestPrice.
func (ClassGuestPrice) Mixin() []ent.Mixin { return []ent.Mixin{BaseMixin{}, VenueMixin{}} }

// Fields of the ClassGuestPrice.
func (ClassGuestPrice) Fields() []ent.Field {
	return []ent.Field{
		field.UUID("class_instance_id", uuidType).Immutable(),
		field.Int64("amount_minor").Positive(),
		field.String("currency").MinLen(3).MaxLen(3),
		field.UUID("set_by", uuidType).Optional().Nillable().Comment("The staff user who set it, when a session did."),
	}
}

// Edges of the ClassGuestPrice: its class, checked to be the venue's own.
func (ClassGuestPrice) Edges() []ent.Edge {
	return []ent.Edge{
		edge.To("class_instance", ClassInstance.Type).Field("class_instance_id").Unique().Required().Immutable(),
	}
}

// Indexes of the ClassGuestPrice.
func (ClassGuestPrice) Indexes() []ent.Index {
	return []ent.Index{
		index.Fields("organization_id", "class_instance_id").Unique(),
	}
}
