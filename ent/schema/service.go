package schema

import (
	"entgo.io/contrib/entoas"
	"entgo.io/ent"
	"entgo.io/ent/schema/edge"
	"entgo.io/ent/schema/field"
	"entgo.io/ent/schema/index"
)

// Service is an appointment service a venue offers (a massage, a haircut, a
// private session): what it is, how long it takes and what it costs. Members
// may file booking inquiries for services that accept them. Providers,
// variants and booking policies attach to it later through their own edges.
type Service struct{ ent.Schema }

// Mixin of the Service.
func (Service) Mixin() []ent.Mixin {
	return []ent.Mixin{BaseMixin{}, VenueMixin{}, ImportRefMixin{}}
}

// Fields of the Service.
func (Service) Fields() []ent.Field {
	return []ent.Field{
		field.String("name").NotEmpty().MaxLen(200),
		field.String("slug").NotEmpty().MaxLen(100).Match(slugPattern),
		field.String("description").Optional().MaxLen(5000),
		field.String("category").Optional().MaxLen(100).
			Comment("Free grouping label shown to members (for example Massage, Hair)."),
		field.Int("duration_minutes").Positive().Max(24 * 60),
		field.Int64("price_minor").NonNegative(),
		field.String("currency").MinLen(3).MaxLen(3),
		field.Bool("is_active").Default(true),
		field.Bool("listed").Default(true).
			Comment("Shown on the venue's public pages; unlisted services are bookable by staff only."),
		field.Bool("accepts_inquiries").Default(false).
			Comment("Members may file booking inquiries for this service."),
		field.String("image_url").Optional().MaxLen(2000),
		field.Int("sort_order").Default(0),
		field.Int("buffer_before_minutes").Default(0).Min(0).Max(240).
			Comment("Time the provider keeps free before each appointment of the service."),
		field.Int("buffer_after_minutes").Default(0).Min(0).Max(240).
			Comment("Time the provider keeps free after each appointment of the service."),
		field.Int("cancel_window_hours").Default(24).Min(0).Max(24 * 30).
			Comment("A member's cancellation this close to the start owes cancel_fee_minor."),
		field.Int64("cancel_fee_minor").Default(0).NonNegative().
			Comment("Fee of a cancellation inside the window, minor units of the service's currency (0: none)."),
		field.Int64("deposit_minor").Optional().Nillable().NonNegative().
			Comment("Paid online at booking when the venue takes payment at booking; null: the full price."),
		field.Int("deposit_percent_bp").Optional().Nillable().Range(1, 10000).
			Comment("Deposit as a share of the booking's price in basis points (1 to 10000), when deposit_minor is null; null: none."),
	}
}

// Edges of the Service.
func (Service) Edges() []ent.Edge {
	return []ent.Edge{
		edge.To("inquiries", Inquiry.Type),
		edge.To("variants", ServiceVariant.Type),
		edge.To("providers", ServiceProvider.Type),
		edge.To("appointments", Appointment.Type),
	}
}

// Indexes of the Service.
func (Service) Indexes() []ent.Index {
	return []ent.Index{index.Fields("organization_id", "slug").Unique()}
}

// Inquiry is a member's request to book a service at a venue, answered by
// the venue's staff outside the system (by phone or email). It belongs to the
// venue; the member who filed it reads it through /me/inquiries.
//
// request_id is the filing's idempotency key (the caller's UUID
// Idempotency-Key, or one the server chose): unique per venue and user, so a
// retry with it finds the inquiry instead of filing another.
// staff_notified_at is set once the venue's staff have been told; an inquiry
// without it has been accepted but not delivered (status pending).
type Inquiry struct{ ent.Schema }

// Mixin of the Inquiry.
func (Inquiry) Mixin() []ent.Mixin { return []ent.Mixin{BaseMixin{}, VenueMixin{}} }

// Fields of the Inquiry.
func (Inquiry) Fields() []ent.Field {
	return []ent.Field{
		field.UUID("user_id", uuidType).Immutable().
			Comment("The account that filed the inquiry."),
		field.UUID("member_id", uuidType).Optional().Nillable().Immutable().
			Comment("The user's relationship with the venue when they had one at filing."),
		field.UUID("service_id", uuidType).Immutable(),
		field.String("service_name").NotEmpty().MaxLen(200).Immutable().
			Comment("The service's name when the inquiry was filed."),
		field.String("preferred_time").Optional().MaxLen(500).Immutable(),
		field.String("message").Optional().MaxLen(5000).Immutable(),
		field.String("contact_name").Optional().MaxLen(200).Immutable(),
		field.String("contact_email").Optional().MaxLen(320).Immutable(),
		field.String("contact_phone").Optional().MaxLen(50).Immutable(),
		field.Enum("status").Values("pending", "sent", "contacted", "booked", "declined", "closed").Default("pending"),
		field.String("request_id").NotEmpty().MaxLen(36).Immutable().
			Annotations(entoas.Skip(true)),
		field.Time("staff_notified_at").Optional().Nillable(),
		field.Int("notify_attempts").Default(0).Annotations(entoas.Skip(true)),
	}
}

// Edges of the Inquiry.
func (Inquiry) Edges() []ent.Edge {
	return []ent.Edge{
		edge.From("service", Service.Type).Ref("inquiries").Field("service_id").
			Unique().Required().Immutable(),
	}
}

// Indexes of the Inquiry: one filing per request id and user in a venue; the
// user's own list newest first; the venue's inbox by status.
func (Inquiry) Indexes() []ent.Index {
	return []ent.Index{
		index.Fields("organization_id", "user_id", "request_id").Unique(),
		index.Fields("user_id", "created_at", "id"),
		index.Fields("organization_id", "status", "created_at"),
	}
}
