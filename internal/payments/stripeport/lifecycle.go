package stripeport

import (
	"context"

	"github.com/stripe/stripe-go/v79"
)

// SubscriptionReader reads a membership's subscription: the staff's
// lifecycle operations need its item (the price to replace) and product.
type SubscriptionReader interface {
	// GetSubscription reads a subscription of the connected account.
	GetSubscription(ctx context.Context, account, id string) (*Subscription, error)
}

func (s *stripePort) GetSubscription(ctx context.Context, account, id string) (*Subscription, error) {
	params := &stripe.SubscriptionParams{}
	params.Context = ctx
	params.SetStripeAccount(account)
	sub, err := s.api.Subscriptions.Get(id, params)
	if err != nil {
		return nil, classify(err)
	}
	return subscriptionOf(sub), nil
}
