package schema

import (
	"entgo.io/ent"
	"entgo.io/ent/schema/field"
	"entgo.io/ent/schema/index"
)

// NotificationPreference is a person's choice of what reaches them, per category of message
// and channel, with frequency caps and quiet hours (GET/PATCH /me/notification-preferences).
// It is the person's, not a venue's: one row per user that every venue's messages respect, so
// it is global and user-owned like sessions. A user without a row has the defaults of package
// notify.
type NotificationPreference struct{ ent.Schema }

// Mixin of the NotificationPreference.
func (NotificationPreference) Mixin() []ent.Mixin { return []ent.Mixin{BaseMixin{}} }

// Fields of the NotificationPreference.
func (NotificationPreference) Fields() []ent.Field {
	return []ent.Field{
		field.UUID("user_id", uuidType).Immutable(),
		field.JSON("categories", map[string]map[string]any{}).Optional().
			Annotations(jsonObject("Per category: email, sms, push (booleans) and max_per_day (integer or absent).")),
		field.Bool("quiet_hours_enabled").Default(false),
		field.String("quiet_hours_start").Default("22:00").MaxLen(5),
		field.String("quiet_hours_end").Default("07:00").MaxLen(5),
		field.String("quiet_hours_timezone").Default("").MaxLen(64).
			Comment("IANA zone of the quiet hours; empty means each venue's own zone."),
	}
}

// Indexes of the NotificationPreference: one row per user.
func (NotificationPreference) Indexes() []ent.Index {
	return []ent.Index{index.Fields("user_id").Unique()}
}

// Policy of the NotificationPreference.
func (NotificationPreference) Policy() ent.Policy { return userOwnedPolicy() }
