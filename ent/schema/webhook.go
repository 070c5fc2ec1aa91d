package schema

import (
	"entgo.io/contrib/entoas"
	"entgo.io/ent"
	"entgo.io/ent/schema"
	"entgo.io/ent/schema/edge"
	"entgo.io/ent/schema/field"
	"entgo.io/ent/schema/index"
	"github.com/ogen-go/ogen"
)

// WebhookSubscription is an integrator's endpoint that receives a venue's events of the
// types it selects, signed with its secret (Standard Webhooks). The secret is shown once at
// creation and at each rotation, never read back through the API; during a rotation's
// overlap the previous secret signs too, so receivers can switch without losing events.
type WebhookSubscription struct{ ent.Schema }

// Mixin of the WebhookSubscription.
func (WebhookSubscription) Mixin() []ent.Mixin { return []ent.Mixin{BaseMixin{}, VenueMixin{}} }

// Annotations of the WebhookSubscription: the API answers a subscription as
// stored, without its secrets (sensitive fields are never published).
func (WebhookSubscription) Annotations() []schema.Annotation {
	return []schema.Annotation{APIShape{Omit: []string{"organization_id"}}}
}

// Fields of the WebhookSubscription.
func (WebhookSubscription) Fields() []ent.Field {
	return []ent.Field{
		field.String("url").NotEmpty().MaxLen(2000),
		field.String("description").Default("").MaxLen(500),
		field.Strings("event_types"),
		field.String("secret").NotEmpty().Sensitive(),
		field.String("previous_secret").Optional().Nillable().Sensitive(),
		field.Time("previous_secret_expires_at").Optional().Nillable().
			Comment("While in the future the previous secret signs too."),
		field.Time("secret_rotated_at").Optional().Nillable(),
		field.Bool("enabled").Default(true),
		field.String("disabled_reason").Optional().Nillable().MaxLen(200),
		field.Time("disabled_at").Optional().Nillable(),
		field.String("created_by").Default("").MaxLen(200).Immutable().
			Comment("Who created it, e.g. user:<id>."),
	}
}

// Indexes of the WebhookSubscription: a venue's enabled subscriptions, read by every event.
func (WebhookSubscription) Indexes() []ent.Index {
	return []ent.Index{index.Fields("organization_id", "enabled")}
}

// WebhookDelivery is one event on its way to one subscription: its state, attempt count
// and next attempt. A manual replay is a new delivery with the same message_id (webhook-id)
// that points at the original through replay_of.
type WebhookDelivery struct{ ent.Schema }

// Mixin of the WebhookDelivery.
func (WebhookDelivery) Mixin() []ent.Mixin { return []ent.Mixin{BaseMixin{}, VenueMixin{}} }

// Fields of the WebhookDelivery.
func (WebhookDelivery) Fields() []ent.Field {
	return []ent.Field{
		field.UUID("subscription_id", uuidType).Immutable(),
		field.UUID("event_id", uuidType).Immutable(),
		field.String("event_type").NotEmpty().MaxLen(100).Immutable(),
		field.String("message_id").NotEmpty().MaxLen(100).Immutable().
			Comment("The webhook-id sent; the same for replays."),
		field.Enum("status").Values("pending", "delivered", "retrying", "failed", "disabled").Default("pending").
			Comment("`pending` (queued), `retrying` (an attempt failed, another is due at next_attempt_at), " +
				"`delivered`, `failed` (no attempt left or a final failure), `disabled` (the subscription was disabled)."),
		field.Int("attempts").Default(0).NonNegative(),
		field.Time("next_attempt_at").Optional().Nillable(),
		field.Int("last_status_code").Optional().Nillable(),
		field.Time("delivered_at").Optional().Nillable(),
		field.UUID("replay_of", uuidType).Optional().Nillable().Immutable().
			Comment("The delivery this one replays."),
	}
}

// Annotations of the WebhookDelivery: the API answers a delivery as stored.
func (WebhookDelivery) Annotations() []schema.Annotation {
	return []schema.Annotation{APIShape{Omit: []string{"updated_at", "organization_id"}}}
}

// Edges of the WebhookDelivery.
func (WebhookDelivery) Edges() []ent.Edge {
	return []ent.Edge{
		edge.To("subscription", WebhookSubscription.Type).Field("subscription_id").Unique().Required().Immutable(),
		edge.To("event", Event.Type).Field("event_id").Unique().Required().Immutable(),
	}
}

// Indexes of the WebhookDelivery: a subscription's history, newest first.
func (WebhookDelivery) Indexes() []ent.Index {
	return []ent.Index{
		index.Fields("subscription_id", "created_at"),
		index.Fields("event_id"),
	}
}

// WebhookAttempt is one HTTP attempt of a delivery as the history shows it. It never holds
// a secret or a signature; error text is the sender's classified message.
type WebhookAttempt struct{ ent.Schema }

// Mixin of the WebhookAttempt.
func (WebhookAttempt) Mixin() []ent.Mixin { return []ent.Mixin{BaseMixin{}, VenueMixin{}} }

// Fields of the WebhookAttempt.
func (WebhookAttempt) Fields() []ent.Field {
	return []ent.Field{
		field.UUID("delivery_id", uuidType).Immutable().Annotations(entoas.Skip(true)),
		field.Int("number").Positive().Immutable().
			Comment("1, 2, 3 ... in the order the attempts were recorded, without gaps. A try cut " +
				"short by a server crash before it was recorded is not counted (if it reached the " +
				"receiver, the receiver sees the same `webhook-id` again on the next attempt)."),
		field.Time("started_at").Immutable(),
		field.Int64("duration_ms").Default(0).Immutable().
			Annotations(entoas.Schema(ogen.Int())), // the API's integer: milliseconds fit
		field.Int("status_code").Optional().Nillable().Immutable(),
		field.String("outcome").MaxLen(20).Immutable().
			Annotations(stringEnum("delivered", "retrying", "failed", "disabled")),
		field.String("error_class").Default("").MaxLen(50).Immutable(),
		field.String("error").Default("").MaxLen(500).Immutable(),
		field.String("response_snippet").Default("").MaxLen(1000).Immutable(),
		field.String("correlation_id").Default("").MaxLen(100).Immutable(),
	}
}

// Annotations of the WebhookAttempt: the API lists a delivery's attempts
// under it, by number, so neither the delivery nor the row's id is published.
func (WebhookAttempt) Annotations() []schema.Annotation {
	return []schema.Annotation{APIShape{Omit: []string{"id", "created_at", "updated_at", "organization_id"}}}
}

// Edges of the WebhookAttempt.
func (WebhookAttempt) Edges() []ent.Edge {
	return []ent.Edge{
		edge.To("delivery", WebhookDelivery.Type).Field("delivery_id").Unique().Required().Immutable(),
	}
}

// Indexes of the WebhookAttempt: a delivery's attempts in order.
func (WebhookAttempt) Indexes() []ent.Index {
	return []ent.Index{index.Fields("delivery_id", "number")}
}
