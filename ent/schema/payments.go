package schema

import (
	"entgo.io/contrib/entoas"
	"entgo.io/ent"
	"entgo.io/ent/schema/edge"
	"entgo.io/ent/schema/field"
	"entgo.io/ent/schema/index"
)

// VenuePayments is a venue's card-payment settings: its Stripe connected
// account (Connect, direct mode), whether that account may take charges (kept
// current by account.updated), the VAT rate prices include and the platform's
// application fee. One row per venue; no row means card payments are off.
type VenuePayments struct{ ent.Schema }

// Mixin of the VenuePayments.
func (VenuePayments) Mixin() []ent.Mixin { return []ent.Mixin{BaseMixin{}, VenueMixin{}} }

// Fields of the VenuePayments.
func (VenuePayments) Fields() []ent.Field {
	return []ent.Field{
		field.String("account_id").Optional().Nillable().MaxLen(255).
			Comment("The venue's Stripe connected account (acct_...); null until onboarding starts."),
		field.Bool("charges_enabled").Default(false),
		field.Bool("details_submitted").Default(false),
		field.Int("vat_rate_bp").Default(2500).Min(0).Max(10000).
			Comment("VAT rate in basis points that the venue's prices include (2500 is 25 %)."),
		field.Int("application_fee_bp").Default(0).Min(0).Max(10000).
			Comment("The platform's cut of each charge, in basis points."),
	}
}

// Indexes of the VenuePayments: one row per venue, one venue per account.
func (VenuePayments) Indexes() []ent.Index {
	return []ent.Index{
		index.Fields("organization_id").Unique().StorageKey("venuepayments_organization_unique"),
		index.Fields("account_id").Unique(),
	}
}

// Checkout is one purchase of a pass type by a member: the quote frozen when
// the member bought (amount, currency, VAT), the payment intent that charges
// it, and the pass its activation created. The frozen amounts are what is
// charged; nothing recomputes them.
type Checkout struct{ ent.Schema }

// Mixin of the Checkout.
func (Checkout) Mixin() []ent.Mixin { return []ent.Mixin{BaseMixin{}, VenueMixin{}} }

// Fields of the Checkout.
func (Checkout) Fields() []ent.Field {
	return []ent.Field{
		field.UUID("member_id", uuidType).Immutable(),
		field.UUID("pass_type_id", uuidType).Immutable(),
		field.Enum("status").Values("open", "paid", "failed", "canceled").Default("open"),
		field.Int64("amount_minor").NonNegative().Immutable(),
		field.String("currency").MinLen(3).MaxLen(3).Immutable(),
		field.Int64("vat_minor").NonNegative().Immutable(),
		field.Int("vat_rate_bp").Min(0).Max(10000).Immutable(),
		field.Int64("application_fee_minor").NonNegative().Default(0).Immutable(),
		field.String("quote_fingerprint").MaxLen(128).Immutable(),
		field.Time("quote_issued_at").Immutable(),
		field.String("request_key").Optional().Nillable().MaxLen(128).
			Comment("Digest of the Idempotency-Key of the purchase request that made the live attempt: its retry resumes that attempt."),
		field.String("payment_intent_id").Optional().Nillable().MaxLen(255),
		field.String("setup_intent_id").Optional().Nillable().MaxLen(255),
		field.UUID("pass_id", uuidType).Optional().Nillable(),
		field.Time("activated_at").Optional().Nillable(),
		field.UUID("flash_sale_id", uuidType).Optional().Nillable().Immutable().
			Comment("The flash-sale offer whose price was charged; its place was claimed when the checkout was made."),
		field.Time("intro_through").Optional().Nillable().Immutable().SchemaType(dateType).
			Comment("Last day the introductory price of the offer pays for (recurring offers)."),
		field.Int("binding_months").Optional().Nillable().Positive().Immutable().
			Comment("The binding tier bought: months the member is bound for."),
		field.Bool("vat_exempt").Default(false).Immutable().
			Comment("Whether the sale was VAT-exempt by the member's age on the venue-local sale date (vat_minor 0, vat_rate_bp 0)."),
		field.Enum("flexible_kind").Values("quantity", "unlimited").Optional().Nillable().Immutable().
			Comment("The flexible membership's selection bought (flexible quotes)."),
		field.Int("flexible_quantity").Optional().Nillable().Positive().Immutable(),
		field.Int64("credit_applied_minor").NonNegative().Default(0).Immutable().
			Comment("Member credit the quote applied; spent from the credit ledger when the checkout was made."),
		field.Time("hold_expires_at").Optional().Nillable().
			Comment("Until when the checkout holds what it claimed (the offer's place, the credit, a membership's pending pass); resume-checkout extends it."),
		field.Time("released_at").Optional().Nillable().
			Comment("When the lapsed hold was given back (offer place, credit); set once, by the sweep."),
		field.Time("starts_on").Optional().Nillable().Immutable().SchemaType(dateType).
			Comment("Venue-local date the member chose for the pass to start (the quote's start_date); null: the activation day."),
	}
}

