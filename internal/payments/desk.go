package payments

import (
	"context"
	"time"

	"github.com/venueplatform/venue/ent"
	"github.com/venueplatform/venue/ent/payment"
)

// Desk sales of passes (package pos) activate through the same function as
// checkouts paid in the app: a checkout row the desk made for the member,
// activated once under its row lock. How the desk was paid decides the
// payment row's method, and only a card starts the renewals (a membership
// paid in cash or by gift card has no card to renew with).

type deskMethodKey struct{}

// ActivateAtDesk is the activation of a checkout the front desk made and
// was paid by method, in tx: the pass, the payment row (of method), the
// checkout paid, the events payment.succeeded and pass.activated, and, for a
// recurring pass paid by card, the start of its renewals. A checkout already
// paid is returned as it is.
func ActivateAtDesk(ctx context.Context, tx *ent.Tx, co *ent.Checkout, intentID string, method payment.Method, now time.Time) (*ent.Checkout, error) {
	return activate(context.WithValue(ctx, deskMethodKey{}, method), tx, co, intentID, now)
}

// activationMethod is the payment method of the activation in ctx: card
// unless the desk said otherwise.
func activationMethod(ctx context.Context) payment.Method {
	if m, ok := ctx.Value(deskMethodKey{}).(payment.Method); ok {
		return m
	}
	return payment.MethodCard
}
