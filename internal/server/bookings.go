package server

import "github.com/venueplatform/venue/internal/idempotency"

// The Idempotency-Key policies of the booking operations (spec/parts/bookings.yaml):
// optional on booking, cancelling and accepting (a retry replays the first answer),
// required on buddy invitations; 1 to 200 visible ASCII characters.
func init() {
	idempotencyPolicies["createBooking"] = idempotency.Optional(idempotency.Max200)
	idempotencyPolicies["cancelBooking"] = idempotency.Optional(idempotency.Max200)
	idempotencyPolicies["acceptBookingBuddy"] = idempotency.Optional(idempotency.Max200)
	idempotencyPolicies["inviteBookingBuddy"] = idempotency.Required(idempotency.Max200)
}
