package schema

import (
	"entgo.io/ent"
	"entgo.io/ent/schema/field"
	"entgo.io/ent/schema/index"
)

// LoyaltyPrice is what one member pays for a pass type (amount_minor) while
// it is active: renewals of the member's memberships of that pass type
// charge it (an active rate lock of a pass comes first) and the member's new
// purchases of the pass type are quoted at it. pass_id is the pass staff
// granted it from, when they named one. Revoking puts the pass type's own
// price back. Member-owned: a member viewer sees only their own.
type LoyaltyPrice struct{ ent.Schema }

// Mixin of the LoyaltyPrice.
func (LoyaltyPrice) Mixin() []ent.Mixin { return []ent.Mixin{BaseMixin{}, VenueMixin{}} }

// Fields of the LoyaltyPrice.
func (LoyaltyPrice) Fields() []ent.Field {
	return []ent.Field{
		field.UUID("member_id", uuidType).Immutable(),
		field.UUID("user_id", uuidType).Immutable(),
		field.UUID("pass_type_id", uuidType).Immutable(),
		field.UUID("pass_id", uuidType).Optional().Nillable().Immutable(),
		field.Int64("amount_minor").Positive(),
		field.String("currency").MinLen(3).MaxLen(3),
		field.String("reason").Optional().MaxLen(500),
		field.Enum("status").Values("active", "revoked").Default("active"),
		field.UUID("created_by", uuidType).Optional().Nillable().Immutable(),
		field.Time("revoked_at").Optional().Nillable(),
		field.String("revoke_reason").Optional().MaxLen(500),
	}
}

// Indexes of the LoyaltyPrice.
func (LoyaltyPrice) Indexes() []ent.Index {
	return []ent.Index{
		index.Fields("organization_id", "member_id", "pass_type_id"),
	}
}
