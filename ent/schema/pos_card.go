package schema

import (
	"entgo.io/contrib/entoas"
	"entgo.io/ent"
	"entgo.io/ent/schema/field"
	"entgo.io/ent/schema/index"

	"github.com/venueplatform/venue/internal/model"
)

// PosCardSale is a desk sale paid by card without a terminal, while its
// payment is under way: charged to the member's saved card (off-session) or
// offered as a payment link the member pays on their own device. It is the
// payment subject (attempt purpose pos_sale_charge): the totals and lines
// are the preview's, frozen; the products are taken from stock when it is
// made (reserved) and put back if it lapses unpaid (hold_expires_at) or the
// card is declined. Once paid it becomes the PosSale of the same id, once.
// status: pending (waiting for the money), completed, lapsed (the hold ended
// unpaid; stock released, the intent cancelled), failed (declined).
type PosCardSale struct{ ent.Schema }

// Mixin of the PosCardSale.
func (PosCardSale) Mixin() []ent.Mixin { return []ent.Mixin{BaseMixin{}, VenueMixin{}} }

// Fields of the PosCardSale.
func (PosCardSale) Fields() []ent.Field {
	return []ent.Field{
		field.String("request_key").NotEmpty().MaxLen(128).Immutable().
			Comment("Digest of the Idempotency-Key of the sale request."),
		field.Enum("kind").Values("products", "pass").Immutable(),
		field.Enum("method").Values("card", "payment_link").Immutable(),
		field.Enum("status").Values("pending", "completed", "lapsed", "failed").Default("pending"),
		field.Bool("membership").Default(false).Immutable().
			Comment("Sold through /admin/memberships (the pass activates through the payments checkout)."),
		field.String("currency").MinLen(3).MaxLen(3).Immutable(),
		field.Int64("subtotal_minor").NonNegative().Immutable(),
		field.Int64("discount_minor").NonNegative().Default(0).Immutable(),
		field.Int64("vat_minor").NonNegative().Immutable(),
		field.Int("vat_rate_bp").Min(0).Max(10000).Immutable(),
		field.Int64("total_minor").Positive().Immutable(),
		field.JSON("lines", []model.PosLine{}).Immutable().Annotations(entoas.Skip(true)),
		field.UUID("member_id", uuidType).Optional().Nillable().Immutable(),
		field.UUID("pass_type_id", uuidType).Optional().Nillable().Immutable(),
		field.UUID("checkout_id", uuidType).Optional().Nillable().Immutable().
			Comment("The payments checkout a pass activates through."),
		field.String("payment_method_id").Optional().Nillable().MaxLen(255).Immutable(),
		field.String("return_base_url").Default("").MaxLen(500).Immutable(),
		field.UUID("sold_by_user_id", uuidType).Immutable(),
		field.Time("business_date").SchemaType(dateType).Immutable(),
		field.Time("hold_expires_at"),
		field.String("promo_exception_kind").Optional().Nillable().MaxLen(40).Immutable(),
		field.String("promo_exception_reason").Optional().Nillable().MaxLen(500).Immutable(),
		field.Time("completed_at").Optional().Nillable(),
	}
}

// Indexes of the PosCardSale.
func (PosCardSale) Indexes() []ent.Index {
	return []ent.Index{
		index.Fields("organization_id", "sold_by_user_id", "request_key").Unique(),
		index.Fields("status", "hold_expires_at"),
	}
}
