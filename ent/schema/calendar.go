package schema

import (
	"entgo.io/ent"
	"entgo.io/ent/schema/field"
	"entgo.io/ent/schema/index"
)

// CalendarEvent is a block of a venue's time that is not a class or an
// appointment: a private event, a stream, a room rental or maintenance. The
// unified /calendar feed serves it beside classes and appointments (package
// schedule); staff create and cancel it.
type CalendarEvent struct{ ent.Schema }

// Mixin of the CalendarEvent.
func (CalendarEvent) Mixin() []ent.Mixin {
	return []ent.Mixin{BaseMixin{}, VenueMixin{}}
}

// Fields of the CalendarEvent.
func (CalendarEvent) Fields() []ent.Field {
	return []ent.Field{
		field.Enum("kind").Values("private_event", "stream", "room_rental", "maintenance").Immutable(),
		field.String("title").NotEmpty().MaxLen(200),
		field.Time("starts_at"),
		field.Time("ends_at"),
		field.Enum("status").Values("scheduled", "cancelled").Default("scheduled"),
		field.UUID("location_id", uuidType).Optional().Nillable(),
		field.UUID("room_id", uuidType).Optional().Nillable(),
		field.String("notes").Default("").MaxLen(2000),
		field.String("created_by").Default("").MaxLen(200),
	}
}

// Indexes of the CalendarEvent: the feed reads a venue's range by start.
func (CalendarEvent) Indexes() []ent.Index {
	return []ent.Index{index.Fields("organization_id", "starts_at")}
}
