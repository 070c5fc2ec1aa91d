package schema

import (
	"entgo.io/contrib/entoas"
	"entgo.io/ent"
	"entgo.io/ent/schema"
	"entgo.io/ent/schema/edge"
	"entgo.io/ent/schema/field"
	"entgo.io/ent/schema/index"
)

// ServiceVariant is one bookable form of a service (30 or 60 minutes, a
// senior stylist's cut): its own duration and price, in the service's
// currency.
type ServiceVariant struct{ ent.Schema }

// Mixin of the ServiceVariant.
func (ServiceVariant) Mixin() []ent.Mixin { return []ent.Mixin{BaseMixin{}, VenueMixin{}} }

// Fields of the ServiceVariant.
func (ServiceVariant) Fields() []ent.Field {
	return []ent.Field{
		field.UUID("service_id", uuidType).Immutable(),
		field.String("name").NotEmpty().MaxLen(200),
		field.Int("duration_minutes").Positive().Max(24 * 60),
		field.Int64("price_minor").NonNegative().
			Comment("Price in minor units of the parent service's currency."),
		field.Bool("is_active").Default(true),
		field.Int("sort_order").Default(0),
		field.Int64("deposit_minor").Optional().Nillable().NonNegative().
			Comment("What an online checkout of this variant takes at booking (capped at the price); null inherits the service's deposit."),
	}
}

// Annotations of the ServiceVariant: staff read it as stored (plus the
// price in major units, added by the API's view).
func (ServiceVariant) Annotations() []schema.Annotation {
	return []schema.Annotation{APIShape{Omit: internalColumns}}
}

// Edges of the ServiceVariant.
func (ServiceVariant) Edges() []ent.Edge {
	return []ent.Edge{
		edge.From("service", Service.Type).Ref("variants").Field("service_id").Unique().Required().Immutable(),
	}
}

// Indexes of the ServiceVariant.
func (ServiceVariant) Indexes() []ent.Index {
	return []ent.Index{index.Fields("organization_id", "service_id")}
}

// ServiceProvider assigns a provider (a member of staff who teaches or
// treats: an Instructor row) to a service, optionally with their own
// duration and price; a null custom value inherits the service's (or the
// variant's).
type ServiceProvider struct{ ent.Schema }

// Mixin of the ServiceProvider.
func (ServiceProvider) Mixin() []ent.Mixin { return []ent.Mixin{BaseMixin{}, VenueMixin{}} }

// Fields of the ServiceProvider.
func (ServiceProvider) Fields() []ent.Field {
	return []ent.Field{
		field.UUID("service_id", uuidType).Immutable(),
		field.UUID("provider_id", uuidType).Immutable(),
		field.Int("custom_duration_minutes").Optional().Nillable().Positive().Max(24 * 60),
		field.Int64("custom_price_minor").Optional().Nillable().NonNegative(),
		field.Bool("is_primary").Default(false),
		field.Int("sort_order").Default(0),
		field.Bool("is_active").Default(true),
	}
}

// Annotations of the ServiceProvider: staff read the assignment as stored.
func (ServiceProvider) Annotations() []schema.Annotation {
	return []schema.Annotation{APIShape{Component: "ServiceProviderAssignment", Omit: internalColumns}}
}

// Edges of the ServiceProvider.
func (ServiceProvider) Edges() []ent.Edge {
	return []ent.Edge{
		edge.From("service", Service.Type).Ref("providers").Field("service_id").Unique().Required().Immutable(),
		edge.From("provider", Instructor.Type).Ref("service_assignments").Field("provider_id").Unique().Required().Immutable(),
	}
}

// Indexes of the ServiceProvider: one assignment per service and provider.
func (ServiceProvider) Indexes() []ent.Index {
	return []ent.Index{
		index.Fields("organization_id", "service_id", "provider_id").Unique(),
		index.Fields("organization_id", "provider_id"),
	}
}

// ProviderHours is one span of a provider's weekly working hours, in the
// venue's wall-clock time: weekday 0 is Sunday (Go's time.Weekday), minutes
// count from local midnight, end exclusive.
type ProviderHours struct{ ent.Schema }

// Mixin of the ProviderHours.
func (ProviderHours) Mixin() []ent.Mixin { return []ent.Mixin{BaseMixin{}, VenueMixin{}} }

// Fields of the ProviderHours.
func (ProviderHours) Fields() []ent.Field {
	return []ent.Field{
		field.UUID("provider_id", uuidType).Immutable(),
		field.UUID("location_id", uuidType).Optional().Nillable(),
		field.Int("weekday").Min(0).Max(6),
		field.Int("start_minute").Min(0).Max(24*60 - 1),
		field.Int("end_minute").Min(1).Max(24 * 60),
	}
}

