package schema

import (
	"entgo.io/contrib/entoas"
	"entgo.io/ent"
	"entgo.io/ent/schema/edge"
	"entgo.io/ent/schema/field"
	"entgo.io/ent/schema/index"
	"github.com/ogen-go/ogen"

	"github.com/venueplatform/venue/internal/model"
)

// Subscription is the renewal of a recurring membership (a pass) through
// Stripe Billing: the Stripe subscription on the venue's connected account,
// what each period costs (frozen when it started, changed only by staff), the
// billing interval and where the billing clock stands (the current period's
// end, the next charge). Stripe's own status is mirrored in
// processor_status; the pass's status is what members and staff act on.
type Subscription struct{ ent.Schema }

// Mixin of the Subscription.
func (Subscription) Mixin() []ent.Mixin { return []ent.Mixin{BaseMixin{}, VenueMixin{}} }

// Fields of the Subscription.
func (Subscription) Fields() []ent.Field {
	return []ent.Field{
		field.UUID("member_id", uuidType).Immutable(),
		field.UUID("pass_id", uuidType).Immutable(),
		// pass_type_id follows the pass: a Move to Flexible changes it when
		// the flexible phase's first period is paid.
		field.UUID("pass_type_id", uuidType),
		field.String("customer_id").NotEmpty().MaxLen(255).Immutable(),
		field.String("payment_method_id").Optional().Nillable().MaxLen(255),
		field.String("processor_subscription_id").Optional().Nillable().MaxLen(255),
		field.String("processor_status").Default("incomplete").MaxLen(40),
		field.Int64("amount_minor").Positive(),
		field.String("currency").MinLen(3).MaxLen(3).Immutable(),
		field.Int("vat_rate_bp").Min(0).Max(10000),
		field.Enum("interval").Values("day", "week", "month", "year").Immutable(),
		field.Int("interval_count").Positive().Immutable(),
		field.Time("current_period_end").Optional().Nillable(),
		field.Time("next_charge_at").Optional().Nillable(),
		field.Time("canceled_at").Optional().Nillable(),
		// cancel_at is when a membership cancelled at the end of its period
		// ends instead of renewing (CancelAtPeriodEnd): the current
		// cancellation, cleared when Stripe's subscription no longer ends
		// (the cancellation withdrawn). A Move to Flexible made the old way
		// ends the old subscription too, but is no cancellation.
		field.Time("cancel_at").Optional().Nillable(),
		// collection is how each period is paid: card (Stripe charges the
		// saved card, charge_automatically) or external (the member pays
		// outside the service, Stripe's send_invoice; staff record each
		// cycle's settlement).
		field.Enum("collection").Values("card", "external").Default("card"),
	}
}

// Edges of the Subscription: the member, checked to be the venue's own.
func (Subscription) Edges() []ent.Edge {
	return []ent.Edge{
		edge.To("member", Member.Type).Field("member_id").Unique().Required().Immutable(),
	}
}

// Indexes of the Subscription: one per pass, one row per Stripe subscription.
func (Subscription) Indexes() []ent.Index {
	return []ent.Index{
		index.Fields("organization_id", "pass_id").Unique(),
		index.Fields("processor_subscription_id").Unique(),
		index.Fields("organization_id", "member_id"),
	}
}

// Invoice is one bill to a member (a membership's renewal period), the truth
// the member and staff see: its number, gapless per venue and year (taken
// from InvoiceCounter in the transaction that creates the invoice), its lines
// with VAT, its totals, what was paid, and its status. Stripe's invoice, when
// there is one, is processor_invoice_id; our row never takes its number or
// status from Stripe unchecked.
type Invoice struct{ ent.Schema }

// Mixin of the Invoice.
func (Invoice) Mixin() []ent.Mixin { return []ent.Mixin{BaseMixin{}, VenueMixin{}} }

// Fields of the Invoice.
func (Invoice) Fields() []ent.Field {
	return []ent.Field{
		field.UUID("member_id", uuidType).Immutable(),
		field.UUID("pass_id", uuidType).Optional().Nillable().Immutable(),
		field.UUID("subscription_id", uuidType).Optional().Nillable().Immutable(),
		field.String("processor_invoice_id").Optional().Nillable().MaxLen(255).Immutable(),
		field.Int("year").Immutable(),
		field.Int("sequence").Positive().Immutable(),
		field.String("number").NotEmpty().MaxLen(40).Immutable(),
		field.Enum("status").Values("draft", "sent", "viewed", "overdue", "partially_paid", "paid", "void", "uncollectible").Default("sent"),
		field.JSON("lines", []model.InvoiceLine{}).
			Annotations(entoas.Schema(ogen.NewSchema().SetType("array").SetItems(ogen.NewSchema().SetType("object")).SetDescription("The invoice's lines."))),
		field.Int64("subtotal_minor").NonNegative(),
		field.Int64("discount_minor").NonNegative().Default(0),
		field.Int64("vat_minor").NonNegative(),
		field.Int64("total_minor").NonNegative(),
		field.Int64("amount_paid_minor").NonNegative().Default(0),
		field.String("currency").MinLen(3).MaxLen(3).Immutable(),
		field.Time("issued_at").Immutable(),
		field.Time("due_date").SchemaType(dateType),
		field.Time("period_start").Optional().Nillable(),
		field.Time("period_end").Optional().Nillable(),
		field.Time("paid_at").Optional().Nillable(),
		field.Time("viewed_at").Optional().Nillable(),
		field.Time("failed_at").Optional().Nillable(),
		field.String("failure_code").Optional().Nillable().MaxLen(100),
		field.String("decline_code").Optional().Nillable().MaxLen(100),
		field.Int("attempt_count").NonNegative().Default(0),
		field.String("payment_intent_id").Optional().Nillable().MaxLen(255),
		field.UUID("payment_id", uuidType).Optional().Nillable(),
		field.Enum("settlement").Values("card", "external", "comp").Optional().Nillable().
			Comment("How a paid invoice was settled: by card, recorded by staff as paid outside (cash, transfer), or comped."),
	}
}

// Edges of the Invoice: the member, checked to be the venue's own.
func (Invoice) Edges() []ent.Edge {
	return []ent.Edge{
		edge.To("member", Member.Type).Field("member_id").Unique().Required().Immutable(),
	}
}

// Indexes of the Invoice.
func (Invoice) Indexes() []ent.Index {
	return []ent.Index{
		index.Fields("organization_id", "year", "sequence").Unique(),
		index.Fields("processor_invoice_id").Unique(),
		index.Fields("organization_id", "member_id", "created_at", "id"),
		index.Fields("organization_id", "status", "failed_at"),
	}
}

// InvoiceCounter is the next invoice sequence of a venue in a year. The
// transaction creating an invoice locks the row (SELECT ... FOR UPDATE),
// takes the number and moves the counter on, so numbers are gapless: a
// rolled-back invoice rolls its number back with it (a sequence would not).
type InvoiceCounter struct{ ent.Schema }

// Mixin of the InvoiceCounter.
func (InvoiceCounter) Mixin() []ent.Mixin { return []ent.Mixin{BaseMixin{}, VenueMixin{}} }

// Fields of the InvoiceCounter.
func (InvoiceCounter) Fields() []ent.Field {
	return []ent.Field{
		field.Int("year").Immutable(),
		field.Int("next").Positive().Default(1),
	}
}

// Indexes of the InvoiceCounter: one per venue and year.
func (InvoiceCounter) Indexes() []ent.Index {
	return []ent.Index{index.Fields("organization_id", "year").Unique()}
}
