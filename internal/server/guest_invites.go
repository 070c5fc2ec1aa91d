package server

import (
	"github.com/venueplatform/venue/internal/idempotency"
)

func init() {
	// Offering guest places: a required key of 1 to 200 characters
	// (spec/parts/guest_invites.yaml); a retry finds the places it made.
	idempotencyPolicies["createGuestInvites"] = idempotency.Required(idempotency.Max200)
}
