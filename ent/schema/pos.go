package schema

import (
	"entgo.io/contrib/entoas"
	"entgo.io/ent"
	"entgo.io/ent/schema/edge"
	"entgo.io/ent/schema/field"
	"entgo.io/ent/schema/index"

	"github.com/venueplatform/venue/internal/model"
)

// Product is a retail item the front desk sells (water, mats, towels): its
// stock on hand, which a sale takes from and a return puts back, never below
// zero (a CHECK constraint besides the conditional update). Its prices are
// per currency in ProductPrice.
type Product struct{ ent.Schema }

// Mixin of the Product.
func (Product) Mixin() []ent.Mixin { return []ent.Mixin{BaseMixin{}, VenueMixin{}} }

// Fields of the Product.
func (Product) Fields() []ent.Field {
	return []ent.Field{
		field.String("name").NotEmpty().MaxLen(200),
		field.String("sku").Optional().Nillable().MaxLen(64),
		field.Int("stock_on_hand").Default(0).NonNegative().
			Comment("Units in stock; a sale takes them under a conditional update, never below zero."),
		field.Bool("active").Default(true),
	}
}

// Indexes of the Product.
func (Product) Indexes() []ent.Index {
	return []ent.Index{index.Fields("organization_id", "sku").Unique()}
}

// ProductPrice is a product's price book entry in one currency: the
// VAT-inclusive unit price and its version, raised by every change, so a
// preview names the versions it priced from and a sale can tell.
type ProductPrice struct{ ent.Schema }

// Mixin of the ProductPrice.
func (ProductPrice) Mixin() []ent.Mixin { return []ent.Mixin{BaseMixin{}, VenueMixin{}} }

// Fields of the ProductPrice.
func (ProductPrice) Fields() []ent.Field {
	return []ent.Field{
		field.UUID("product_id", uuidType).Immutable(),
		field.String("currency").MinLen(3).MaxLen(3).Immutable(),
		field.Int64("price_minor").NonNegative(),
		field.Int("version").Positive().Default(1),
	}
}

// Edges of the ProductPrice.
func (ProductPrice) Edges() []ent.Edge {
	return []ent.Edge{
		edge.To("product", Product.Type).Field("product_id").Unique().Required().Immutable(),
	}
}

// Indexes of the ProductPrice: one price per product and currency.
func (ProductPrice) Indexes() []ent.Index {
	return []ent.Index{index.Fields("organization_id", "product_id", "currency").Unique()}
}

// StockMovement is one change of a product's stock: a sale (negative), a
// return (positive) or a stock adjustment, with the stock after it.
// Append-only; the product's stock_on_hand equals the last stock_after.
type StockMovement struct{ ent.Schema }

// Mixin of the StockMovement.
func (StockMovement) Mixin() []ent.Mixin { return []ent.Mixin{BaseMixin{}, VenueMixin{}} }

// Fields of the StockMovement.
func (StockMovement) Fields() []ent.Field {
	return []ent.Field{
		field.UUID("product_id", uuidType).Immutable(),
		field.Enum("kind").Values("sale", "return", "adjustment", "release").Immutable(),
		field.Int("delta").Immutable(),
		field.Int("stock_after").NonNegative().Immutable(),
		field.UUID("sale_id", uuidType).Optional().Nillable().Immutable(),
		field.UUID("return_id", uuidType).Optional().Nillable().Immutable(),
		field.UUID("user_id", uuidType).Optional().Nillable().Immutable().Comment("The staff member who moved it."),
		field.String("reason").Default("").MaxLen(500).Immutable(),
	}
}

// Edges of the StockMovement.
func (StockMovement) Edges() []ent.Edge {
	return []ent.Edge{
		edge.To("product", Product.Type).Field("product_id").Unique().Required().Immutable(),
	}
}

// Indexes of the StockMovement.
func (StockMovement) Indexes() []ent.Index {
	return []ent.Index{index.Fields("organization_id", "product_id", "created_at")}
}

// PosSale is one sale at the front desk: what was sold (products, a pass or
// a gift card), the totals the preview showed and the sale charged
// (VAT-inclusive), how it was paid, and the payment row it wrote. One sale
// per staff member and Idempotency-Key (request_key).
type PosSale struct{ ent.Schema }

// Mixin of the PosSale.
func (PosSale) Mixin() []ent.Mixin { return []ent.Mixin{BaseMixin{}, VenueMixin{}} }

// Fields of the PosSale.
func (PosSale) Fields() []ent.Field {
	return []ent.Field{
		field.String("request_key").NotEmpty().MaxLen(128).Immutable().
			Comment("Digest of the Idempotency-Key of the sale request."),
		field.Enum("kind").Values("products", "pass", "gift_card").Immutable(),
		field.Enum("method").Values("cash", "gift_card", "card", "payment_link").Immutable(),
		field.String("currency").MinLen(3).MaxLen(3).Immutable(),
		field.Int64("subtotal_minor").NonNegative().Immutable(),
		field.Int64("discount_minor").NonNegative().Default(0).Immutable(),
		field.Int64("vat_minor").NonNegative().Immutable(),
		field.Int("vat_rate_bp").Min(0).Max(10000).Immutable(),
		field.Int64("total_minor").NonNegative().Immutable(),
		field.JSON("lines", []model.PosLine{}).Immutable().Annotations(entoas.Skip(true)),
		field.UUID("member_id", uuidType).Optional().Nillable().Immutable(),
		field.UUID("payment_id", uuidType).Immutable(),
		field.UUID("pass_id", uuidType).Optional().Nillable().Immutable(),
		field.UUID("gift_card_id", uuidType).Optional().Nillable().Immutable().
			Comment("The card that paid (method gift_card) or the card sold (kind gift_card)."),
		field.UUID("sold_by_user_id", uuidType).Immutable(),
		field.Time("business_date").SchemaType(dateType).Immutable().Comment("The venue-local date of the sale."),
		field.String("promo_exception_kind").Optional().Nillable().MaxLen(40).Immutable(),
		field.String("promo_exception_reason").Optional().Nillable().MaxLen(500).Immutable(),
	}
}

