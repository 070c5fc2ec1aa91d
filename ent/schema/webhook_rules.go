//go:build !entbootstrap

package schema

import (
	"entgo.io/ent"

	"github.com/venueplatform/venue/ent/hook"
)

// Hooks of the WebhookAttempt: the delivery history is append-only.
func (WebhookAttempt) Hooks() []ent.Hook {
	return []ent.Hook{
		hook.Reject(ent.OpUpdate | ent.OpUpdateOne | ent.OpDelete | ent.OpDeleteOne),
	}
}
