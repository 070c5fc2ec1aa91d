package schema

import (
	"entgo.io/ent"
	"entgo.io/ent/schema/edge"
	"entgo.io/ent/schema/field"
	"entgo.io/ent/schema/index"
)

// NotificationAttachment is a file an e-mail of the outbox carries (a
// receipt's PDF): written with its delivery, in the same transaction, and
// read by the delivery worker, which sends the message as multipart/mixed.
// The bytes are kept, not a reference, so what is sent is what was enqueued
// even if the source changes later.
type NotificationAttachment struct{ ent.Schema }

// Mixin of the NotificationAttachment.
func (NotificationAttachment) Mixin() []ent.Mixin { return []ent.Mixin{BaseMixin{}, VenueMixin{}} }

// Fields of the NotificationAttachment.
func (NotificationAttachment) Fields() []ent.Field {
	return []ent.Field{
		field.UUID("delivery_id", uuidType).Immutable(),
		field.String("filename").NotEmpty().MaxLen(200).Immutable(),
		field.String("content_type").NotEmpty().MaxLen(100).Immutable(),
		field.Bytes("data").MaxLen(10 << 20).Immutable().
			Comment("The file's bytes (at most 10 MiB)."),
	}
}

// Edges of the NotificationAttachment: the delivery it belongs to, checked
// to be the venue's own on create.
func (NotificationAttachment) Edges() []ent.Edge {
	return []ent.Edge{
		edge.To("delivery", NotificationDelivery.Type).Field("delivery_id").Unique().Required().Immutable(),
	}
}

// Indexes of the NotificationAttachment: the worker reads a delivery's files.
func (NotificationAttachment) Indexes() []ent.Index {
	return []ent.Index{index.Fields("delivery_id")}
}
