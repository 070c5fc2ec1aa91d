package schema

import (
	"entgo.io/ent"
	"entgo.io/ent/schema/field"
)

// InstallationSecret is a secret of the installation that the environment
// does not set (the token signing key, the code pepper, the cursor secret,
// the webhook sealing key): generated once, on the first start against the
// database, and kept here so that every instance and every restart uses the
// same one. Only the system call site of the server's start reads or writes
// it; it is never exposed through the API.
type InstallationSecret struct{ ent.Schema }

// Mixin of the InstallationSecret.
func (InstallationSecret) Mixin() []ent.Mixin { return []ent.Mixin{BaseMixin{}} }

// Fields of the InstallationSecret.
func (InstallationSecret) Fields() []ent.Field {
	return []ent.Field{
		field.String("name").NotEmpty().MaxLen(100).Unique().Immutable().
			Comment("The environment variable the secret stands in for."),
		field.String("value").NotEmpty().Sensitive().Immutable().
			Comment("The secret, in the format of its environment variable."),
	}
}
