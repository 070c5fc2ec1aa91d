package schema

import (
	"entgo.io/ent"
	"entgo.io/ent/schema/edge"
	"entgo.io/ent/schema/field"
	"entgo.io/ent/schema/index"
)

// GiftCardOrder is a member's purchase of a gift card for someone: the amount
// and currency charged (frozen when ordered), who receives it and when it is
// delivered by e-mail, and, once paid, the card it issued. One order per
// member and Idempotency-Key (request_key), so a retried request finds it;
// its card payment is a payment attempt of purpose gift_card_charge whose
// subject is the order.
type GiftCardOrder struct{ ent.Schema }

// Mixin of the GiftCardOrder.
func (GiftCardOrder) Mixin() []ent.Mixin { return []ent.Mixin{BaseMixin{}, VenueMixin{}} }

// Fields of the GiftCardOrder.
func (GiftCardOrder) Fields() []ent.Field {
	return []ent.Field{
		field.UUID("member_id", uuidType).Immutable().Comment("The buyer."),
		field.String("request_key").NotEmpty().MaxLen(128).Immutable().
			Comment("Digest of the Idempotency-Key of the order request."),
		field.Int64("amount_minor").Positive().Immutable(),
		field.String("currency").MinLen(3).MaxLen(3).Immutable(),
		field.Int64("vat_minor").NonNegative().Default(0).Immutable(),
		field.String("recipient_email").NotEmpty().MaxLen(254).Immutable(),
		field.String("recipient_name").Default("").MaxLen(200).Immutable(),
		field.String("sender_name").Default("").MaxLen(200).Immutable(),
		field.String("message").Default("").MaxLen(500).Immutable(),
		field.Time("deliver_at").Immutable().Comment("When the card is e-mailed to the recipient."),
		field.Enum("status").Values("open", "paid", "failed").Default("open"),
		field.String("payment_intent_id").Optional().Nillable().MaxLen(255),
		field.UUID("gift_card_id", uuidType).Optional().Nillable(),
		field.UUID("payment_id", uuidType).Optional().Nillable(),
		field.Time("paid_at").Optional().Nillable(),
	}
}

// Edges of the GiftCardOrder: the buyer, checked to be the venue's own.
func (GiftCardOrder) Edges() []ent.Edge {
	return []ent.Edge{
		edge.To("member", Member.Type).Field("member_id").Unique().Required().Immutable(),
	}
}

// Indexes of the GiftCardOrder.
func (GiftCardOrder) Indexes() []ent.Index {
	return []ent.Index{
		index.Fields("organization_id", "member_id", "request_key").Unique(),
		index.Fields("payment_intent_id").Unique(),
	}
}

// GiftCardMovement is one line of a gift card's ledger: its issue, its
// purchase, or a redemption, with the signed amount (positive adds to the
// balance, negative spends it) and the balance after. Rows are append-only;
// the card's remaining_amount_minor always equals the last balance_after.
type GiftCardMovement struct{ ent.Schema }

// Mixin of the GiftCardMovement.
func (GiftCardMovement) Mixin() []ent.Mixin { return []ent.Mixin{BaseMixin{}, VenueMixin{}} }

// Fields of the GiftCardMovement.
func (GiftCardMovement) Fields() []ent.Field {
	return []ent.Field{
		field.UUID("gift_card_id", uuidType).Immutable(),
		field.Enum("kind").Values("issue", "purchase", "redemption").Immutable(),
		field.Int64("amount_minor").Immutable(),
		field.String("currency").MinLen(3).MaxLen(3).Immutable(),
		field.Int64("balance_after_minor").NonNegative().Immutable(),
		field.UUID("member_id", uuidType).Optional().Nillable().Immutable().
			Comment("The buyer of a purchase, the member who redeemed a redemption."),
		field.UUID("order_id", uuidType).Optional().Nillable().Immutable(),
		field.UUID("pass_id", uuidType).Optional().Nillable().Immutable().
			Comment("The pass a redemption of a pass card created."),
		field.UUID("credit_id", uuidType).Optional().Nillable().Immutable().
			Comment("The member credit a redemption of an amount card added."),
	}
}

// Edges of the GiftCardMovement.
func (GiftCardMovement) Edges() []ent.Edge {
	return []ent.Edge{
		edge.To("gift_card", GiftCard.Type).Field("gift_card_id").Unique().Required().Immutable(),
	}
}

// Indexes of the GiftCardMovement.
func (GiftCardMovement) Indexes() []ent.Index {
	return []ent.Index{index.Fields("organization_id", "gift_card_id", "created_at")}
}

// MemberCredit is one movement of a member's credit at a venue, in one
// currency: positive adds (a redeemed gift card, the credit of an abandoned
// checkout given back), negative spends. The balance is the sum per currency.
type MemberCredit struct{ ent.Schema }

// Mixin of the MemberCredit.
func (MemberCredit) Mixin() []ent.Mixin { return []ent.Mixin{BaseMixin{}, VenueMixin{}} }

// Fields of the MemberCredit.
func (MemberCredit) Fields() []ent.Field {
	return []ent.Field{
		field.UUID("member_id", uuidType).Immutable(),
		field.Int64("amount_minor").Immutable(),
		field.String("currency").MinLen(3).MaxLen(3).Immutable(),
		field.Enum("source").Values("gift_card_redemption", "checkout", "checkout_release").Immutable(),
		field.UUID("gift_card_id", uuidType).Optional().Nillable().Immutable(),
		field.UUID("checkout_id", uuidType).Optional().Nillable().Immutable().
			Comment("The checkout that spent the credit (source checkout)."),
	}
}

// Edges of the MemberCredit.
func (MemberCredit) Edges() []ent.Edge {
	return []ent.Edge{
		edge.To("member", Member.Type).Field("member_id").Unique().Required().Immutable(),
	}
}

// Indexes of the MemberCredit.
func (MemberCredit) Indexes() []ent.Index {
	return []ent.Index{index.Fields("organization_id", "member_id", "currency")}
}
