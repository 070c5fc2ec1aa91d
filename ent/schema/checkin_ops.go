package schema

import (
	"entgo.io/contrib/entoas"
	"entgo.io/ent"
	"entgo.io/ent/schema"
	"entgo.io/ent/schema/edge"
	"entgo.io/ent/schema/field"
	"entgo.io/ent/schema/index"
)

// BookingReassignment is one attempt by staff to move a booking's funding from one pass to
// another (package checkin). It is written, pending, in a transaction of its own before the
// move; the move (clip back to the old pass, clip from the new one, the booking's pass_id)
// commits in one transaction that also marks the attempt applied. An attempt still pending
// afterwards (a crash, or a commit whose outcome is unknown) blocks further reassignments of
// the booking until staff close it, which records what the booking shows.
type BookingReassignment struct{ ent.Schema }

// Mixin of the BookingReassignment.
func (BookingReassignment) Mixin() []ent.Mixin { return []ent.Mixin{BaseMixin{}, VenueMixin{}} }

// Fields of the BookingReassignment.
func (BookingReassignment) Fields() []ent.Field {
	return []ent.Field{
		field.UUID("booking_id", uuidType).Immutable(),
		field.UUID("old_pass_id", uuidType).Optional().Nillable().Immutable(),
		field.UUID("new_pass_id", uuidType).Immutable(),
		field.Enum("status").Values("pending", "applied", "failed", "closed").Default("pending"),
		field.Enum("resolution").Values("applied", "not_applied", "superseded").Optional().Nillable().
			Comment("What closing a pending attempt found the booking to show."),
		field.Bool("clip_returned").Default(false).Comment("A clip went back to the old pass."),
		field.Bool("clip_taken").Default(false).Comment("A clip came from the new pass."),
		field.String("failure_code").Optional().Nillable().MaxLen(100),
		field.UUID("open_booking_id", uuidType).Optional().Nillable().
			Comment("The booking's id while the attempt is pending, null after: its unique index keeps one pending attempt per booking.").
			Annotations(entoas.Skip(true)),
		field.String("requested_by").Default("").MaxLen(200).Immutable().Annotations(entoas.Skip(true)),
		field.String("closed_by").Optional().Nillable().MaxLen(200).Annotations(entoas.Skip(true)),
		field.Time("closed_at").Optional().Nillable(),
	}
}

// Annotations of the BookingReassignment: the API answers an attempt as
// stored, under the contract's name, without who requested or closed it.
func (BookingReassignment) Annotations() []schema.Annotation {
	return []schema.Annotation{APIShape{Component: "CheckinAttempt", Omit: []string{"updated_at", "organization_id"}}}
}

// Edges of the BookingReassignment: the booking and both passes, checked to be the venue's
// own on create.
func (BookingReassignment) Edges() []ent.Edge {
	return []ent.Edge{
		edge.To("booking", Booking.Type).Field("booking_id").Unique().Required().Immutable(),
		edge.To("old_pass", Pass.Type).Field("old_pass_id").Unique().Immutable(),
		edge.To("new_pass", Pass.Type).Field("new_pass_id").Unique().Required().Immutable(),
	}
}

// Indexes of the BookingReassignment: history by booking, at most one pending attempt per
// booking.
func (BookingReassignment) Indexes() []ent.Index {
	return []ent.Index{
		index.Fields("organization_id", "booking_id", "created_at"),
		// Not a partial index (ent's schema diff always sees those as changed): NULLs are
		// distinct, so only pending attempts, which carry open_booking_id, compete.
		index.Fields("open_booking_id").Unique(),
	}
}
