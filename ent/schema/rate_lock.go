package schema

import (
	"entgo.io/ent"
	"entgo.io/ent/schema/field"
	"entgo.io/ent/schema/index"
)

// RateLock keeps what a membership's renewals cost (amount_minor) until a
// venue-local day (locked_until): while it is active the subscription's
// price at Stripe is the locked amount (applied), and base_amount_minor, the
// price before, returns once the next renewal falls on or after
// locked_until, or when staff remove the lock. Member-owned by the pass's
// member: a member viewer sees only their own.
type RateLock struct{ ent.Schema }

// Mixin of the RateLock.
func (RateLock) Mixin() []ent.Mixin { return []ent.Mixin{BaseMixin{}, VenueMixin{}} }

// Fields of the RateLock.
func (RateLock) Fields() []ent.Field {
	return []ent.Field{
		field.UUID("pass_id", uuidType).Immutable(),
		field.UUID("member_id", uuidType).Immutable(),
		field.UUID("subscription_id", uuidType).Immutable(),
		field.Int64("amount_minor").Positive(),
		field.Int64("base_amount_minor").NonNegative(),
		field.String("currency").MinLen(3).MaxLen(3),
		field.Time("locked_until").SchemaType(dateType),
		field.String("reason").Optional().MaxLen(500),
		field.Enum("status").Values("active", "expired", "removed").Default("active"),
		field.Bool("applied").Default(false).
			Comment("Whether the subscription's price at Stripe is the locked amount now."),
		field.UUID("created_by", uuidType).Optional().Nillable().Immutable(),
		field.Time("ended_at").Optional().Nillable(),
	}
}

// Indexes of the RateLock.
func (RateLock) Indexes() []ent.Index {
	return []ent.Index{
		index.Fields("organization_id", "pass_id"),
		index.Fields("organization_id", "member_id"),
	}
}
