package stripeport

import (
	"context"

	"github.com/stripe/stripe-go/v79"
)

// Cancels is the port's cancellation of payment intents.
type Cancels interface {
	// CancelPaymentIntent cancels an unfinished intent of the connected
	// account (abandoned: the hold it paid for lapsed) and returns it. An
	// intent that can no longer be cancelled (it succeeded meanwhile) is
	// ErrRefused; read it to learn why.
	CancelPaymentIntent(ctx context.Context, account, idempotencyKey, id string) (*Intent, error)
}

func (s *stripePort) CancelPaymentIntent(ctx context.Context, account, idempotencyKey, id string) (*Intent, error) {
	params := &stripe.PaymentIntentCancelParams{CancellationReason: stripe.String(string(stripe.PaymentIntentCancellationReasonAbandoned))}
	params.Context = ctx
	params.SetStripeAccount(account)
	params.SetIdempotencyKey(idempotencyKey)
	pi, err := s.api.PaymentIntents.Cancel(id, params)
	if err != nil {
		return nil, classify(err)
	}
	return intentOf(pi), nil
}
