package schema

import (
	"entgo.io/ent"
	"entgo.io/ent/schema/edge"
	"entgo.io/ent/schema/field"
	"entgo.io/ent/schema/index"
)

// RefundReview is a staff member's review of a refund before it is made
// (the contract's review intent): the payment, the amount, and what was
// still refundable when staff looked. A refund names its review and repeats
// its confirmation phrase; a review is used once, expires after a few
// minutes, and is refused when the payment's refundable rest changed since.
type RefundReview struct{ ent.Schema }

// Mixin of the RefundReview.
func (RefundReview) Mixin() []ent.Mixin { return []ent.Mixin{BaseMixin{}, VenueMixin{}} }

// Fields of the RefundReview.
func (RefundReview) Fields() []ent.Field {
	return []ent.Field{
		field.UUID("payment_id", uuidType).Immutable(),
		field.Int64("amount_minor").Positive().Immutable(),
		field.String("currency").MinLen(3).MaxLen(3).Immutable(),
		field.Int64("refundable_minor").NonNegative().Immutable().
			Comment("What the payment still had to refund when the review was made."),
		field.String("confirmation_phrase").MaxLen(100).Immutable(),
		field.UUID("created_by_user_id", uuidType).Optional().Nillable().Immutable(),
		field.Time("expires_at").Immutable(),
		field.Time("used_at").Optional().Nillable(),
	}
}

// Edges of the RefundReview: the payment, checked to be the venue's own on
// create.
func (RefundReview) Edges() []ent.Edge {
	return []ent.Edge{
		edge.To("payment", Payment.Type).Field("payment_id").Unique().Required().Immutable(),
	}
}

// Indexes of the RefundReview.
func (RefundReview) Indexes() []ent.Index {
	return []ent.Index{index.Fields("organization_id", "payment_id", "created_at")}
}

// Refund is money given back on a member's payment: to the card that paid
// (a Stripe refund, an attempt row first) or outside Stripe (cash, a bank
// transfer: method_reference says which). Pending and succeeded refunds
// count against the payment, so the refunds of one payment never add up to
// more than it; a failed one frees its amount. origin processor is a refund
// Stripe reported (charge.refunded) that no request of ours made, recorded
// so our rows stay the truth.
type Refund struct{ ent.Schema }

// Mixin of the Refund.
func (Refund) Mixin() []ent.Mixin { return []ent.Mixin{BaseMixin{}, VenueMixin{}} }

// Fields of the Refund.
func (Refund) Fields() []ent.Field {
	return []ent.Field{
		field.UUID("payment_id", uuidType).Immutable(),
		field.UUID("member_id", uuidType).Optional().Nillable().Immutable(),
		field.UUID("review_id", uuidType).Optional().Nillable().Immutable(),
		field.Int64("amount_minor").Positive().Immutable(),
		field.String("currency").MinLen(3).MaxLen(3).Immutable(),
		field.Enum("status").Values("pending", "succeeded", "failed").Default("pending"),
		field.Enum("origin").Values("staff", "processor").Default("staff").Immutable(),
		field.Enum("destination").Values("original_payment_method", "external").Immutable(),
		field.String("reason").Default("").MaxLen(500).Immutable(),
		field.String("client_receipt_comment").Default("").MaxLen(500).Immutable(),
		field.String("method_reference").Default("").MaxLen(200).Immutable(),
		field.Bool("notify_client").Default(false).Immutable(),
		field.Strings("receipt_channels").Optional(),
		field.String("processor_refund_id").Optional().Nillable().MaxLen(255),
		field.String("failure_code").Optional().Nillable().MaxLen(100),
		field.String("request_key").Optional().Nillable().MaxLen(128).Immutable().
			Comment("Digest of the Idempotency-Key of the request that made the refund."),
		field.UUID("created_by_user_id", uuidType).Optional().Nillable().Immutable(),
		field.Time("refunded_at").Optional().Nillable(),
	}
}

// Edges of the Refund: the member and payment, checked to be the venue's own
// on create.
func (Refund) Edges() []ent.Edge {
	return []ent.Edge{
		edge.To("payment", Payment.Type).Field("payment_id").Unique().Required().Immutable(),
		edge.To("member", Member.Type).Field("member_id").Unique().Immutable(),
	}
}

// Indexes of the Refund.
func (Refund) Indexes() []ent.Index {
	return []ent.Index{
		index.Fields("organization_id", "payment_id"),
		// A member's refund receipts (/me/refunds), newest first.
		index.Fields("organization_id", "member_id", "created_at", "id"),
		index.Fields("organization_id", "request_key").Unique(),
		index.Fields("processor_refund_id").Unique(),
	}
}
