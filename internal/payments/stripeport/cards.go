package stripeport

import (
	"context"
	"encoding/json"
	"strings"

	"github.com/stripe/stripe-go/v79"
)

// Cards is the part of the port that keeps a member's saved cards: a
// customer on the venue's connected account, setup intents that save a
// card, the customer's cards and its default, and ephemeral keys for the
// mobile payment sheet.
type Cards interface {
	CreateCustomer(ctx context.Context, account, idempotencyKey, email string, metadata map[string]string) (string, error)
	CreateSetupIntent(ctx context.Context, account, idempotencyKey, customer string, metadata map[string]string) (*SetupIntent, error)
	GetSetupIntent(ctx context.Context, account, id string) (*SetupIntent, error)
	CreateEphemeralKey(ctx context.Context, account, customer string) (string, error)
	ListCards(ctx context.Context, account, customer string) ([]Card, error)
	SetDefaultCard(ctx context.Context, account, idempotencyKey, customer, paymentMethod string) error
}

// SetupIntent is what the domain reads of a setup intent.
type SetupIntent struct {
	ID, Status, ClientSecret string
	PaymentMethod            string
	Metadata                 map[string]string
}

func setupOf(si *stripe.SetupIntent) *SetupIntent {
	out := &SetupIntent{ID: si.ID, Status: string(si.Status), ClientSecret: si.ClientSecret, Metadata: si.Metadata}
	if si.PaymentMethod != nil {
		out.PaymentMethod = si.PaymentMethod.ID
	}
	return out
}

func (s *stripePort) GetSetupIntent(ctx context.Context, account, id string) (*SetupIntent, error) {
	params := &stripe.SetupIntentParams{}
	params.Context = ctx
	params.SetStripeAccount(account)
	si, err := s.api.SetupIntents.Get(id, params)
	if err != nil {
		return nil, classify(err)
	}
	return setupOf(si), nil
}

// SetupIntentFromObject reads a setup intent of an event's data.object.
func SetupIntentFromObject(raw []byte) (*SetupIntent, error) {
	var si stripe.SetupIntent
	if err := json.Unmarshal(raw, &si); err != nil {
		return nil, err
	}
	return setupOf(&si), nil
}

// Card is a saved card.
type Card struct {
	ID                string
	Brand, Last4      string
	ExpMonth, ExpYear int
	Wallet            string // apple_pay, google_pay, ... when the card came from a wallet
	IsCard            bool
}

func (s *stripePort) CreateCustomer(ctx context.Context, account, key, email string, metadata map[string]string) (string, error) {
	params := &stripe.CustomerParams{}
	params.Context = ctx
	params.SetStripeAccount(account)
	params.SetIdempotencyKey(key)
	if email != "" {
		params.Email = stripe.String(email)
	}
	for k, v := range metadata {
		params.AddMetadata(k, v)
	}
	c, err := s.api.Customers.New(params)
	if err != nil {
		return "", classify(err)
	}
	return c.ID, nil
}

func (s *stripePort) CreateSetupIntent(ctx context.Context, account, key, customer string, metadata map[string]string) (*SetupIntent, error) {
	params := &stripe.SetupIntentParams{Customer: stripe.String(customer), Usage: stripe.String("off_session"),
		AutomaticPaymentMethods: &stripe.SetupIntentAutomaticPaymentMethodsParams{Enabled: stripe.Bool(true)}}
	params.Context = ctx
	params.SetStripeAccount(account)
	params.SetIdempotencyKey(key)
	for k, v := range metadata {
		params.AddMetadata(k, v)
	}
	si, err := s.api.SetupIntents.New(params)
	if err != nil {
		return nil, classify(err)
	}
	return setupOf(si), nil
}

func (s *stripePort) CreateEphemeralKey(ctx context.Context, account, customer string) (string, error) {
	params := &stripe.EphemeralKeyParams{Customer: stripe.String(customer), StripeVersion: stripe.String(stripe.APIVersion)}
	params.Context = ctx
	params.SetStripeAccount(account)
	k, err := s.api.EphemeralKeys.New(params)
	if err != nil {
		return "", classify(err)
	}
	return k.Secret, nil
}

func (s *stripePort) ListCards(ctx context.Context, account, customer string) ([]Card, error) {
	// Every type, not only cards: a saved bank debit is known by its id, so
	// a card-only write on it answers NOT_A_CARD rather than not found.
	params := &stripe.PaymentMethodListParams{Customer: stripe.String(customer)}
	params.Context = ctx
	params.SetStripeAccount(account)
	it := s.api.PaymentMethods.List(params)
	var out []Card
	for it.Next() {
		pm := it.PaymentMethod()
		c := Card{ID: pm.ID, IsCard: pm.Type == stripe.PaymentMethodTypeCard}
		if pm.Card != nil {
			c.Brand, c.Last4 = string(pm.Card.Brand), pm.Card.Last4
			c.ExpMonth, c.ExpYear = int(pm.Card.ExpMonth), int(pm.Card.ExpYear)
			if pm.Card.Wallet != nil {
				c.Wallet = strings.ToLower(string(pm.Card.Wallet.Type))
			}
		}
		out = append(out, c)
	}
	if err := it.Err(); err != nil {
		return nil, classify(err)
	}
	return out, nil
}

func (s *stripePort) SetDefaultCard(ctx context.Context, account, key, customer, paymentMethod string) error {
	params := &stripe.CustomerParams{InvoiceSettings: &stripe.CustomerInvoiceSettingsParams{
		DefaultPaymentMethod: stripe.String(paymentMethod)}}
	params.Context = ctx
	params.SetStripeAccount(account)
	params.SetIdempotencyKey(key)
	_, err := s.api.Customers.Update(customer, params)
	if err != nil {
		return classify(err)
	}
	return nil
}
