package schema

import (
	"entgo.io/contrib/entoas"
	"entgo.io/ent"
	"entgo.io/ent/schema/field"
	"entgo.io/ent/schema/mixin"
)

// BookingRequestMixin gives a booking the key of the request that made it,
// so that a retry of that request whose first attempt committed but never
// stored its answer (the server died in between) gets the same booking back
// instead of ALREADY_BOOKED; and the key of the request that cancelled it,
// so that a retried cancellation gets its first answer instead of
// NOT_CANCELLABLE.
type BookingRequestMixin struct{ mixin.Schema }

// Fields of the BookingRequestMixin.
func (BookingRequestMixin) Fields() []ent.Field {
	return []ent.Field{
		field.String("request_key").Optional().Nillable().Immutable().MaxLen(64).
			Comment("SHA-256 (hex) of the venue, principal and Idempotency-Key of the request that made the booking; null without a key.").
			Annotations(entoas.Skip(true)),
		field.String("cancel_request_key").Optional().Nillable().MaxLen(64).
			Comment("SHA-256 (hex) of the venue, principal and Idempotency-Key of the request that cancelled the booking; null without a key.").
			Annotations(entoas.Skip(true)),
	}
}
