package schema

import (
	"regexp"

	"entgo.io/contrib/entoas"
	"entgo.io/ent"
	"entgo.io/ent/schema"
	"entgo.io/ent/schema/edge"
	"entgo.io/ent/schema/field"
	"entgo.io/ent/schema/index"
)

// slugPattern is the shape of every URL slug.
var slugPattern = regexp.MustCompile(`^[a-z0-9]+(?:-[a-z0-9]+)*$`)

// clockPattern is a time of day, HH:MM (24-hour).
var clockPattern = regexp.MustCompile(`^([01][0-9]|2[0-3]):[0-5][0-9]$`)

// Brand is a venue's sub-brand (a studio concept with its own identity).
type Brand struct{ ent.Schema }

// Mixin of the Brand.
func (Brand) Mixin() []ent.Mixin {
	return []ent.Mixin{BaseMixin{}, VenueMixin{}, ImportRefMixin{}}
}

// Fields of the Brand.
func (Brand) Fields() []ent.Field {
	return []ent.Field{
		field.String("name").NotEmpty().MaxLen(200),
		field.String("slug").NotEmpty().MaxLen(100).Match(slugPattern),
		field.String("description").Optional(),
		field.String("color").Optional(),
		field.String("secondary_color").Optional(),
		field.String("logo_url").Optional(),
		field.String("tagline").Optional(),
		field.String("website").Optional(),
		field.JSON("social_links", map[string]string{}).Optional().
			Annotations(jsonObject("Social links by network (instagram, facebook, ...).")),
		field.Bool("active").Default(true),
		field.Int("sort_order").Default(0),
	}
}

// Edges of the Brand.
func (Brand) Edges() []ent.Edge {
	return []ent.Edge{
		edge.To("class_types", ClassType.Type),
		edge.From("pass_types", PassType.Type).Ref("allowed_brands"),
		edge.To("photos", Photo.Type),
	}
}

// Indexes of the Brand.
func (Brand) Indexes() []ent.Index {
	return []ent.Index{index.Fields("organization_id", "slug").Unique()}
}

// Location is a physical site of a venue.
type Location struct{ ent.Schema }

// Mixin of the Location.
func (Location) Mixin() []ent.Mixin {
	return []ent.Mixin{BaseMixin{}, VenueMixin{}, ImportRefMixin{}}
}

// Fields of the Location.
func (Location) Fields() []ent.Field {
	return []ent.Field{
		field.String("name").NotEmpty().MaxLen(200),
		field.String("address").Optional(),
		field.String("city").Optional(),
		field.Float("lat").Optional().Nillable().Min(-90).Max(90),
		field.Float("lng").Optional().Nillable().Min(-180).Max(180),
		field.Bool("active").Default(true),
		field.String("image_url").Optional().Nillable().MaxLen(2000).
			Comment("The location's main image, set by staff; its gallery is its photos."),
	}
}

// Edges of the Location.
func (Location) Edges() []ent.Edge {
	return []ent.Edge{
		edge.To("rooms", Room.Type),
		edge.To("class_instances", ClassInstance.Type),
		edge.To("opening_hours", OpeningHours.Type),
		edge.To("amenities", Amenity.Type),
		edge.To("photos", Photo.Type),
	}
}

// Room is a bookable space inside a location.
type Room struct{ ent.Schema }

// Mixin of the Room.
func (Room) Mixin() []ent.Mixin {
	return []ent.Mixin{BaseMixin{}, VenueMixin{}, ImportRefMixin{}}
}

// Fields of the Room.
func (Room) Fields() []ent.Field {
	return []ent.Field{
		field.UUID("location_id", uuidType).Annotations(entoas.Skip(true)),
		field.String("name").NotEmpty().MaxLen(200),
		field.Int("capacity").Positive(),
		field.String("room_type").Default("studio"),
		field.Bool("active").Default(true).Annotations(entoas.Skip(true)),
		field.String("floor_plan_url").Optional().Nillable().Annotations(entoas.Skip(true)),
	}
}

// Annotations of the Room: the API lists a location's active rooms under it,
// so neither the location nor the flag is in the component.
func (Room) Annotations() []schema.Annotation {
	return []schema.Annotation{APIShape{Omit: internalColumns}}
}

// Edges of the Room.
func (Room) Edges() []ent.Edge {
	return []ent.Edge{
		edge.From("location", Location.Type).Ref("rooms").Field("location_id").Unique().Required(),
		edge.To("class_instances", ClassInstance.Type),
	}
}

// ClassType is a kind of class on the catalogue (Vinyasa Flow, Spin 45).
type ClassType struct{ ent.Schema }

// Mixin of the ClassType.
func (ClassType) Mixin() []ent.Mixin {
	return []ent.Mixin{BaseMixin{}, VenueMixin{}, ImportRefMixin{}}
}

