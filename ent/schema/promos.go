package schema

import (
	"entgo.io/contrib/entoas"
	"entgo.io/ent"
	"entgo.io/ent/schema/edge"
	"entgo.io/ent/schema/field"
	"entgo.io/ent/schema/index"
	"github.com/google/uuid"
)

// PromoCode is a venue's discount code (package promos): a percentage or a
// fixed amount in one currency off what it applies to (any pass type and
// product, or only the listed ones), within a validity window, at most
// max_uses times in all and max_uses_per_member times per member. The code
// is unique per venue whatever its case: it is stored upper-cased. A
// partner code carries its campaign and partner label; one with
// grants_pass_type_id grants that pass outright instead of discounting a
// sale (expired partner code redemption at the desk).
//
// claimed_count counts the redemptions that hold a use (a checkout or card
// sale waiting for its money, or paid); redeemed_count the paid ones, each
// counted once, at payment. A use is claimed only while claimed_count is
// below max_uses (a conditional update), so concurrent purchases never take
// more uses than max_uses.
type PromoCode struct{ ent.Schema }

// Mixin of the PromoCode.
func (PromoCode) Mixin() []ent.Mixin { return []ent.Mixin{BaseMixin{}, VenueMixin{}} }

// Fields of the PromoCode.
func (PromoCode) Fields() []ent.Field {
	return []ent.Field{
		field.String("code").NotEmpty().MaxLen(40).Comment("Upper-cased; unique per venue."),
		field.String("name").Default("").MaxLen(200),
		field.Enum("discount_kind").Values("percent", "fixed"),
		field.Int("percent_off").Optional().Nillable().Min(1).Max(100),
		field.Int64("amount_off_minor").Optional().Nillable().Positive(),
		field.String("currency").Optional().Nillable().MinLen(3).MaxLen(3),
		field.Time("starts_at").Optional().Nillable(),
		field.Time("ends_at").Optional().Nillable(),
		field.Int("max_uses").Optional().Nillable().Positive(),
		field.Int("max_uses_per_member").Optional().Nillable().Positive(),
		field.Int("claimed_count").Default(0).NonNegative(),
		field.Int("redeemed_count").Default(0).NonNegative(),
		field.JSON("pass_type_ids", []uuid.UUID{}).Optional().Annotations(entoas.Skip(true)),
		field.JSON("product_ids", []uuid.UUID{}).Optional().Annotations(entoas.Skip(true)),
		field.String("campaign").Optional().Nillable().MaxLen(100),
		field.String("partner_label").Optional().Nillable().MaxLen(100),
		field.UUID("grants_pass_type_id", uuidType).Optional().Nillable(),
		field.Bool("active").Default(true),
		field.UUID("created_by_user_id", uuidType).Optional().Nillable().Immutable(),
	}
}

// Indexes of the PromoCode: one code per venue.
func (PromoCode) Indexes() []ent.Index {
	return []ent.Index{index.Fields("organization_id", "code").Unique()}
}

// PromoRedemption is one use of a promo code: by a member checkout or a desk
// card sale waiting for its money (held), paid (redeemed, counted once), or
// given back when the wait lapsed (released). subject_id is the checkout or
// the desk sale that used it, one redemption each. A late redemption (the
// desk honouring an expired code, or an expired partner code granting its
// pass) records the clerk's reason.
type PromoRedemption struct{ ent.Schema }

// Mixin of the PromoRedemption.
func (PromoRedemption) Mixin() []ent.Mixin { return []ent.Mixin{BaseMixin{}, VenueMixin{}} }

// Fields of the PromoRedemption.
func (PromoRedemption) Fields() []ent.Field {
	return []ent.Field{
		field.UUID("promo_code_id", uuidType).Immutable(),
		field.UUID("member_id", uuidType).Optional().Nillable().Immutable(),
		field.UUID("subject_id", uuidType).Immutable().
			Comment("The checkout, desk sale or granted pass that used the code."),
		field.Enum("status").Values("held", "redeemed", "released"),
		field.Int64("discount_minor").NonNegative().Immutable(),
		field.String("currency").MinLen(3).MaxLen(3).Immutable(),
		field.Time("redeemed_at").Optional().Nillable(),
		field.String("late_reason").Optional().Nillable().MaxLen(500).Immutable(),
	}
}

// Edges of the PromoRedemption: the code and the member, checked to be the
// venue's own.
func (PromoRedemption) Edges() []ent.Edge {
	return []ent.Edge{
		edge.To("promo_code", PromoCode.Type).Field("promo_code_id").Unique().Required().Immutable(),
		edge.To("member", Member.Type).Field("member_id").Unique().Immutable(),
	}
}

// Indexes of the PromoRedemption: one per subject; a member's uses of a code.
func (PromoRedemption) Indexes() []ent.Index {
	return []ent.Index{
		index.Fields("organization_id", "subject_id").Unique(),
		index.Fields("organization_id", "promo_code_id", "member_id"),
	}
}
