package schema

import (
	"entgo.io/ent"
	"entgo.io/ent/schema/edge"
	"entgo.io/ent/schema/field"
	"entgo.io/ent/schema/index"
)

// LateFeePolicy is a venue's late fee on renewals in one currency: the
// amount added to a renewal invoice that is still unpaid grace_days after
// its due date. A venue without a policy in an invoice's currency charges
// no late fee.
type LateFeePolicy struct{ ent.Schema }

// Mixin of the LateFeePolicy.
func (LateFeePolicy) Mixin() []ent.Mixin { return []ent.Mixin{BaseMixin{}, VenueMixin{}} }

// Fields of the LateFeePolicy.
func (LateFeePolicy) Fields() []ent.Field {
	return []ent.Field{
		field.String("currency").MinLen(3).MaxLen(3).Immutable(),
		field.Int64("amount_minor").Positive(),
		field.Int("grace_days").Min(0).Max(90),
	}
}

// Indexes of the LateFeePolicy: one per venue and currency.
func (LateFeePolicy) Indexes() []ent.Index {
	return []ent.Index{index.Fields("organization_id", "currency").Unique()}
}

// LateFee is the late fee a renewal invoice owes, once per invoice: the
// policy's amount frozen when it was applied, pending until it is paid with
// the renewal (a card payment of purpose late_fee_charge whose subject is
// this row) or waived by staff.
type LateFee struct{ ent.Schema }

// Mixin of the LateFee.
func (LateFee) Mixin() []ent.Mixin { return []ent.Mixin{BaseMixin{}, VenueMixin{}} }

// Fields of the LateFee.
func (LateFee) Fields() []ent.Field {
	return []ent.Field{
		field.UUID("invoice_id", uuidType).Immutable(),
		field.UUID("member_id", uuidType).Immutable(),
		field.UUID("pass_id", uuidType).Optional().Nillable().Immutable(),
		field.Int64("amount_minor").Positive().Immutable(),
		field.String("currency").MinLen(3).MaxLen(3).Immutable(),
		field.Enum("status").Values("pending", "paid", "waived").Default("pending"),
		field.Time("applied_at").Immutable(),
		field.Time("paid_at").Optional().Nillable(),
		field.UUID("payment_id", uuidType).Optional().Nillable(),
		field.Time("waived_at").Optional().Nillable(),
		field.String("waive_reason").Optional().Nillable().MaxLen(500),
	}
}

// Edges of the LateFee: the member, checked to be the venue's own.
func (LateFee) Edges() []ent.Edge {
	return []ent.Edge{
		edge.To("member", Member.Type).Field("member_id").Unique().Required().Immutable(),
	}
}

// Indexes of the LateFee: one per invoice.
func (LateFee) Indexes() []ent.Index {
	return []ent.Index{
		index.Fields("organization_id", "invoice_id").Unique(),
		index.Fields("organization_id", "status"),
	}
}

// RenewalReminderPolicy is a venue's reminder before each renewal charge:
// on each of days_before (days before the charge, venue-local) the member
// of a renewing membership is e-mailed through the notification outbox.
// One per venue; applied only through a preview whose hash matches.
type RenewalReminderPolicy struct{ ent.Schema }

// Mixin of the RenewalReminderPolicy.
func (RenewalReminderPolicy) Mixin() []ent.Mixin { return []ent.Mixin{BaseMixin{}, VenueMixin{}} }

// Fields of the RenewalReminderPolicy.
func (RenewalReminderPolicy) Fields() []ent.Field {
	return []ent.Field{
		field.JSON("days_before", []int{}),
		field.String("preview_hash").MaxLen(128),
	}
}

// Indexes of the RenewalReminderPolicy: one per venue.
func (RenewalReminderPolicy) Indexes() []ent.Index {
	return []ent.Index{index.Fields("organization_id").Unique().StorageKey("renewalreminderpolicy_one_per_venue")}
}
