package schema

import (
	"entgo.io/contrib/entoas"
	"entgo.io/ent"
	"entgo.io/ent/schema"
	"entgo.io/ent/schema/edge"
	"entgo.io/ent/schema/field"
	"entgo.io/ent/schema/index"
)

// OpeningHours is one weekday's opening time of a venue or one location.
type OpeningHours struct{ ent.Schema }

// Mixin of the OpeningHours.
func (OpeningHours) Mixin() []ent.Mixin {
	return []ent.Mixin{BaseMixin{}, VenueMixin{}, ImportRefMixin{}}
}

// Edges of the OpeningHours.
func (OpeningHours) Edges() []ent.Edge {
	return []ent.Edge{
		edge.From("location", Location.Type).Ref("opening_hours").Field("location_id").Unique(),
	}
}

// Fields of the OpeningHours.
func (OpeningHours) Fields() []ent.Field {
	return []ent.Field{
		field.UUID("location_id", uuidType).Optional().Nillable().
			Comment("The location; null for the venue as a whole.").
			Annotations(entoas.Skip(true)),
		field.Int("weekday").Min(1).Max(7).Comment("ISO weekday: 1 is Monday, 7 is Sunday."),
		field.String("opens_at").Match(clockPattern).Optional().Comment("HH:MM, venue-local; empty when closed."),
		field.String("closes_at").Match(clockPattern).Optional().Comment("HH:MM, venue-local; empty when closed."),
		field.Bool("closed").Default(false),
	}
}

// Annotations of the OpeningHours: the API lists the hours of the venue and
// of each location under them, so the component leaves out the location.
func (OpeningHours) Annotations() []schema.Annotation {
	return []schema.Annotation{APIShape{Omit: []string{"id", "created_at", "updated_at", "organization_id"}}}
}

// Indexes of the OpeningHours.
func (OpeningHours) Indexes() []ent.Index {
	return []ent.Index{index.Fields("organization_id", "location_id", "weekday")}
}

// Amenity is a facility a venue or location offers (showers, mat rental).
type Amenity struct{ ent.Schema }

// Mixin of the Amenity.
func (Amenity) Mixin() []ent.Mixin {
	return []ent.Mixin{BaseMixin{}, VenueMixin{}, ImportRefMixin{}}
}

// Edges of the Amenity.
func (Amenity) Edges() []ent.Edge {
	return []ent.Edge{
		edge.From("location", Location.Type).Ref("amenities").Field("location_id").Unique(),
	}
}

// Fields of the Amenity.
func (Amenity) Fields() []ent.Field {
	return []ent.Field{
		field.UUID("location_id", uuidType).Optional().Nillable().Annotations(entoas.Skip(true)),
		field.String("name").NotEmpty().MaxLen(100),
		field.String("icon").Optional(),
		field.Int("sort_order").Default(0).Annotations(entoas.Skip(true)),
	}
}

// Annotations of the Amenity: the API lists amenities under the venue or
// their location, in display order, so neither is in the component.
func (Amenity) Annotations() []schema.Annotation {
	return []schema.Annotation{APIShape{Omit: internalColumns}}
}

// Photo is a public picture of a venue, location or brand.
type Photo struct{ ent.Schema }

// Mixin of the Photo.
func (Photo) Mixin() []ent.Mixin {
	return []ent.Mixin{BaseMixin{}, VenueMixin{}, ImportRefMixin{}}
}

// Edges of the Photo.
func (Photo) Edges() []ent.Edge {
	return []ent.Edge{
		edge.From("location", Location.Type).Ref("photos").Field("location_id").Unique(),
		edge.From("brand", Brand.Type).Ref("photos").Field("brand_id").Unique(),
	}
}

// Fields of the Photo.
func (Photo) Fields() []ent.Field {
	return []ent.Field{
		field.UUID("location_id", uuidType).Optional().Nillable().Annotations(entoas.Skip(true)),
		field.UUID("brand_id", uuidType).Optional().Nillable().Annotations(entoas.Skip(true)),
		field.String("url").NotEmpty(),
		field.String("caption").Optional(),
		field.Int("sort_order").Default(0).Annotations(entoas.Skip(true)),
	}
}

