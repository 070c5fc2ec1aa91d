package stripeport

import (
	"context"
	"fmt"

	"github.com/stripe/stripe-go/v79"
)

// SubscriptionFinder finds the subscription an attempt created, for the
// reconcile of a creation whose answer was lost.
type SubscriptionFinder interface {
	// FindSubscription searches the connected account's subscriptions for
	// the one whose metadata names attemptID (nil: none, which Stripe's
	// search may report for a minute after the creation).
	FindSubscription(ctx context.Context, account, attemptID string) (*Subscription, error)
}

func (s *stripePort) FindSubscription(ctx context.Context, account, attemptID string) (*Subscription, error) {
	params := &stripe.SubscriptionSearchParams{}
	params.Context = ctx
	params.Query = fmt.Sprintf("metadata['attempt_id']:'%s'", attemptID)
	params.SetStripeAccount(account)
	it := s.api.Subscriptions.Search(params)
	for it.Next() {
		if sub := it.Subscription(); sub.Metadata["attempt_id"] == attemptID {
			return subscriptionOf(sub), nil
		}
	}
	if err := it.Err(); err != nil {
		return nil, classify(err)
	}
	return nil, nil
}
