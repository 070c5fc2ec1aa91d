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

// jsonObject documents a structured JSON field as an object in the OpenAPI
// components (entoas cannot derive a schema from a Go struct).
func jsonObject(description string) entoas.Annotation {
	return entoas.Schema(ogen.NewSchema().SetType("object").SetDescription(description))
}

// PassType is a product a member buys: a drop-in, a clip card or a membership.
type PassType struct{ ent.Schema }

// Mixin of the PassType.
func (PassType) Mixin() []ent.Mixin {
	return []ent.Mixin{BaseMixin{}, VenueMixin{}, ImportRefMixin{}}
}

// Fields of the PassType.
func (PassType) Fields() []ent.Field {
	return []ent.Field{
		field.String("name").NotEmpty().MaxLen(200),
		field.String("slug").NotEmpty().MaxLen(100).Match(slugPattern),
		field.String("description").Optional(),
		field.Enum("category").Values("drop_in", "clip_card", "membership", "intro_offer", "workshop", "other"),
		field.Int64("price_minor").NonNegative(),
		field.String("currency").MinLen(3).MaxLen(3),
		field.Bool("is_recurring").Default(false),
		field.Enum("billing_interval").Values("day", "week", "month", "year").Optional().Nillable(),
		field.Int("billing_interval_count").Optional().Nillable().Positive(),
		field.Enum("pricing_mode").Values("fixed", "flexible_quantity").Default("fixed"),
		field.UUID("active_pricing_version_id", uuidType).Optional().Nillable(),
		field.JSON("flexible_pricing_config", &model.FlexiblePricingConfig{}).Optional().
			Annotations(jsonObject("Configuration of a flexible-quantity membership.")),
		field.JSON("binding_tiers", []model.BindingTier{}).Optional().
			Annotations(entoas.Schema(ogen.NewSchema().SetType("array").SetDescription("Binding tiers of a recurring membership: months bound and the price per billing period."))),
		field.Int("clips").Optional().Nillable().Positive(),
		field.Int("validity_days").Optional().Nillable().Positive(),
		field.Bool("grants_in_person").Default(true),
		field.Bool("grants_online").Default(true),
		field.Bool("active").Default(true),
		field.Bool("listed").Default(true),
		field.Int("sort_order").Default(0),
		field.Int("share_slots").Default(0).NonNegative().
			Comment("How many other members one pass of this type may be shared with (0: not shareable)."),
	}
}

// Edges of the PassType.
func (PassType) Edges() []ent.Edge {
	return []ent.Edge{
		edge.To("allowed_brands", Brand.Type),
		edge.To("allowed_class_types", ClassType.Type),
		edge.To("passes", Pass.Type),
		edge.From("flash_sales", FlashSale.Type).Ref("applicable_pass_types"),
		edge.To("gift_cards", GiftCard.Type),
	}
}

// Indexes of the PassType.
func (PassType) Indexes() []ent.Index {
	return []ent.Index{index.Fields("organization_id", "slug").Unique()}
}

// Pass is a member's purchased pass or membership.
type Pass struct{ ent.Schema }

// Mixin of the Pass.
func (Pass) Mixin() []ent.Mixin {
	return []ent.Mixin{BaseMixin{}, VenueMixin{}, ImportRefMixin{}}
}

// Fields of the Pass.
func (Pass) Fields() []ent.Field {
	return []ent.Field{
		field.UUID("member_id", uuidType),
		field.UUID("pass_type_id", uuidType),
		field.Enum("status").Values("pending", "active", "past_due", "suspended", "expired", "cancelled", "pending_activation").Default("active"),
		field.Time("valid_from").SchemaType(dateType),
		field.Time("valid_to").Optional().Nillable().SchemaType(dateType),
		field.Int("clips_remaining").Optional().Nillable().NonNegative(),
		field.Enum("flexible_kind").Values("quantity", "unlimited").Optional().Nillable().
			Comment("A flexible-quantity membership's selection: a number of classes per period, or unlimited."),
		field.Int("flexible_quantity").Optional().Nillable().Positive().
			Comment("Classes per period of a quantity selection."),
		field.JSON("flexible_change", &model.FlexibleChange{}).Optional().
			Annotations(jsonObject("The member's scheduled change of a flexible membership's selection, from a renewal on.")),
	}
}