// Annotations of the Photo: the API lists photos under their venue, location
// or brand, in display order, so none of those is in the component.
func (Photo) Annotations() []schema.Annotation {
	return []schema.Annotation{APIShape{Omit: internalColumns}}
}

// AddonProduct is a product members add to a booking (mat, towel, shake).
type AddonProduct struct{ ent.Schema }

// Mixin of the AddonProduct.
func (AddonProduct) Mixin() []ent.Mixin {
	return []ent.Mixin{BaseMixin{}, VenueMixin{}, ImportRefMixin{}}
}

// Fields of the AddonProduct.
func (AddonProduct) Fields() []ent.Field {
	return []ent.Field{
		field.String("name").NotEmpty().MaxLen(200),
		field.String("category").Default("other"),
		field.String("description").Optional(),
		field.Int64("price_minor").NonNegative(),
		field.String("currency").MinLen(3).MaxLen(3),
		field.Bool("active").Default(true),
		field.Int("sort_order").Default(0),
	}
}

// GiftCard is a prepaid amount or a gifted pass, redeemable by its code.
type GiftCard struct{ ent.Schema }

// Mixin of the GiftCard.
func (GiftCard) Mixin() []ent.Mixin {
	return []ent.Mixin{BaseMixin{}, VenueMixin{}, ImportRefMixin{}}
}

// Edges of the GiftCard.
func (GiftCard) Edges() []ent.Edge {
	return []ent.Edge{
		edge.From("pass_type", PassType.Type).Ref("gift_cards").Field("pass_type_id").Unique(),
	}
}

// Fields of the GiftCard.
func (GiftCard) Fields() []ent.Field {
	return []ent.Field{
		field.String("code").NotEmpty().MaxLen(64),
		field.Enum("gift_type").Values("amount", "pass").Default("amount"),
		field.Int64("initial_amount_minor").NonNegative(),
		field.Int64("remaining_amount_minor").NonNegative(),
		field.String("currency").MinLen(3).MaxLen(3),
		field.Enum("status").Values("active", "redeemed", "expired", "cancelled").Default("active"),
		field.Time("expires_at").Optional().Nillable(),
		field.String("sender_name").Optional(),
		field.String("gift_description").Optional(),
		field.UUID("pass_type_id", uuidType).Optional().Nillable(),
	}
}

// Indexes of the GiftCard: codes are unique within a venue.
func (GiftCard) Indexes() []ent.Index {
	return []ent.Index{index.Fields("organization_id", "code").Unique()}
}

// IdempotencyKey records one claimed Idempotency-Key: the request it was
// first used with and, once finished, the answer to replay. Scope is the
// venue id (or "public") and principal the caller; it belongs to no venue
// row-wise because anonymous callers claim keys too.
type IdempotencyKey struct{ ent.Schema }

// Mixin of the IdempotencyKey.
func (IdempotencyKey) Mixin() []ent.Mixin { return []ent.Mixin{BaseMixin{}} }

// Fields of the IdempotencyKey.
func (IdempotencyKey) Fields() []ent.Field {
	return []ent.Field{
		field.String("scope").NotEmpty(),
		field.String("principal").NotEmpty(),
		field.String("key").NotEmpty().MaxLen(255),
		field.Bytes("request_hash"),
		field.Enum("state").Values("in_flight", "completed").Default("in_flight"),
		field.Int("response_status").Optional().Nillable(),
		field.Bytes("response_body").Optional().Nillable(),
		field.JSON("response_headers", map[string]string{}).Optional().
			Annotations(jsonObject("Replayed response headers.")),
		field.Time("locked_until"),
		field.Time("expires_at"),
	}
}

// Indexes of the IdempotencyKey.
func (IdempotencyKey) Indexes() []ent.Index {
	return []ent.Index{
		index.Fields("scope", "principal", "key").Unique(),
		index.Fields("expires_at"),
	}
}
