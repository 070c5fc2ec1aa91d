package server

import "github.com/venueplatform/venue/internal/idempotency"

// PATCH /me/notification-preferences requires an Idempotency-Key of 1 to 200 characters
// (the contract; spec/parts/me_notifications.yaml).
func init() {
	idempotencyPolicies["updateMyNotificationPreferences"] = idempotency.Required(idempotency.Max200)
}