// Edges of the Pass.
func (Pass) Edges() []ent.Edge {
	return []ent.Edge{
		edge.From("member", Member.Type).Ref("passes").Field("member_id").Unique().Required(),
		edge.From("pass_type", PassType.Type).Ref("passes").Field("pass_type_id").Unique().Required(),
		edge.To("bookings", Booking.Type),
		edge.To("payments", Payment.Type),
	}
}

// Indexes of the Pass.
func (Pass) Indexes() []ent.Index {
	return []ent.Index{index.Fields("organization_id", "member_id")}
}

// Booking is a member's seat (or waitlist place) in a class instance.
type Booking struct{ ent.Schema }

// Mixin of the Booking.
func (Booking) Mixin() []ent.Mixin {
	return []ent.Mixin{BaseMixin{}, VenueMixin{}, ImportRefMixin{}, BookingRequestMixin{}}
}

// Fields of the Booking.
func (Booking) Fields() []ent.Field {
	return []ent.Field{
		field.UUID("member_id", uuidType),
		field.UUID("class_instance_id", uuidType),
		field.UUID("pass_id", uuidType).Optional().Nillable(),
		field.Enum("status").
			NamedValues(
				"Confirmed", "confirmed",
				"Waitlisted", "waitlisted",
				"CheckedIn", "checked_in",
				"NoShow", "no-show",
				"Cancelled", "cancelled",
				"LateCancelled", "late-cancelled",
				"PendingPayment", "pending_payment",
			).Default("confirmed"),
		field.Int("waitlist_position").Optional().Nillable().Positive().
			Comment("Rank on the class's waitlist (1 is next), contiguous; null once the booking leaves the waitlist."),
		field.Time("cancelled_at").Optional().Nillable(),
		field.Time("checked_in_at").Optional().Nillable(),
		field.Bool("clip_charged").Default(false).
			Comment("Whether the booking took one clip from its pass; cancelling restores exactly what was taken."),
		field.Enum("booked_via").Values("member", "api_key", "staff", "buddy", "import").Optional().Nillable().
			Comment("Who made the booking: the member, an API key, staff, a buddy invitation, or an import."),
		field.Time("promoted_at").Optional().Nillable().
			Comment("When the booking left the waitlist for a freed seat."),
		field.String("cancel_reason").Optional().Nillable().MaxLen(100).
			Comment("member, late_member, class_cancelled, staff, ..."),
		field.Int64("late_cancel_fee_minor").Optional().Nillable().NonNegative().
			Comment("The late-cancellation fee charged to the member, in minor units of the venue's currency."),
		field.Enum("fee_status").Values("unpaid", "charged", "settled", "waived").Optional().Nillable().
			Comment("State of the late-cancellation fee; null when there is none."),
		field.Time("watch_admitted_at").Optional().Nillable().
			Comment("When the member was first admitted to the class's live stream."),
	}
}

// Edges of the Booking.
func (Booking) Edges() []ent.Edge {
	return []ent.Edge{
		edge.From("member", Member.Type).Ref("bookings").Field("member_id").Unique().Required(),
		edge.From("class_instance", ClassInstance.Type).Ref("bookings").Field("class_instance_id").Unique().Required(),
		edge.From("pass", Pass.Type).Ref("bookings").Field("pass_id").Unique(),
	}
}

// Indexes of the Booking.
func (Booking) Indexes() []ent.Index {
	return []ent.Index{
		index.Fields("organization_id", "class_instance_id", "status"),
		index.Fields("organization_id", "member_id"),
		// A person's own bookings (booking.ListOwn) are found by their
		// member ids across venues, without a venue to lead the index.
		index.Fields("member_id"),
	}
}

