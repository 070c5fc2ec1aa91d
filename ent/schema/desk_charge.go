package schema

import (
	"entgo.io/ent"
	"entgo.io/ent/schema/edge"
	"entgo.io/ent/schema/field"
	"entgo.io/ent/schema/index"
)

// DeskCharge is a charge the front desk makes to a member's saved card: the
// VAT-inclusive amount (frozen when asked), the card, and, once paid, the
// payment row it wrote. One per member and Idempotency-Key (request_key), so
// a retried request finds it; its card payment is a payment attempt of
// purpose desk_charge whose subject is the charge.
type DeskCharge struct{ ent.Schema }

// Mixin of the DeskCharge.
func (DeskCharge) Mixin() []ent.Mixin { return []ent.Mixin{BaseMixin{}, VenueMixin{}} }

// Fields of the DeskCharge.
func (DeskCharge) Fields() []ent.Field {
	return []ent.Field{
		field.UUID("member_id", uuidType).Immutable().Comment("The member whose card is charged."),
		field.String("request_key").NotEmpty().MaxLen(128).Immutable().
			Comment("Digest of the Idempotency-Key of the charge request."),
		field.Int64("amount_minor").Positive().Immutable().Comment("VAT-inclusive."),
		field.String("currency").MinLen(3).MaxLen(3).Immutable(),
		field.Int64("vat_minor").NonNegative().Default(0).Immutable(),
		field.Int("vat_rate_bp").Min(0).Max(10000).Default(0).Immutable(),
		field.String("payment_method_id").NotEmpty().MaxLen(255).Immutable(),
		field.String("description").Default("").MaxLen(200).Immutable(),
		field.Bool("set_as_default").Default(false).Immutable(),
		field.UUID("staff_user_id", uuidType).Optional().Nillable().Immutable().Comment("Who charged (nil: the operator)."),
		field.Enum("status").Values("open", "paid", "failed").Default("open"),
		field.String("payment_intent_id").Optional().Nillable().MaxLen(255),
		field.UUID("payment_id", uuidType).Optional().Nillable(),
		field.Time("paid_at").Optional().Nillable(),
	}
}

// Edges of the DeskCharge: the member, checked to be the venue's own.
func (DeskCharge) Edges() []ent.Edge {
	return []ent.Edge{
		edge.To("member", Member.Type).Field("member_id").Unique().Required().Immutable(),
	}
}

// Indexes of the DeskCharge.
func (DeskCharge) Indexes() []ent.Index {
	return []ent.Index{
		index.Fields("organization_id", "member_id", "request_key").Unique(),
		index.Fields("payment_intent_id").Unique(),
	}
}
