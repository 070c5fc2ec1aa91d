package stripeport

import (
	"context"

	"github.com/stripe/stripe-go/v79"
)

// Detaches is the part of the port the staff's client card desk uses beyond
// Cards: removing a saved card from its customer and clearing the
// customer's default card.
type Detaches interface {
	// DetachPaymentMethod removes a saved card from its customer; the card
	// can no longer be charged.
	DetachPaymentMethod(ctx context.Context, account, idempotencyKey, paymentMethod string) error
	// ClearDefaultCard leaves the customer without a default card
	// (invoice_settings.default_payment_method emptied).
	ClearDefaultCard(ctx context.Context, account, idempotencyKey, customer string) error
}

func (s *stripePort) DetachPaymentMethod(ctx context.Context, account, key, paymentMethod string) error {
	params := &stripe.PaymentMethodDetachParams{}
	params.Context = ctx
	params.SetStripeAccount(account)
	params.SetIdempotencyKey(key)
	if _, err := s.api.PaymentMethods.Detach(paymentMethod, params); err != nil {
		return classify(err)
	}
	return nil
}

func (s *stripePort) ClearDefaultCard(ctx context.Context, account, key, customer string) error {
	params := &stripe.CustomerParams{InvoiceSettings: &stripe.CustomerInvoiceSettingsParams{
		DefaultPaymentMethod: stripe.String("")}}
	params.Context = ctx
	params.SetStripeAccount(account)
	params.SetIdempotencyKey(key)
	if _, err := s.api.Customers.Update(customer, params); err != nil {
		return classify(err)
	}
	return nil
}