// Edges of the ProviderHours.
func (ProviderHours) Edges() []ent.Edge {
	return []ent.Edge{
		edge.From("provider", Instructor.Type).Ref("working_hours").Field("provider_id").Unique().Required().Immutable(),
		edge.To("location", Location.Type).Field("location_id").Unique(),
	}
}

// Indexes of the ProviderHours.
func (ProviderHours) Indexes() []ent.Index {
	return []ent.Index{index.Fields("organization_id", "provider_id", "weekday")}
}

// ProviderTimeOff is a span in which a provider does not work (holiday,
// sickness, training), whatever their weekly hours say.
type ProviderTimeOff struct{ ent.Schema }

// Mixin of the ProviderTimeOff.
func (ProviderTimeOff) Mixin() []ent.Mixin { return []ent.Mixin{BaseMixin{}, VenueMixin{}} }

// Fields of the ProviderTimeOff.
func (ProviderTimeOff) Fields() []ent.Field {
	return []ent.Field{
		field.UUID("provider_id", uuidType).Immutable(),
		field.Time("starts_at"),
		field.Time("ends_at"),
		field.String("reason").Optional().MaxLen(500),
	}
}

// Edges of the ProviderTimeOff.
func (ProviderTimeOff) Edges() []ent.Edge {
	return []ent.Edge{
		edge.From("provider", Instructor.Type).Ref("time_off").Field("provider_id").Unique().Required().Immutable(),
	}
}

// Indexes of the ProviderTimeOff.
func (ProviderTimeOff) Indexes() []ent.Index {
	return []ent.Index{index.Fields("organization_id", "provider_id", "starts_at")}
}

// AppointmentPolicy is a venue's appointment settings. A venue without a row
// uses the field defaults.
type AppointmentPolicy struct{ ent.Schema }

// Mixin of the AppointmentPolicy.
func (AppointmentPolicy) Mixin() []ent.Mixin { return []ent.Mixin{BaseMixin{}, VenueMixin{}} }

// Fields of the AppointmentPolicy.
func (AppointmentPolicy) Fields() []ent.Field {
	return []ent.Field{
		field.Int("slot_interval_minutes").Default(15).Min(5).Max(240).
			Comment("Offered start times fall on this grid, counted from venue-local midnight."),
		field.Enum("payment_at_booking_mode").Values("venue", "online", "client_choice").Default("venue"),
		field.Int("self_service_cutoff_hours").Optional().Nillable().Min(0).Max(24 * 30).
			Comment("Members book and cancel themselves only while at least this many hours remain before the start."),
		field.Enum("offering_mode").Values("classes", "appointments", "both").Default("classes"),
		field.Bool("grouped_visits_enabled").Default(false),
		field.Int("max_services_per_visit").Default(8).Min(2).Max(8),
		field.String("grouped_visit_refund_terms").Optional().Nillable().MaxLen(2000).
			Comment("What a member gets back when a grouped visit is cancelled, as staff confirmed it."),
		field.Time("grouped_visit_terms_confirmed_at").Optional().Nillable(),
	}
}

// Indexes of the AppointmentPolicy: one row per venue.
func (AppointmentPolicy) Indexes() []ent.Index {
	return []ent.Index{index.Fields("organization_id").Unique().StorageKey("appointmentpolicy_organization_unique")}
}

// Visit is a member's sequence of appointments booked together (2 to 8
// services), all or nothing.
type Visit struct{ ent.Schema }

// Mixin of the Visit.
func (Visit) Mixin() []ent.Mixin { return []ent.Mixin{BaseMixin{}, VenueMixin{}} }

// Fields of the Visit.
func (Visit) Fields() []ent.Field {
	return []ent.Field{
		field.UUID("member_id", uuidType).Immutable(),
		field.Enum("status").Values("booked", "cancelled", "pending_payment").Default("booked").
			Comment("pending_payment: checked out online, its appointments held until hold_expires_at while the payment completes."),
		field.Time("starts_at"),
		field.Time("ends_at"),
		field.Int64("total_price_minor").NonNegative(),
		field.String("currency").MinLen(3).MaxLen(3),
		field.Time("hold_expires_at").Optional().Nillable(),
		field.Int64("due_minor").Default(0).NonNegative().
			Comment("What the online checkout charges at booking (deposits or full prices)."),
		field.Int64("paid_minor").Default(0).NonNegative(),
		field.Time("paid_at").Optional().Nillable(),
		field.String("payment_intent_id").Optional().Nillable().MaxLen(255),
		field.String("checkout_key").Optional().Nillable().MaxLen(64).
			Comment("Digest of the checkout request's Idempotency-Key: a retry finds its visit."),
		field.UUID("bundle_id", uuidType).Optional().Nillable().Immutable().
			Comment("The combo package this visit was booked as (priced at the bundle's price)."),
	}
}

