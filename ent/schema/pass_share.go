package schema

import (
	"entgo.io/ent"
	"entgo.io/ent/schema/field"
	"entgo.io/ent/schema/index"
)

// PassShare lets another member of the venue book with a member's pass: a
// share (status active) names its recipient (member_id), an invite (status
// invited) names an e-mail address until the person it was sent to joins the
// venue or signs in, when it is claimed and becomes a share. Bookings made
// through a share take their clips from the owner's pass; monthly_cap, when
// set, is how many bookings a month the recipient may make with it. The row
// is member-owned by its recipient: a recipient sees the share, never the
// owner's other rows. Adding a share or invite locks the pass row, which is
// how one pass never holds two live shares for one person.
type PassShare struct{ ent.Schema }

// Mixin of the PassShare.
func (PassShare) Mixin() []ent.Mixin { return []ent.Mixin{BaseMixin{}, VenueMixin{}} }

// Fields of the PassShare.
func (PassShare) Fields() []ent.Field {
	return []ent.Field{
		field.UUID("pass_id", uuidType).Immutable(),
		field.UUID("owner_member_id", uuidType).Immutable(),
		field.UUID("member_id", uuidType).Optional().Nillable().
			Comment("The recipient; null while an invite waits for its e-mail address to join."),
		field.String("email").Optional().Nillable().MaxLen(254).
			Comment("The invited address (lower case), for invites."),
		field.Int("monthly_cap").Optional().Nillable().Positive(),
		field.Enum("status").Values("invited", "active", "revoked", "cancelled"),
		field.UUID("created_by", uuidType).Optional().Nillable().Immutable(),
		field.Time("claimed_at").Optional().Nillable(),
		field.Time("ended_at").Optional().Nillable(),
	}
}

// Indexes of the PassShare.
func (PassShare) Indexes() []ent.Index {
	return []ent.Index{
		index.Fields("organization_id", "pass_id"),
		index.Fields("organization_id", "member_id"),
		index.Fields("organization_id", "email"),
	}
}
