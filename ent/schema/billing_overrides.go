package schema

import (
	"entgo.io/ent"
	"entgo.io/ent/schema/field"
	"entgo.io/ent/schema/index"
)

// PaymentOverride is what staff set one upcoming billing period of a
// membership to cost (amount_minor; 0 comps the period) instead of the
// subscription's price. It is scheduled until the period's invoice is
// issued, then locked: applied when the invoice charged the override, missed
// when the invoice was issued before the override reached Stripe. The
// override of the next period is a pending Stripe invoice item on the
// subscription (processor_item_id, of processor_item_amount_minor: the
// difference to the price), which Stripe adds to that period's invoice.
type PaymentOverride struct{ ent.Schema }

// Mixin of the PaymentOverride.
func (PaymentOverride) Mixin() []ent.Mixin { return []ent.Mixin{BaseMixin{}, VenueMixin{}} }

// Fields of the PaymentOverride.
func (PaymentOverride) Fields() []ent.Field {
	return []ent.Field{
		field.UUID("subscription_id", uuidType).Immutable(),
		field.UUID("pass_id", uuidType).Immutable(),
		field.Time("period_start").Immutable(),
		field.Time("period_end").Immutable(),
		field.Int64("amount_minor").NonNegative(),
		field.String("reason").Optional().MaxLen(500),
		field.Enum("status").Values("scheduled", "applied", "missed").Default("scheduled"),
		field.UUID("invoice_id", uuidType).Optional().Nillable(),
		field.String("processor_item_id").Optional().Nillable().MaxLen(255),
		field.Int64("processor_item_amount_minor").Optional().Nillable(),
		field.UUID("created_by", uuidType).Optional().Nillable().Immutable(),
	}
}

// Indexes of the PaymentOverride: one per subscription and period.
func (PaymentOverride) Indexes() []ent.Index {
	return []ent.Index{
		index.Fields("organization_id", "subscription_id", "period_start").Unique(),
		index.Fields("organization_id", "pass_id"),
	}
}