// Edges of the Visit.
func (Visit) Edges() []ent.Edge {
	return []ent.Edge{
		edge.To("member", Member.Type).Field("member_id").Unique().Required().Immutable(),
		edge.To("appointments", Appointment.Type),
	}
}

// Indexes of the Visit.
func (Visit) Indexes() []ent.Index {
	return []ent.Index{
		index.Fields("organization_id", "member_id"),
		index.Fields("organization_id", "member_id", "checkout_key").Unique(),
	}
}

// Appointment is a member's time with a provider for a service. busy_from
// and busy_until are the span it keeps the provider (and the room) from
// other appointments: the service's time plus its buffers before and after.
// A database exclusion constraint (migration ..._appointments_exclusion)
// refuses two seat-holding appointments whose busy spans overlap for one
// provider or one room, so no check in Go can race it.
type Appointment struct{ ent.Schema }

// Mixin of the Appointment.
func (Appointment) Mixin() []ent.Mixin { return []ent.Mixin{BaseMixin{}, VenueMixin{}} }

// Fields of the Appointment.
func (Appointment) Fields() []ent.Field {
	return []ent.Field{
		field.UUID("member_id", uuidType).Immutable(),
		field.UUID("provider_id", uuidType),
		field.UUID("service_id", uuidType),
		field.UUID("variant_id", uuidType).Optional().Nillable(),
		field.UUID("room_id", uuidType).Optional().Nillable(),
		field.UUID("location_id", uuidType).Optional().Nillable(),
		field.UUID("visit_id", uuidType).Optional().Nillable(),
		field.UUID("rescheduled_to_id", uuidType).Optional().Nillable().
			Comment("The appointment this one was moved to (status rescheduled)."),
		field.Time("starts_at"),
		field.Time("ends_at"),
		field.Time("busy_from"),
		field.Time("busy_until"),
		field.Enum("status").
			NamedValues(
				"Booked", "booked",
				"CheckedIn", "checked_in",
				"InProgress", "in_progress",
				"Completed", "completed",
				"NoShow", "no_show",
				"Cancelled", "cancelled",
				"Rescheduled", "rescheduled",
				"PendingPayment", "pending_payment",
			).Default("booked").
			Comment("pending_payment: checked out online; holds its time until hold_expires_at while the payment completes."),
		field.Int64("price_minor").NonNegative(),
		field.String("currency").MinLen(3).MaxLen(3),
		field.Enum("payment").Values("free", "pass", "venue", "online").
			Comment("How the appointment is paid: free, covered by a pass, at the venue, or online at booking (a deposit or the full price)."),
		field.UUID("pass_id", uuidType).Optional().Nillable(),
		field.Enum("booked_via").Values("member", "staff", "api_key"),
		field.Time("cancelled_at").Optional().Nillable(),
		field.Int64("cancel_fee_minor").Optional().Nillable().NonNegative().
			Comment("The service's cancellation fee charged by a cancellation inside its window; null when none."),
		field.String("cancel_reason").Optional().Nillable().MaxLen(500),
		field.Time("checked_in_at").Optional().Nillable(),
		field.Time("started_at").Optional().Nillable(),
		field.Time("completed_at").Optional().Nillable(),
		field.String("notes").Optional().MaxLen(2000).Annotations(entoas.Skip(true)),
		field.Time("hold_expires_at").Optional().Nillable(),
		field.Int64("due_minor").Default(0).NonNegative().
			Comment("What the online checkout charges at booking: the service's deposit, or the price."),
		field.Int64("paid_minor").Default(0).NonNegative(),
		field.Time("paid_at").Optional().Nillable(),
		field.String("payment_intent_id").Optional().Nillable().MaxLen(255),
		field.String("checkout_key").Optional().Nillable().MaxLen(64).
			Comment("Digest of the checkout request's Idempotency-Key: a retry finds its appointment."),
	}
}

// Edges of the Appointment.
func (Appointment) Edges() []ent.Edge {
	return []ent.Edge{
		edge.To("member", Member.Type).Field("member_id").Unique().Required().Immutable(),
		edge.From("provider", Instructor.Type).Ref("appointments").Field("provider_id").Unique().Required(),
		edge.From("service", Service.Type).Ref("appointments").Field("service_id").Unique().Required(),
		edge.To("variant", ServiceVariant.Type).Field("variant_id").Unique(),
		edge.To("room", Room.Type).Field("room_id").Unique(),
		edge.To("location", Location.Type).Field("location_id").Unique(),
		edge.From("visit", Visit.Type).Ref("appointments").Field("visit_id").Unique(),
		edge.To("pass", Pass.Type).Field("pass_id").Unique(),
	}
}

