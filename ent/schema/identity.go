package schema

import (
	"entgo.io/ent"
	"entgo.io/ent/schema/edge"
	"entgo.io/ent/schema/field"
	"entgo.io/ent/schema/index"
)

// Session is one sign-in of a user (login, signup, device or hand-off flow):
// the family of its refresh tokens. Sessions are global (a user's, not a
// venue's); their policy (identity_rules.go) shows a user only their own.
type Session struct{ ent.Schema }

// Mixin of the Session.
func (Session) Mixin() []ent.Mixin { return []ent.Mixin{BaseMixin{}} }

// Fields of the Session.
func (Session) Fields() []ent.Field {
	return []ent.Field{
		field.UUID("user_id", uuidType).Immutable(),
		field.Time("auth_time").Immutable(),
		field.Strings("amr").Optional(),
		field.Time("expires_at").Immutable(),
		field.Time("last_used_at").Optional().Nillable(),
		field.Time("revoked_at").Optional().Nillable(),
		field.String("revoked_reason").Optional(),
		field.Time("mfa_at").Optional().Nillable(),
		field.UUID("active_organization_id", uuidType).Optional().Nillable(),
	}
}

// Edges of the Session.
func (Session) Edges() []ent.Edge {
	return []ent.Edge{
		edge.From("user", User.Type).Ref("sessions").Field("user_id").Unique().Required().Immutable(),
		edge.To("refresh_tokens", RefreshToken.Type),
	}
}

// Indexes of the Session.
func (Session) Indexes() []ent.Index {
	return []ent.Index{index.Fields("user_id")}
}

// RefreshToken is one link of a session's refresh-token chain. The token
// itself is never stored: lookup finds the row, hash (SHA-256) verifies it.
// A used token presented again revokes the whole session.
type RefreshToken struct{ ent.Schema }

// Mixin of the RefreshToken.
func (RefreshToken) Mixin() []ent.Mixin { return []ent.Mixin{BaseMixin{}} }

// Fields of the RefreshToken.
func (RefreshToken) Fields() []ent.Field {
	return []ent.Field{
		field.UUID("session_id", uuidType).Immutable(),
		field.UUID("user_id", uuidType).Immutable(),
		field.String("lookup").NotEmpty().Unique().Immutable(),
		field.Bytes("hash").Immutable().Sensitive(),
		field.UUID("parent_id", uuidType).Optional().Nillable().Immutable(),
		field.Time("expires_at").Immutable(),
		field.Time("used_at").Optional().Nillable(),
	}
}

// Edges of the RefreshToken.
func (RefreshToken) Edges() []ent.Edge {
	return []ent.Edge{
		edge.From("session", Session.Type).Ref("refresh_tokens").Field("session_id").Unique().Required().Immutable(),
	}
}

// Indexes of the RefreshToken.
func (RefreshToken) Indexes() []ent.Index {
	return []ent.Index{index.Fields("session_id")}
}

// AuthCode is a single-use numeric code sent to a user's email: a password
// reset or the fresh code an authenticated password change needs. Only its
// keyed hash is stored; attempts counts wrong guesses.
type AuthCode struct{ ent.Schema }

// Mixin of the AuthCode.
func (AuthCode) Mixin() []ent.Mixin { return []ent.Mixin{BaseMixin{}} }

// Fields of the AuthCode.
func (AuthCode) Fields() []ent.Field {
	return []ent.Field{
		field.UUID("user_id", uuidType).Immutable(),
		field.Enum("purpose").Values("password_reset", "password_change").Immutable(),
		field.Bytes("hash").Immutable().Sensitive(),
		field.Time("expires_at").Immutable(),
		field.Time("used_at").Optional().Nillable(),
		field.Int("attempts").Default(0),
	}
}

// Edges of the AuthCode.
func (AuthCode) Edges() []ent.Edge {
	return []ent.Edge{
		edge.From("user", User.Type).Ref("auth_codes").Field("user_id").Unique().Required().Immutable(),
	}
}

// Indexes of the AuthCode.
func (AuthCode) Indexes() []ent.Index {
	return []ent.Index{index.Fields("user_id", "purpose")}
}
