package schema

import (
	"entgo.io/contrib/entoas"
	"entgo.io/ent"
	"entgo.io/ent/schema"
	"entgo.io/ent/schema/edge"
	"entgo.io/ent/schema/field"
	"entgo.io/ent/schema/index"
)

// BuddyInvite is a member's invitation of another client of the same venue to
// a class the inviter holds a confirmed seat in. Accepting it books the
// invitee through the ordinary booking rules (their own pass, capacity,
// window, limits); the invitation itself holds no seat.
type BuddyInvite struct{ ent.Schema }

// Mixin of the BuddyInvite.
func (BuddyInvite) Mixin() []ent.Mixin {
	return []ent.Mixin{BaseMixin{}, VenueMixin{}}
}

// Fields of the BuddyInvite.
func (BuddyInvite) Fields() []ent.Field {
	return []ent.Field{
		field.UUID("class_instance_id", uuidType).Immutable(),
		field.UUID("inviter_member_id", uuidType).Immutable(),
		field.UUID("inviter_booking_id", uuidType).Immutable().Annotations(entoas.Skip(true)),
		field.UUID("invitee_member_id", uuidType).Immutable(),
		field.Enum("status").Values("pending", "accepted", "declined", "cancelled", "expired").Default("pending"),
		field.UUID("booking_id", uuidType).Optional().Nillable().
			Comment("The invitee's booking, once accepted."),
		field.String("message").Optional().MaxLen(500),
		field.Time("expires_at").Comment("The class's start: an invitation cannot be accepted after it."),
		field.Time("responded_at").Optional().Nillable().Annotations(entoas.Skip(true)),
	}
}

// Annotations of the BuddyInvite: the API answers an invitation as stored,
// under the contract's name, without the inviter's booking and reply time.
func (BuddyInvite) Annotations() []schema.Annotation {
	return []schema.Annotation{APIShape{Component: "BookingBuddyInvite", Omit: []string{"updated_at", "organization_id"}}}
}

// Edges of the BuddyInvite: every referenced row must be the venue's
// (the mutation policy checks each edge on create).
func (BuddyInvite) Edges() []ent.Edge {
	return []ent.Edge{
		edge.To("class_instance", ClassInstance.Type).Field("class_instance_id").Unique().Required().Immutable(),
		edge.To("inviter", Member.Type).Field("inviter_member_id").Unique().Required().Immutable(),
		edge.To("inviter_booking", Booking.Type).Field("inviter_booking_id").Unique().Required().Immutable(),
		edge.To("invitee", Member.Type).Field("invitee_member_id").Unique().Required().Immutable(),
		edge.To("booking", Booking.Type).Field("booking_id").Unique(),
	}
}

// Indexes of the BuddyInvite: the invitee's open invitations, and the
// invitations of one class by inviter and invitee.
func (BuddyInvite) Indexes() []ent.Index {
	return []ent.Index{
		index.Fields("organization_id", "invitee_member_id", "status"),
		index.Fields("class_instance_id", "inviter_member_id", "invitee_member_id"),
	}
}

// BookingPolicy is a venue's booking rules: when booking opens and closes
// relative to a class's start, the late-cancellation window and fee, and the
// daily limit. A venue without a row uses the defaults of package booking
// (the field defaults below).
type BookingPolicy struct{ ent.Schema }

// Mixin of the BookingPolicy.
func (BookingPolicy) Mixin() []ent.Mixin {
	return []ent.Mixin{BaseMixin{}, VenueMixin{}}
}

// Fields of the BookingPolicy.
func (BookingPolicy) Fields() []ent.Field {
	return []ent.Field{
		field.Int("opens_minutes_before").Default(30 * 24 * 60).NonNegative().
			Comment("Booking opens this many minutes before the class starts (default 30 days)."),
		field.Int("closes_minutes_before").Default(0).NonNegative().
			Comment("Booking closes this many minutes before the class starts (default: at the start)."),
		field.Int("late_cancel_minutes").Default(12 * 60).NonNegative().
			Comment("A member's cancellation this close to the start is a late cancellation (default 12 hours)."),
		field.Bool("late_cancel_forfeits_clip").Default(true).
			Comment("Whether a late cancellation keeps the clip the booking took."),
		field.Int64("late_cancel_fee_minor").Default(0).NonNegative().
			Comment("Fee of a late cancellation, minor units of the venue's currency (0: none)."),
		field.JSON("late_cancel_fee_by_pass_type", map[string]int64{}).Optional().
			Annotations(jsonObject("Late-cancellation fee per pass type id (minor units), overriding late_cancel_fee_minor.")),
		field.Int("daily_limit").Default(0).NonNegative().
			Comment("Most live bookings a member may hold on one venue-local day (0: no limit)."),
	}
}

// Indexes of the BookingPolicy: one row per venue.
func (BookingPolicy) Indexes() []ent.Index {
	return []ent.Index{index.Fields("organization_id").Unique().StorageKey("bookingpolicy_organization_unique")}
}