// Indexes of the Appointment: a provider's and a room's appointments by
// start (availability reads only the asked window), a member's own list.
func (Appointment) Indexes() []ent.Index {
	return []ent.Index{
		index.Fields("organization_id", "provider_id", "starts_at"),
		index.Fields("organization_id", "room_id", "starts_at"),
		index.Fields("organization_id", "member_id", "starts_at"),
		index.Fields("organization_id", "starts_at"),
		index.Fields("organization_id", "member_id", "checkout_key").Unique(),
	}
}

// ServiceBundle is a combo package: several of the venue's services sold
// together at one price (a cut and a colour), in the bundle's order.
type ServiceBundle struct{ ent.Schema }

// Mixin of the ServiceBundle.
func (ServiceBundle) Mixin() []ent.Mixin { return []ent.Mixin{BaseMixin{}, VenueMixin{}} }

// Fields of the ServiceBundle.
func (ServiceBundle) Fields() []ent.Field {
	return []ent.Field{
		field.String("name").NotEmpty().MaxLen(200),
		field.String("description").Optional().MaxLen(2000),
		field.Int64("price_minor").NonNegative().
			Comment("The bundle's price, minor units of its services' currency."),
		field.String("currency").MinLen(3).MaxLen(3),
		field.Bool("is_active").Default(true),
		field.Int("sort_order").Default(0),
	}
}

// Edges of the ServiceBundle.
func (ServiceBundle) Edges() []ent.Edge {
	return []ent.Edge{edge.To("items", ServiceBundleItem.Type)}
}

// ServiceBundleItem is one service (or variant) of a bundle, at its
// position.
type ServiceBundleItem struct{ ent.Schema }

// Mixin of the ServiceBundleItem.
func (ServiceBundleItem) Mixin() []ent.Mixin { return []ent.Mixin{BaseMixin{}, VenueMixin{}} }

// Fields of the ServiceBundleItem.
func (ServiceBundleItem) Fields() []ent.Field {
	return []ent.Field{
		field.UUID("bundle_id", uuidType).Immutable(),
		field.UUID("service_id", uuidType).Immutable(),
		field.UUID("variant_id", uuidType).Optional().Nillable().Immutable(),
		field.Int("position").Min(0).Max(7).Immutable(),
	}
}

// Edges of the ServiceBundleItem.
func (ServiceBundleItem) Edges() []ent.Edge {
	return []ent.Edge{
		edge.From("bundle", ServiceBundle.Type).Ref("items").Field("bundle_id").Unique().Required().Immutable(),
		edge.To("service", Service.Type).Field("service_id").Unique().Required().Immutable(),
		edge.To("variant", ServiceVariant.Type).Field("variant_id").Unique().Immutable(),
	}
}

// Indexes of the ServiceBundleItem: one service per position of a bundle.
func (ServiceBundleItem) Indexes() []ent.Index {
	return []ent.Index{index.Fields("organization_id", "bundle_id", "position").Unique()}
}

// StaffShift is a span a member of staff (an Instructor row, as providers
// are) works at the venue, shown in the calendar beside classes and
// appointments. A database exclusion constraint (migration
// ..._staff_shifts_exclusion) refuses two overlapping shifts of one person.
type StaffShift struct{ ent.Schema }

// Mixin of the StaffShift.
func (StaffShift) Mixin() []ent.Mixin { return []ent.Mixin{BaseMixin{}, VenueMixin{}} }

// Fields of the StaffShift.
func (StaffShift) Fields() []ent.Field {
	return []ent.Field{
		field.UUID("staff_id", uuidType).Immutable(),
		field.UUID("location_id", uuidType).Optional().Nillable(),
		field.Time("starts_at"),
		field.Time("ends_at"),
		field.String("note").Optional().MaxLen(500),
	}
}

// Edges of the StaffShift.
func (StaffShift) Edges() []ent.Edge {
	return []ent.Edge{
		edge.To("staff", Instructor.Type).Field("staff_id").Unique().Required().Immutable(),
		edge.To("location", Location.Type).Field("location_id").Unique(),
	}
}

// Indexes of the StaffShift: the calendar reads a window by start.
func (StaffShift) Indexes() []ent.Index {
	return []ent.Index{
		index.Fields("organization_id", "starts_at"),
		index.Fields("organization_id", "staff_id", "starts_at"),
	}
}