// Edges of the Checkout: the member and pass type, checked to be the venue's
// own on create.
func (Checkout) Edges() []ent.Edge {
	return []ent.Edge{
		edge.To("member", Member.Type).Field("member_id").Unique().Required().Immutable(),
		edge.To("pass_type", PassType.Type).Field("pass_type_id").Unique().Required().Immutable(),
	}
}

// Indexes of the Checkout.
func (Checkout) Indexes() []ent.Index {
	return []ent.Index{
		index.Fields("organization_id", "member_id", "created_at"),
		// A quote is bought once: a second purchase of it finds this checkout.
		index.Fields("organization_id", "member_id", "quote_fingerprint").Unique(),
		index.Fields("payment_intent_id").Unique(),
		index.Fields("setup_intent_id").Unique(),
		// The hold sweep reads open checkouts whose hold lapsed.
		index.Fields("status", "hold_expires_at"),
	}
}

// PaymentAttempt is one write to Stripe, recorded before it is made: its
// purpose, its subject (a checkout), its number among the subject's attempts
// and its state. The Stripe idempotency key derives from the attempt
// (v1:{purpose}:{attempt_id}:{step}), so a retry reaches Stripe with the same
// key. live_subject_id holds the subject's id while the attempt is live
// (created, in flight, requiring action, processing or unknown) and null
// after; its unique index lets one live attempt exist per subject.
type PaymentAttempt struct{ ent.Schema }

// Mixin of the PaymentAttempt.
func (PaymentAttempt) Mixin() []ent.Mixin { return []ent.Mixin{BaseMixin{}, VenueMixin{}} }

// Fields of the PaymentAttempt.
func (PaymentAttempt) Fields() []ent.Field {
	return []ent.Field{
		field.Enum("purpose").Values("checkout_charge", "checkout_setup", "tip_charge", "gift_card_charge", "refund", "subscription_create", "invoice_pay", "appointment_charge", "visit_charge", "guest_invite_charge", "subscription_update", "invoice_item", "pos_sale_charge", "desk_charge", "fee_charge", "late_fee_charge").Immutable(),
		field.UUID("subject_id", uuidType).Immutable(),
		field.Int("number").Positive().Immutable(),
		field.Enum("state").Values("created", "in_flight", "succeeded", "failed", "requires_action", "processing", "unknown", "canceled").Default("created"),
		field.UUID("live_subject_id", uuidType).Optional().Nillable().
			Annotations(entoas.Skip(true)),
		field.String("processor_object_id").Optional().Nillable().MaxLen(255),
		field.String("failure_code").Optional().Nillable().MaxLen(100),
		field.String("decline_code").Optional().Nillable().MaxLen(100),
		// intent is what the request behind the attempt meant to do, kept
		// so that the reconcile or a late event finishes it as asked (an
		// external settlement's method and note, a collection change).
		field.JSON("intent", map[string]any{}).Optional().
			Annotations(entoas.Skip(true)),
	}
}

// Indexes of the PaymentAttempt.
func (PaymentAttempt) Indexes() []ent.Index {
	return []ent.Index{
		index.Fields("organization_id", "subject_id", "number").Unique(),
		// Not a partial index (ent's schema diff always sees those as changed):
		// NULLs are distinct, so only live attempts compete.
		index.Fields("live_subject_id").Unique(),
	}
}

