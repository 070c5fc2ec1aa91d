package schema

import (
	"entgo.io/ent"
	"entgo.io/ent/schema/edge"
	"entgo.io/ent/schema/field"
	"entgo.io/ent/schema/index"
)

// GuestInvite is one guest place a member (the host, member_id) offers at a
// class: a seat held on the class from creation (class_instances.booked_count
// counts it, kept by a database trigger like bookings' seats, so bookings
// and guest places never overbook a class together), paid by the guest or
// the host at the guest price frozen when created. The token the guest
// opens is random and only its SHA-256 digest is stored. status: held (the
// seat is held, unpaid), paid (the seat is the guest's), unseated (no seat
// was free when it was made), waitlisted (on the class's guest waiting list,
// waitlist_position), cancelled (withdrawn by the host) and expired (the hold
// lapsed unpaid). A claim links the
// invitation to the guest's own account (claimed_user_id); from then on only
// that account may pay it.
type GuestInvite struct{ ent.Schema }

// Mixin of the GuestInvite.
func (GuestInvite) Mixin() []ent.Mixin { return []ent.Mixin{BaseMixin{}, VenueMixin{}} }

// Fields of the GuestInvite.
func (GuestInvite) Fields() []ent.Field {
	return []ent.Field{
		field.UUID("member_id", uuidType).Immutable().Comment("The host."),
		field.UUID("class_instance_id", uuidType).Immutable(),
		field.String("token_hash").NotEmpty().MaxLen(64).Immutable().Sensitive().
			Comment("Hex SHA-256 of the invitation's token; the token itself is never stored."),
		field.Enum("payer").Values("guest", "host").Immutable(),
		field.Enum("status").Values("held", "paid", "unseated", "waitlisted", "cancelled", "expired").Default("held"),
		field.Int("waitlist_position").Optional().Nillable().Positive(),
		field.Int64("price_minor").NonNegative().Immutable().Comment("The guest price, frozen at creation."),
		field.Int64("compare_at_minor").Optional().Nillable().NonNegative().Immutable().
			Comment("The ordinary drop-in price, for display only."),
		field.String("currency").MinLen(3).MaxLen(3).Immutable(),
		field.String("return_base_url").MaxLen(500).Immutable(),
		field.String("guest_name").Default("").MaxLen(200).Immutable(),
		field.String("guest_email").Default("").MaxLen(254).Immutable(),
		field.String("request_key").NotEmpty().MaxLen(128).Immutable().
			Comment("Digest of the Idempotency-Key of the request that created it."),
		field.Int("spot").Positive().Immutable().Comment("Its number among the places of one request (1 to 20)."),
		field.Time("hold_expires_at").Comment("When an unpaid hold lapses (at the latest, the class's start)."),
		field.UUID("claimed_user_id", uuidType).Optional().Nillable().
			Comment("The guest's account once claimed (signed-in claim)."),
		field.String("payment_intent_id").Optional().Nillable().MaxLen(255),
		field.UUID("payment_id", uuidType).Optional().Nillable(),
		field.Time("paid_at").Optional().Nillable(),
		field.Time("cancelled_at").Optional().Nillable(),
	}
}

// Edges of the GuestInvite: the host and the class, checked to be the
// venue's own.
func (GuestInvite) Edges() []ent.Edge {
	return []ent.Edge{
		edge.To("member", Member.Type).Field("member_id").Unique().Required().Immutable(),
		edge.To("class_instance", ClassInstance.Type).Field("class_instance_id").Unique().Required().Immutable(),
	}
}

// Indexes of the GuestInvite.
func (GuestInvite) Indexes() []ent.Index {
	return []ent.Index{
		index.Fields("token_hash").Unique(),
		index.Fields("organization_id", "member_id", "request_key", "spot").Unique(),
		index.Fields("organization_id", "class_instance_id", "status"),
		index.Fields("status", "hold_expires_at"),
	}
}
