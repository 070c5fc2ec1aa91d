package schema

import (
	"entgo.io/ent"
	"entgo.io/ent/schema/field"
	"entgo.io/ent/schema/index"
)

// MFAFactor is a user's TOTP second factor. Its secret is stored sealed
// (AES-256-GCM with a configured key, internal/accounts/mfa_seal.go), never
// in plaintext. It stays pending until a first valid code confirms it; last_step is the time step of the last accepted
// code, advanced with a conditional update so a code is never accepted twice
// (package identity/totp). Global and user-owned, like sessions.
type MFAFactor struct{ ent.Schema }

// Mixin of the MFAFactor.
func (MFAFactor) Mixin() []ent.Mixin { return []ent.Mixin{BaseMixin{}} }

// Fields of the MFAFactor.
func (MFAFactor) Fields() []ent.Field {
	return []ent.Field{
		field.UUID("user_id", uuidType).Immutable(),
		field.Enum("type").Values("totp").Default("totp").Immutable(),
		field.String("secret").NotEmpty().Sensitive().
			Comment("Sealed (AES-256-GCM, package identity/totp); sealed again on key rotation."),
		field.Time("confirmed_at").Optional().Nillable(),
		field.Int64("last_step").Default(0),
	}
}

// Indexes of the MFAFactor.
func (MFAFactor) Indexes() []ent.Index {
	return []ent.Index{index.Fields("user_id")}
}

// MFABackupCode is one single-use backup code of a user: only its keyed
// hash (identity/codes.Hasher.BackupCodeHash) is stored. A new set deletes
// the old one.
type MFABackupCode struct{ ent.Schema }

// Mixin of the MFABackupCode.
func (MFABackupCode) Mixin() []ent.Mixin { return []ent.Mixin{BaseMixin{}} }

// Fields of the MFABackupCode.
func (MFABackupCode) Fields() []ent.Field {
	return []ent.Field{
		field.UUID("user_id", uuidType).Immutable(),
		field.Bytes("hash").Immutable().Sensitive(),
		field.Time("used_at").Optional().Nillable(),
	}
}

// Indexes of the MFABackupCode.
func (MFABackupCode) Indexes() []ent.Index {
	return []ent.Index{index.Fields("user_id", "hash").Unique()}
}

// MFAChallenge is a pending second-factor check of one session, answered
// once by /auth/mfa/verify with its id and a TOTP code.
type MFAChallenge struct{ ent.Schema }

// Mixin of the MFAChallenge.
func (MFAChallenge) Mixin() []ent.Mixin { return []ent.Mixin{BaseMixin{}} }

// Fields of the MFAChallenge.
func (MFAChallenge) Fields() []ent.Field {
	return []ent.Field{
		field.UUID("user_id", uuidType).Immutable(),
		field.UUID("session_id", uuidType).Immutable(),
		field.UUID("factor_id", uuidType).Immutable(),
		field.Time("expires_at").Immutable(),
		field.Time("used_at").Optional().Nillable(),
	}
}

// Indexes of the MFAChallenge.
func (MFAChallenge) Indexes() []ent.Index {
	return []ent.Index{index.Fields("user_id")}
}
