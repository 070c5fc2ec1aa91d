// Package stripeport is the payments domain's small port to Stripe: the
// handful of calls checkout and Connect onboarding make (payment intents,
// setup intents, connected accounts, account links) and the verification of
// inbound events, behind an interface so tests stand a fake at the network
// boundary (or stripe-mock) behind the real client. It speaks stripe-go v79
// with Stripe API version 2024-06-20; every call names the venue's connected
// account (Connect, direct mode) and every write carries the caller's
// idempotency key.
package stripeport

import (
	"context"
	"errors"
	"fmt"
	"time"
)

// Port is what the payments domain asks of Stripe.
type Port interface {
	// CreatePaymentIntent creates (and, with a payment method, confirms) a
	// payment intent on the connected account.
	CreatePaymentIntent(ctx context.Context, p IntentParams) (*Intent, error)
	// GetPaymentIntent reads an intent of the connected account.
	GetPaymentIntent(ctx context.Context, account, id string) (*Intent, error)
	// FindPaymentIntent searches the connected account for the intent whose
	// metadata names attemptID; nil when there is none.
	FindPaymentIntent(ctx context.Context, account, attemptID string) (*Intent, error)
	// CreateAccount creates a connected account and returns its id.
	CreateAccount(ctx context.Context, idempotencyKey, country, email string) (string, error)
	// GetAccount reads a connected account.
	GetAccount(ctx context.Context, id string) (*Account, error)
	// CreateAccountLink returns an onboarding link of the connected account.
	CreateAccountLink(ctx context.Context, account, refreshURL, returnURL string) (*AccountLink, error)
	// Cards keeps members' saved cards.
	Cards
	// Refunds gives money back on a payment.
	Refunds
	// Billing renews memberships (subscriptions and their invoices).
	Billing
	// Cancels cancels payment intents left unfinished.
	Cancels
	// SubscriptionReader reads a subscription (staff lifecycle operations).
	SubscriptionReader
	// InvoiceItems adjusts a subscription's next invoice.
	InvoiceItems
	// Detaches removes saved cards and clears a customer's default card.
	Detaches
	// CreditNotes records part of an open invoice paid outside Stripe.
	CreditNotes
	// Schedules gives a subscription the phases of its price.
	Schedules
	// SubscriptionFinder finds the subscription an attempt created.
	SubscriptionFinder
	// PhaseScheduler sets the phases of a subscription's price.
	PhaseScheduler
}

// IntentParams are a payment intent to create.
type IntentParams struct {
	Account        string
	IdempotencyKey string
	AmountMinor    int64
	Currency       string // ISO 4217, upper case; sent lower case
	// ApplicationFeeMinor is the platform's cut (Connect, direct mode).
	ApplicationFeeMinor int64
	// PaymentMethod and Customer, when set, confirm the intent at once.
	PaymentMethod, Customer string
	// SaveCard keeps the card on Customer for later charges (a membership's
	// renewals: setup_future_usage off_session).
	SaveCard    bool
	Description string
	Metadata    map[string]string
	// OffSession charges a saved card while its holder is not paying in the
	// app (the front desk): Stripe answers a card that needs authentication
	// with a decline (authentication_required) instead of waiting.
	OffSession bool
}

// Intent is what the domain reads of a payment intent.
type Intent struct {
	ID           string
	Status       string // requires_payment_method, requires_confirmation, requires_action, processing, succeeded, canceled, ...
	ClientSecret string
	AmountMinor  int64
	Currency     string
	FailureCode  string
	DeclineCode  string
	Metadata     map[string]string
}

// Account is what the domain reads of a connected account.
type Account struct {
	ID               string
	ChargesEnabled   bool
	DetailsSubmitted bool
	Country          string
}

// AccountLink is an onboarding link.
type AccountLink struct {
	URL       string
	ExpiresAt time.Time
}

// Errors of the port. A refusal that Stripe answered (a decline, a bad
// request) is a *CardError or ErrRefused; a call whose outcome is not known
// (a timeout, a dropped connection, a 5xx after the retries) is
// ErrUnknownOutcome: the write may or may not have happened.
var (
	ErrUnknownOutcome = errors.New("stripe: outcome unknown")
	ErrRefused        = errors.New("stripe: request refused")
	ErrNotFound       = errors.New("stripe: no such object")
)

// CardError is a card refusal (HTTP 402): its codes, and the intent Stripe
// left behind (requires_payment_method) when it sent one.
type CardError struct {
	Code, DeclineCode, Message string
	Intent                     *Intent
}

func (e *CardError) Error() string {
	return fmt.Sprintf("stripe: card declined (%s/%s)", e.Code, e.DeclineCode)
}