// Fields of the ClassType.
func (ClassType) Fields() []ent.Field {
	return []ent.Field{
		field.UUID("brand_id", uuidType).Optional().Nillable(),
		field.String("name").NotEmpty().MaxLen(200),
		field.String("slug").Optional(),
		field.String("description").Optional(),
		field.Int("duration_minutes").Positive().Default(60),
		field.String("color").Optional(),
		field.Bool("active").Default(true),
	}
}

// Edges of the ClassType.
func (ClassType) Edges() []ent.Edge {
	return []ent.Edge{
		edge.From("brand", Brand.Type).Ref("class_types").Field("brand_id").Unique(),
		edge.To("class_instances", ClassInstance.Type),
		edge.From("pass_types", PassType.Type).Ref("allowed_class_types"),
	}
}

// Instructor teaches classes.
type Instructor struct{ ent.Schema }

// Mixin of the Instructor.
func (Instructor) Mixin() []ent.Mixin {
	return []ent.Mixin{BaseMixin{}, VenueMixin{}, ImportRefMixin{}}
}

// Fields of the Instructor.
func (Instructor) Fields() []ent.Field {
	return []ent.Field{
		field.String("first_name").NotEmpty().MaxLen(100),
		field.String("last_name").Default("").MaxLen(100),
		field.String("email").Optional(),
		field.String("bio").Optional(),
		field.String("photo_url").Optional(),
		field.Bool("active").Default(true),
	}
}

// Edges of the Instructor. An instructor is also the provider of
// appointment services (package appointments).
func (Instructor) Edges() []ent.Edge {
	return []ent.Edge{
		edge.To("class_instances", ClassInstance.Type),
		edge.To("service_assignments", ServiceProvider.Type),
		edge.To("working_hours", ProviderHours.Type),
		edge.To("time_off", ProviderTimeOff.Type),
		edge.To("appointments", Appointment.Type),
	}
}

// ClassInstance is one scheduled occurrence of a class.
type ClassInstance struct{ ent.Schema }

// Mixin of the ClassInstance.
func (ClassInstance) Mixin() []ent.Mixin {
	return []ent.Mixin{BaseMixin{}, VenueMixin{}, ImportRefMixin{}}
}

// Fields of the ClassInstance.
func (ClassInstance) Fields() []ent.Field {
	return []ent.Field{
		field.UUID("class_type_id", uuidType),
		field.UUID("instructor_id", uuidType).Optional().Nillable(),
		field.UUID("location_id", uuidType).Optional().Nillable(),
		field.UUID("room_id", uuidType).Optional().Nillable(),
		field.Time("start_time"),
		field.Time("end_time"),
		field.Int("capacity").NonNegative(),
		field.Enum("status").Values("scheduled", "live", "completed", "cancelled").Default("scheduled"),
		field.Bool("online").Default(false),
		field.Bool("listed").Default(true),
		field.Enum("workshop_entry_kind").Values("workshop", "course").Optional().Nillable(),
		field.UUID("workshop_entry_id", uuidType).Optional().Nillable(),
		field.String("workshop_entry_slug").Optional().Nillable(),
		field.Int("booked_count").Default(0).NonNegative().
			Comment("Seat-holding bookings (confirmed, checked-in, no-show, pending payment); kept by a database trigger on bookings."),
		field.Int("waitlist_count").Default(0).NonNegative().
			Comment("Waitlisted bookings; kept by a database trigger on bookings."),
		field.Time("cancelled_at").Optional().Nillable().
			Comment("When staff cancelled the class (or a historical correction says it was cancelled)."),
		field.String("cancel_reason").Optional().Nillable().MaxLen(500),
		field.Time("history_corrected_at").Optional().Nillable().
			Comment("When the class's record was last changed by a historical correction."),
	}
}

// Edges of the ClassInstance.
func (ClassInstance) Edges() []ent.Edge {
	return []ent.Edge{
		edge.From("class_type", ClassType.Type).Ref("class_instances").Field("class_type_id").Unique().Required(),
		edge.From("instructor", Instructor.Type).Ref("class_instances").Field("instructor_id").Unique(),
		edge.From("location", Location.Type).Ref("class_instances").Field("location_id").Unique(),
		edge.From("room", Room.Type).Ref("class_instances").Field("room_id").Unique(),
		edge.To("bookings", Booking.Type),
	}
}

// Indexes of the ClassInstance.
func (ClassInstance) Indexes() []ent.Index {
	return []ent.Index{
		index.Fields("organization_id", "start_time"),
		// One location's classes in a window (schedule reads filtered by
		// location) read that location's rows only, at any venue size.
		index.Fields("organization_id", "location_id", "start_time"),
	}
}