// Payment is money received from (or owed by) a member.
type Payment struct{ ent.Schema }

// Mixin of the Payment.
func (Payment) Mixin() []ent.Mixin {
	return []ent.Mixin{BaseMixin{}, VenueMixin{}, ImportRefMixin{}}
}

// Fields of the Payment.
func (Payment) Fields() []ent.Field {
	return []ent.Field{
		field.UUID("member_id", uuidType).Optional().Nillable(),
		field.UUID("pass_id", uuidType).Optional().Nillable(),
		field.Int64("amount_minor"),
		field.String("currency").MinLen(3).MaxLen(3),
		field.Enum("status").Values("pending", "succeeded", "failed", "refunded", "partially_refunded", "cancelled").Default("pending"),
		field.Enum("kind").Values("pass_purchase", "renewal", "drop_in", "product", "gift_card", "fee", "other", "appointment").Default("other"),
		field.Time("paid_at").Optional().Nillable(),
		field.String("processor_payment_id").Optional().Nillable(),
		// Reporting dimensions (package reports): how the money came in, and the
		// brand and location a sale belongs to when its writer knows them (a
		// desk sale does; an online card checkout has no location).
		field.Enum("method").Values(PaymentMethods...).Default("other"),
		field.UUID("brand_id", uuidType).Optional().Nillable(),
		field.UUID("location_id", uuidType).Optional().Nillable(),
	}
}

// PaymentMethods are the ways a payment is taken: by card (online or a saved
// card at the desk), cash, gift card, bank transfer, or other (imported rows
// and writers that do not say).
var PaymentMethods = []string{"card", "cash", "gift_card", "bank_transfer", "other"}

// Edges of the Payment.
func (Payment) Edges() []ent.Edge {
	return []ent.Edge{
		edge.From("member", Member.Type).Ref("payments").Field("member_id").Unique(),
		edge.From("pass", Pass.Type).Ref("payments").Field("pass_id").Unique(),
	}
}

// Indexes of the Payment.
func (Payment) Indexes() []ent.Index {
	return []ent.Index{
		index.Fields("organization_id", "paid_at"),
		// A member's own pages (/me/payments by paid_at, the history by created_at) read
		// that member's rows in order instead of the venue's.
		index.Fields("organization_id", "member_id", "paid_at", "id"),
		index.Fields("organization_id", "member_id", "created_at", "id"),
	}
}

// FlashSale is a time-boxed offer on pass types, shown on chosen placements.
type FlashSale struct{ ent.Schema }

// Mixin of the FlashSale.
func (FlashSale) Mixin() []ent.Mixin {
	return []ent.Mixin{BaseMixin{}, VenueMixin{}}
}

// Fields of the FlashSale.
func (FlashSale) Fields() []ent.Field {
	return []ent.Field{
		field.String("name").NotEmpty().MaxLen(200),
		field.JSON("commercial_rule", model.CommercialRule{}).
			Annotations(jsonObject("The commercial rule of the offer (version 2).")),
		field.Enum("product_family").Values("recurring", "non_recurring"),
		field.Time("starts_at"),
		field.Time("ends_at"),
		field.Strings("placements"),
		field.Int("capacity_max").Optional().Nillable().Positive(),
		field.Int("claimed_count").Default(0).NonNegative(),
		field.JSON("presentation", model.Presentation{}).
			Annotations(jsonObject("How the offer is presented.")),
		field.Time("cancelled_at").Optional().Nillable(),
		field.UUID("created_by_user_id", uuidType).Optional().Nillable(),
	}
}

// Edges of the FlashSale.
func (FlashSale) Edges() []ent.Edge {
	return []ent.Edge{
		edge.To("applicable_pass_types", PassType.Type),
	}
}

// Indexes of the FlashSale.
func (FlashSale) Indexes() []ent.Index {
	return []ent.Index{index.Fields("organization_id", "starts_at", "ends_at")}
}
