package schema

import (
	"entgo.io/ent"
	"entgo.io/ent/schema/field"
	"entgo.io/ent/schema/index"
)

// Event is a recorded domain event of one venue (for example member.created),
// written in the same transaction as the change that caused it: the outbox
// that webhook delivery reads. delivered_at is set once it has been handed to
// delivery; until then the row is pending.
type Event struct{ ent.Schema }

// Mixin of the Event.
func (Event) Mixin() []ent.Mixin { return []ent.Mixin{BaseMixin{}, VenueMixin{}} }

// Fields of the Event.
func (Event) Fields() []ent.Field {
	return []ent.Field{
		field.String("type").NotEmpty().MaxLen(100).Immutable(),
		field.JSON("payload", map[string]any{}).Immutable().
			Annotations(jsonObject("The event's data object.")),
		field.Time("delivered_at").Optional().Nillable(),
	}
}

// Indexes of the Event: pending events in order of creation.
func (Event) Indexes() []ent.Index {
	return []ent.Index{index.Fields("organization_id", "created_at"), index.Fields("delivered_at", "created_at")}
}
