package schema

import (
	"entgo.io/ent"
	"entgo.io/ent/dialect"
	"entgo.io/ent/schema/field"
	"entgo.io/ent/schema/index"
)

// dateType stores a calendar date (no time of day) in PostgreSQL.
var dateType = map[string]string{dialect.Postgres: "date"}

// Alert is an operational alert shown to venue staff.
type Alert struct{ ent.Schema }

// Mixin of the Alert.
func (Alert) Mixin() []ent.Mixin {
	return []ent.Mixin{BaseMixin{}, VenueMixin{}, ImportRefMixin{}}
}

// Fields of the Alert.
func (Alert) Fields() []ent.Field {
	return []ent.Field{
		field.Enum("severity").Values("info", "warning", "critical").Default("info"),
		field.String("title").NotEmpty().MaxLen(200),
		field.String("message").Default(""),
		field.Bool("resolved").Default(false),
		field.Time("resolved_at").Optional().Nillable(),
	}
}

// Indexes of the Alert.
func (Alert) Indexes() []ent.Index {
	return []ent.Index{index.Fields("organization_id", "resolved")}
}

// APIKey is an organization-scoped credential. Only a prefix (for lookup) and
// a hash of the secret are stored; the secret is shown once at creation.
type APIKey struct{ ent.Schema }

// Mixin of the APIKey.
func (APIKey) Mixin() []ent.Mixin { return []ent.Mixin{BaseMixin{}, VenueMixin{}} }

// Fields of the APIKey.
func (APIKey) Fields() []ent.Field {
	return []ent.Field{
		field.String("name").NotEmpty().MaxLen(200),
		field.String("prefix").NotEmpty().Unique().Immutable(),
		field.Bytes("secret_hash").Sensitive().Immutable(),
		field.Strings("scopes"),
		field.UUID("created_by_user_id", uuidType).Optional().Nillable().Immutable(),
		field.String("created_by_email").Optional().Nillable().Immutable(),
		field.Time("last_used_at").Optional().Nillable(),
		field.Time("revoked_at").Optional().Nillable(),
	}
}

// AuditLog is one entry of a venue's audit trail. Entries are never changed.
type AuditLog struct{ ent.Schema }

// Mixin of the AuditLog.
func (AuditLog) Mixin() []ent.Mixin { return []ent.Mixin{BaseMixin{}, VenueMixin{}} }

// Fields of the AuditLog.
func (AuditLog) Fields() []ent.Field {
	return []ent.Field{
		field.String("actor").NotEmpty(),
		field.Enum("actor_kind").Values("api_key", "user", "operator", "system"),
		field.UUID("api_key_id", uuidType).Optional().Nillable(),
		field.UUID("user_id", uuidType).Optional().Nillable(),
		field.String("action").NotEmpty(),
		field.String("target").Default(""),
		field.Enum("outcome").Values("success", "failure", "denied"),
		field.JSON("details", map[string]any{}).Optional().
			Annotations(jsonObject("Structured details of the action.")),
		field.Int64("duration_ms").Optional().Nillable(),
	}
}

// Indexes of the AuditLog.
func (AuditLog) Indexes() []ent.Index {
	return []ent.Index{index.Fields("organization_id", "created_at")}
}
