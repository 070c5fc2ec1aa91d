package schema

import (
	"entgo.io/ent"
	"entgo.io/ent/schema/field"
	"entgo.io/ent/schema/index"
)

// SalesDaily is the daily rollup of a venue's payments that the sales
// snapshot reads (package reports): one row per basis, venue-local day and
// dimension set (currency, method, category, brand, location) with the sum
// and count of the payments in it, and of the refunds of such payments that
// succeeded that day (netted by the snapshot). A PostgreSQL trigger on payments keeps it
// in the payment's own transaction for every writer (ent, the importer, COPY,
// plain SQL); GET /admin/sales-snapshot?refresh=1 recomputes a range from the
// payment rows. Brand and location are the nil UUID for "none", so the
// unique key has no NULLs.
type SalesDaily struct{ ent.Schema }

// Mixin of the SalesDaily.
func (SalesDaily) Mixin() []ent.Mixin {
	return []ent.Mixin{BaseMixin{}, VenueMixin{}}
}

// Fields of the SalesDaily.
func (SalesDaily) Fields() []ent.Field {
	return []ent.Field{
		field.Enum("basis").Values("cash", "accrual").
			Comment("cash: succeeded payments by paid_at; accrual: pending and succeeded payments by created_at."),
		field.Time("day").SchemaType(dateType).Comment("The venue-local date."),
		field.String("currency").MinLen(3).MaxLen(3),
		field.Enum("method").Values(PaymentMethods...),
		field.String("category").MaxLen(32).Comment("The payment's kind."),
		field.UUID("brand_id", uuidType),
		field.UUID("location_id", uuidType),
		field.Int64("amount_minor"),
		field.Int64("payments"),
		field.Int64("refunded_minor").Default(0).
			Comment("Refunds that succeeded on this day, of payments of these dimensions (a trigger on refunds)."),
		field.Int64("refunds").Default(0),
	}
}

// Indexes of the SalesDaily.
func (SalesDaily) Indexes() []ent.Index {
	return []ent.Index{
		index.Fields("organization_id", "basis", "day", "currency", "method", "category", "brand_id", "location_id").Unique(),
	}
}
