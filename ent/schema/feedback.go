package schema

import (
	"entgo.io/ent"
	"entgo.io/ent/schema/edge"
	"entgo.io/ent/schema/field"
	"entgo.io/ent/schema/index"
)

// Feedback is a member's review of a class they attended: a rating of 1 to 5,
// an optional comment, whether staff see the member's name, and the tip given
// with it (a Tip row paid through the tips path). One per booking: the unique
// index on the booking makes a second review of the same visit find the first.
type Feedback struct{ ent.Schema }

// Mixin of the Feedback.
func (Feedback) Mixin() []ent.Mixin { return []ent.Mixin{BaseMixin{}, VenueMixin{}} }

// Fields of the Feedback.
func (Feedback) Fields() []ent.Field {
	return []ent.Field{
		field.UUID("member_id", uuidType).Immutable(),
		field.UUID("booking_id", uuidType).Immutable(),
		field.UUID("class_instance_id", uuidType).Immutable(),
		field.UUID("instructor_id", uuidType).Optional().Nillable().Immutable().
			Comment("The class's instructor when the review was given."),
		field.Int("rating").Min(1).Max(5).Immutable(),
		field.String("comment").Default("").MaxLen(2000).Immutable(),
		field.Bool("anonymous").Default(false).Immutable().
			Comment("Staff reads show no member for an anonymous review."),
		field.UUID("tip_id", uuidType).Optional().Nillable().Immutable().
			Comment("The tip given with the review, if any."),
	}
}

// Edges of the Feedback: the member, booking and class, checked to be the
// venue's own on create.
func (Feedback) Edges() []ent.Edge {
	return []ent.Edge{
		edge.To("member", Member.Type).Field("member_id").Unique().Required().Immutable(),
		edge.To("booking", Booking.Type).Field("booking_id").Unique().Required().Immutable(),
		edge.To("class_instance", ClassInstance.Type).Field("class_instance_id").Unique().Required().Immutable(),
	}
}

// Indexes of the Feedback: one review per booking; staff read a venue's
// reviews newest first, and a class's.
func (Feedback) Indexes() []ent.Index {
	return []ent.Index{
		index.Fields("organization_id", "booking_id").Unique(),
		index.Fields("organization_id", "created_at", "id"),
		index.Fields("organization_id", "class_instance_id"),
	}
}
