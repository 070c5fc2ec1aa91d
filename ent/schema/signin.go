package schema

import (
	"entgo.io/ent"
	"entgo.io/ent/schema/field"
	"entgo.io/ent/schema/index"
)

// DeviceAuthorization is one TV device-code sign-in (RFC 8628 style): the
// device keeps the 256-bit device_code (only its SHA-256 is stored), the
// user types the user_code (stored normalised, unique) on a signed-in
// device. It belongs to nobody until approved, so only the named system
// sites of the device flow read or write it.
type DeviceAuthorization struct{ ent.Schema }

// Mixin of the DeviceAuthorization.
func (DeviceAuthorization) Mixin() []ent.Mixin { return []ent.Mixin{BaseMixin{}} }

// Fields of the DeviceAuthorization.
func (DeviceAuthorization) Fields() []ent.Field {
	return []ent.Field{
		field.Bytes("device_code_hash").Immutable().Sensitive().Unique(),
		field.String("user_code").NotEmpty().Immutable().Sensitive().Unique(),
		field.Enum("status").Values("pending", "approved", "denied", "consumed").Default("pending"),
		field.UUID("user_id", uuidType).Optional().Nillable(),
		field.Int("attempts").Default(0),
		field.Time("expires_at").Immutable(),
	}
}

// HandoffCode is a one-time SSO hand-off code: minted by a signed-in user
// for one allowlisted destination host, exchanged once within 60 seconds for
// a session there. Only its SHA-256 is stored; mfa_at carries the minting
// session's second factor over.
type HandoffCode struct{ ent.Schema }

// Mixin of the HandoffCode.
func (HandoffCode) Mixin() []ent.Mixin { return []ent.Mixin{BaseMixin{}} }

// Fields of the HandoffCode.
func (HandoffCode) Fields() []ent.Field {
	return []ent.Field{
		field.UUID("user_id", uuidType).Immutable(),
		field.Bytes("code_hash").Immutable().Sensitive().Unique(),
		field.String("destination_host").NotEmpty().Immutable(),
		field.Time("mfa_at").Optional().Nillable().Immutable(),
		field.Time("expires_at").Immutable(),
		field.Time("used_at").Optional().Nillable(),
	}
}

// OTPRequest is one mobile email sign-in: a 6-digit code and a token hash
// sent to the user's email, exchanged once for a session. The token hash is
// bound to the PKCE S256 challenge the app sent; only keyed hashes are
// stored, and wrong guesses count against the request.
type OTPRequest struct{ ent.Schema }

// Mixin of the OTPRequest.
func (OTPRequest) Mixin() []ent.Mixin { return []ent.Mixin{BaseMixin{}} }

// Fields of the OTPRequest.
func (OTPRequest) Fields() []ent.Field {
	return []ent.Field{
		field.UUID("user_id", uuidType).Immutable(),
		field.Bytes("code_hash").Immutable().Sensitive(),
		field.Bytes("token_hash").Optional().Immutable().Sensitive(),
		field.String("code_challenge").Optional().Immutable().Sensitive(),
		field.Time("expires_at").Immutable(),
		field.Time("used_at").Optional().Nillable(),
		field.Int("attempts").Default(0),
	}
}

// Indexes of the OTPRequest.
func (OTPRequest) Indexes() []ent.Index {
	return []ent.Index{index.Fields("user_id")}
}