// Indexes of the PosSale.
func (PosSale) Indexes() []ent.Index {
	return []ent.Index{
		index.Fields("organization_id", "sold_by_user_id", "request_key").Unique(),
		index.Fields("organization_id", "business_date"),
	}
}

// PosReturn is a return of products to stock, recorded once per
// Idempotency-Key (the key itself, 8 to 160 ASCII characters, with a digest
// of the body it came with: the same key with another body is refused).
type PosReturn struct{ ent.Schema }

// Mixin of the PosReturn.
func (PosReturn) Mixin() []ent.Mixin { return []ent.Mixin{BaseMixin{}, VenueMixin{}} }

// Fields of the PosReturn.
func (PosReturn) Fields() []ent.Field {
	return []ent.Field{
		field.String("request_key").NotEmpty().MaxLen(160).Immutable(),
		field.String("body_digest").NotEmpty().MaxLen(64).Immutable(),
		field.UUID("sale_id", uuidType).Optional().Nillable().Immutable(),
		field.JSON("lines", []model.PosLine{}).Immutable().Annotations(entoas.Skip(true)),
		field.String("reason").NotEmpty().MaxLen(500).Immutable(),
		field.UUID("user_id", uuidType).Immutable(),
	}
}

// Indexes of the PosReturn.
func (PosReturn) Indexes() []ent.Index {
	return []ent.Index{
		index.Fields("organization_id", "request_key").Unique(),
		index.Fields("organization_id", "sale_id"),
	}
}

// PosDayClose is a venue's end-of-day close of one business date: the
// takings per payment method, the cash expected from them and the cash
// counted. Closing the same date again replaces the row.
type PosDayClose struct{ ent.Schema }

// Mixin of the PosDayClose.
func (PosDayClose) Mixin() []ent.Mixin { return []ent.Mixin{BaseMixin{}, VenueMixin{}} }

// Fields of the PosDayClose.
func (PosDayClose) Fields() []ent.Field {
	return []ent.Field{
		field.Time("business_date").SchemaType(dateType).Immutable(),
		field.String("currency").MinLen(3).MaxLen(3),
		field.JSON("totals", []model.PosMethodTotal{}).Annotations(entoas.Skip(true)),
		field.Int64("opening_float_minor").NonNegative().Default(0),
		field.Int64("expected_cash_minor"),
		field.Int64("counted_cash_minor").NonNegative(),
		field.Int64("difference_minor"),
		field.String("note").Default("").MaxLen(500),
		field.UUID("closed_by_user_id", uuidType),
		field.Time("closed_at"),
	}
}

// Indexes of the PosDayClose: one close per date.
func (PosDayClose) Indexes() []ent.Index {
	return []ent.Index{index.Fields("organization_id", "business_date").Unique()}
}

// PosFavorites is a venue's quick-sale pins: up to 24 pass types and
// products the desk shows first, in order. One row per venue.
type PosFavorites struct{ ent.Schema }

// Mixin of the PosFavorites.
func (PosFavorites) Mixin() []ent.Mixin { return []ent.Mixin{BaseMixin{}, VenueMixin{}} }

// Fields of the PosFavorites.
func (PosFavorites) Fields() []ent.Field {
	return []ent.Field{
		field.JSON("pinned", []model.PosPin{}).Annotations(entoas.Skip(true)),
		field.UUID("updated_by_user_id", uuidType),
	}
}

// Indexes of the PosFavorites: one row per venue.
func (PosFavorites) Indexes() []ent.Index {
	return []ent.Index{index.Fields("organization_id").Unique().StorageKey("posfavorites_organization_unique")}
}

// StaffPin is a staff member's kiosk PIN at a venue, stored as an argon2id
// hash; the kiosk check answers valid or not, never which part was wrong.
type StaffPin struct{ ent.Schema }

// Mixin of the StaffPin.
func (StaffPin) Mixin() []ent.Mixin { return []ent.Mixin{BaseMixin{}, VenueMixin{}} }

// Fields of the StaffPin.
func (StaffPin) Fields() []ent.Field {
	return []ent.Field{
		field.UUID("user_id", uuidType).Immutable(),
		field.String("pin_hash").NotEmpty().MaxLen(255).Sensitive().Annotations(entoas.Skip(true)),
	}
}

// Indexes of the StaffPin: one PIN per staff member and venue.
func (StaffPin) Indexes() []ent.Index {
	return []ent.Index{index.Fields("organization_id", "user_id").Unique()}
}
