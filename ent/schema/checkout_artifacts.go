package schema

import (
	"entgo.io/ent"
	"entgo.io/ent/schema/edge"
	"entgo.io/ent/schema/field"
	"entgo.io/ent/schema/index"
)

// CheckoutDocument is a document a venue asks its members to sign at
// checkout: a waiver, its terms of service, its privacy notice or a contract,
// at its current version (version_id changes with every new text; a
// signature of an older version is stale). It applies to every purchase, or
// only to the pass types listed in pass_type_ids.
type CheckoutDocument struct{ ent.Schema }

// Mixin of the CheckoutDocument.
func (CheckoutDocument) Mixin() []ent.Mixin { return []ent.Mixin{BaseMixin{}, VenueMixin{}} }

// Fields of the CheckoutDocument.
func (CheckoutDocument) Fields() []ent.Field {
	return []ent.Field{
		field.Enum("kind").Values("waiver", "tos", "privacy", "contract"),
		field.String("title").NotEmpty().MaxLen(200),
		field.Text("body").Default(""),
		field.UUID("version_id", uuidType).Comment("The current version; a new text gets a new id."),
		field.Bool("active").Default(true),
		field.JSON("pass_type_ids", []string{}).Optional().
			Comment("The pass types whose purchase needs it; empty: every purchase."),
	}
}

// Indexes of the CheckoutDocument.
func (CheckoutDocument) Indexes() []ent.Index {
	return []ent.Index{index.Fields("organization_id", "kind")}
}

// ArtifactSignature is a member's signature of one version of a checkout
// document: one per member, document and version, so signing again changes
// nothing.
type ArtifactSignature struct{ ent.Schema }

// Mixin of the ArtifactSignature.
func (ArtifactSignature) Mixin() []ent.Mixin { return []ent.Mixin{BaseMixin{}, VenueMixin{}} }

// Fields of the ArtifactSignature.
func (ArtifactSignature) Fields() []ent.Field {
	return []ent.Field{
		field.UUID("member_id", uuidType).Immutable(),
		field.UUID("document_id", uuidType).Immutable(),
		field.UUID("version_id", uuidType).Immutable(),
		field.Enum("kind").Values("waiver", "tos", "privacy", "contract").Immutable(),
		field.Text("signature_data").Default("").Immutable().Sensitive(),
		field.String("saved_signature_id").Optional().Nillable().MaxLen(100).Immutable(),
		field.String("pass_type_slug").Optional().Nillable().MaxLen(100).Immutable(),
		field.Time("start_date").Optional().Nillable().SchemaType(dateType).Immutable(),
		field.Time("signed_at").Immutable(),
	}
}

// Edges of the ArtifactSignature: the member and the document, checked to
// be the venue's own.
func (ArtifactSignature) Edges() []ent.Edge {
	return []ent.Edge{
		edge.To("member", Member.Type).Field("member_id").Unique().Required().Immutable(),
		edge.To("document", CheckoutDocument.Type).Field("document_id").Unique().Required().Immutable(),
	}
}

// Indexes of the ArtifactSignature.
func (ArtifactSignature) Indexes() []ent.Index {
	return []ent.Index{index.Fields("organization_id", "member_id", "document_id", "version_id").Unique()}
}