// ProcessorEvent is an inbound Stripe event, recorded once by its id when the
// signed request arrives and processed by a job. It belongs to no venue until
// processing finds the venue its object names.
type ProcessorEvent struct{ ent.Schema }

// Mixin of the ProcessorEvent.
func (ProcessorEvent) Mixin() []ent.Mixin { return []ent.Mixin{BaseMixin{}} }

// Fields of the ProcessorEvent.
func (ProcessorEvent) Fields() []ent.Field {
	return []ent.Field{
		field.String("event_id").NotEmpty().MaxLen(255).Unique().Immutable(),
		field.String("type").MaxLen(100).Immutable(),
		field.String("account").Optional().MaxLen(255).Immutable(),
		field.Bytes("payload").Immutable(),
		field.Time("processed_at").Optional().Nillable(),
		field.String("outcome").Optional().MaxLen(100),
	}
}

// PaymentCustomer is a member's Stripe customer on the venue's connected
// account: where the member's saved cards live, and which is the default.
type PaymentCustomer struct{ ent.Schema }

// Mixin of the PaymentCustomer.
func (PaymentCustomer) Mixin() []ent.Mixin { return []ent.Mixin{BaseMixin{}, VenueMixin{}} }

// Fields of the PaymentCustomer.
func (PaymentCustomer) Fields() []ent.Field {
	return []ent.Field{
		field.UUID("member_id", uuidType).Immutable(),
		field.String("account_id").NotEmpty().MaxLen(255).Immutable().
			Comment("The connected account the customer lives on."),
		field.String("customer_id").NotEmpty().MaxLen(255).Immutable(),
		field.String("default_payment_method_id").Optional().Nillable().MaxLen(255),
	}
}

// Edges of the PaymentCustomer.
func (PaymentCustomer) Edges() []ent.Edge {
	return []ent.Edge{
		edge.To("member", Member.Type).Field("member_id").Unique().Required().Immutable(),
	}
}

// Indexes of the PaymentCustomer: one customer per member and account.
func (PaymentCustomer) Indexes() []ent.Index {
	return []ent.Index{
		index.Fields("organization_id", "member_id", "account_id").Unique(),
		index.Fields("customer_id").Unique(),
	}
}

// Tip is a member's tip for a class (to its instructor), paid by card on the
// venue's connected account.
type Tip struct{ ent.Schema }

// Mixin of the Tip.
func (Tip) Mixin() []ent.Mixin { return []ent.Mixin{BaseMixin{}, VenueMixin{}} }

// Fields of the Tip.
func (Tip) Fields() []ent.Field {
	return []ent.Field{
		field.UUID("member_id", uuidType).Immutable(),
		field.Enum("source_type").Values("class", "appointment").Immutable(),
		field.UUID("source_id", uuidType).Immutable(),
		field.UUID("instructor_id", uuidType).Optional().Nillable().Immutable(),
		field.Int64("amount_minor").Positive().Immutable(),
		field.String("currency").MinLen(3).MaxLen(3).Immutable(),
		field.String("message").Default("").MaxLen(500).Immutable(),
		field.Bool("anonymous").Default(false).Immutable(),
		field.Enum("status").Values("pending", "succeeded", "failed", "canceled").Default("pending"),
		field.String("payment_intent_id").Optional().Nillable().MaxLen(255),
		field.String("request_key").Optional().Nillable().MaxLen(128).Immutable(),
		field.Time("paid_at").Optional().Nillable(),
	}
}

// Edges of the Tip.
func (Tip) Edges() []ent.Edge {
	return []ent.Edge{
		edge.To("member", Member.Type).Field("member_id").Unique().Required().Immutable(),
	}
}

// Indexes of the Tip: a request makes one tip.
func (Tip) Indexes() []ent.Index {
	return []ent.Index{
		index.Fields("organization_id", "member_id", "request_key").Unique(),
		index.Fields("payment_intent_id").Unique(),
	}
}
