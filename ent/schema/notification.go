package schema

import (
	"entgo.io/contrib/entoas"
	"entgo.io/ent"
	"entgo.io/ent/schema/edge"
	"entgo.io/ent/schema/field"
	"entgo.io/ent/schema/index"
)

// NotificationDelivery is one message to one recipient on one channel: the durable
// notification outbox (package notify). It is written in the transaction of the change that
// asks for it, with the recipient's address resolved then, and worked after commit by a
// background worker that hands it to the channel's adapter and records the outcome. A row
// that could not be addressed (no contact, opted out, no device) is written as skipped with
// its reason, so the history shows who was not told and why.
type NotificationDelivery struct{ ent.Schema }

// Mixin of the NotificationDelivery.
func (NotificationDelivery) Mixin() []ent.Mixin { return []ent.Mixin{BaseMixin{}, VenueMixin{}} }

// Fields of the NotificationDelivery.
func (NotificationDelivery) Fields() []ent.Field {
	return []ent.Field{
		field.Enum("channel").Values("email", "sms", "push").Immutable(),
		field.Enum("recipient_kind").Values("member", "user", "instructor").Immutable(),
		field.UUID("member_id", uuidType).Optional().Nillable().Immutable(),
		field.UUID("instructor_id", uuidType).Optional().Nillable().Immutable(),
		field.UUID("user_id", uuidType).Optional().Nillable().Immutable(),
		field.String("address").Default("").MaxLen(512).Immutable().
			Comment("E-mail address, phone number or push device token at enqueue time.").
			Annotations(entoas.Skip(true)),
		field.String("kind").NotEmpty().MaxLen(100).Immutable().
			Comment("What the message is about (template), e.g. class.cancelled, checkin.contact."),
		field.String("subject").Default("").MaxLen(300).Immutable(),
		field.Text("body").Default("").Immutable().Annotations(entoas.Skip(true)),
		field.JSON("data", map[string]any{}).Optional().Immutable().
			Annotations(jsonObject("Structured data of the message (ids, times) for templates and push payloads.")),
		field.Enum("status").Values("pending", "sent", "failed", "skipped").Default("pending"),
		field.String("status_reason").Optional().Nillable().MaxLen(100).
			Comment("Why the row was skipped or failed (no_contact, user_opted_out, provider_rejected, ...)."),
		field.Int("attempts").Default(0).NonNegative(),
		field.String("last_error").Optional().Nillable().MaxLen(500),
		field.String("provider_message_id").Optional().Nillable().MaxLen(200),
		field.UUID("class_instance_id", uuidType).Optional().Nillable().Immutable(),
		field.UUID("booking_id", uuidType).Optional().Nillable().Immutable(),
		field.String("correlation_id").Default("").MaxLen(200).Immutable().
			Comment("The request (or job) that caused the message."),
		field.String("created_by").Default("").MaxLen(200).Immutable(),
		field.Time("dispatched_at").Optional().Nillable().
			Comment("When the relay handed the row to the worker queue."),
		field.Time("sent_at").Optional().Nillable(),
	}
}

// Edges of the NotificationDelivery: the recipient and the class it is about, each checked
// to be the venue's own when the row is created.
func (NotificationDelivery) Edges() []ent.Edge {
	return []ent.Edge{
		edge.To("member", Member.Type).Field("member_id").Unique().Immutable(),
		edge.To("instructor", Instructor.Type).Field("instructor_id").Unique().Immutable(),
		edge.To("class_instance", ClassInstance.Type).Field("class_instance_id").Unique().Immutable(),
	}
}

// Indexes of the NotificationDelivery: history by class, and the relay's scan of rows not
// yet handed to the queue.
func (NotificationDelivery) Indexes() []ent.Index {
	return []ent.Index{
		index.Fields("organization_id", "class_instance_id"),
		index.Fields("status", "dispatched_at"),
	}
}

// NotificationOptOut records that a member does not want messages on one channel.
type NotificationOptOut struct{ ent.Schema }

// Mixin of the NotificationOptOut.
func (NotificationOptOut) Mixin() []ent.Mixin { return []ent.Mixin{BaseMixin{}, VenueMixin{}} }

// Fields of the NotificationOptOut.
func (NotificationOptOut) Fields() []ent.Field {
	return []ent.Field{
		field.UUID("member_id", uuidType).Immutable(),
		field.Enum("channel").Values("email", "sms", "push").Immutable(),
	}
}

// Edges of the NotificationOptOut.
func (NotificationOptOut) Edges() []ent.Edge {
	return []ent.Edge{
		edge.To("member", Member.Type).Field("member_id").Unique().Required().Immutable(),
	}
}

// Indexes of the NotificationOptOut: one row per member and channel.
func (NotificationOptOut) Indexes() []ent.Index {
	return []ent.Index{index.Fields("organization_id", "member_id", "channel").Unique()}
}

// PushDevice is a member's registered app installation that push messages reach.
type PushDevice struct{ ent.Schema }

// Mixin of the PushDevice.
func (PushDevice) Mixin() []ent.Mixin { return []ent.Mixin{BaseMixin{}, VenueMixin{}} }

// Fields of the PushDevice.
func (PushDevice) Fields() []ent.Field {
	return []ent.Field{
		field.UUID("member_id", uuidType).Immutable(),
		field.Enum("platform").Values("ios", "android", "web"),
		field.String("token").NotEmpty().MaxLen(4096).Sensitive(),
		field.Time("disabled_at").Optional().Nillable().
			Comment("Set when the provider reports the token invalid; disabled devices are not sent to."),
		field.String("device_id").Optional().Nillable().MaxLen(200).
			Comment("The app installation's own id (POST /me/push-token); a new token for it replaces the old one."),
		field.Enum("app_variant").Values("member", "branded", "business").Default("member").
			Comment("Which app registered the token: the member app, a venue's branded app, or the business (staff) app."),
	}
}

// Edges of the PushDevice.
func (PushDevice) Edges() []ent.Edge {
	return []ent.Edge{
		edge.To("member", Member.Type).Field("member_id").Unique().Required().Immutable(),
	}
}

// Indexes of the PushDevice.
func (PushDevice) Indexes() []ent.Index {
	return []ent.Index{
		index.Fields("organization_id", "member_id"),
		index.Fields("organization_id", "member_id", "device_id").Unique(),
	}
}
