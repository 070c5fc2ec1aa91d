package stripeport

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/stripe/stripe-go/v79"
	"github.com/stripe/stripe-go/v79/client"
)

// APIVersion is the Stripe API version stripe-go v79 speaks, and the one
// inbound events must carry.
const APIVersion = stripe.APIVersion

// Config configures New.
type Config struct {
	SecretKey string
	// APIBase replaces Stripe's address (stripe-mock, a test double).
	APIBase string
	// Timeout bounds one HTTP attempt; zero means 20 s.
	Timeout time.Duration
	// MaxNetworkRetries is how often stripe-go retries a failed attempt with
	// the same idempotency key; negative means none, zero means 1.
	MaxNetworkRetries int
}

type stripePort struct{ api *client.API }

// New returns the port over stripe-go.
func New(cfg Config) Port {
	if cfg.Timeout <= 0 {
		cfg.Timeout = 20 * time.Second
	}
	retries := int64(1)
	if cfg.MaxNetworkRetries > 0 {
		retries = int64(cfg.MaxNetworkRetries)
	} else if cfg.MaxNetworkRetries < 0 {
		retries = 0
	}
	bc := &stripe.BackendConfig{
		HTTPClient:        &http.Client{Timeout: cfg.Timeout},
		MaxNetworkRetries: stripe.Int64(retries),
		LeveledLogger:     &stripe.LeveledLogger{Level: stripe.LevelNull},
	}
	if cfg.APIBase != "" {
		bc.URL = stripe.String(cfg.APIBase)
	}
	b := stripe.GetBackendWithConfig(stripe.APIBackend, bc)
	api := &client.API{}
	api.Init(cfg.SecretKey, &stripe.Backends{API: b, Connect: b, Uploads: b})
	return &stripePort{api: api}
}

func (s *stripePort) CreatePaymentIntent(ctx context.Context, p IntentParams) (*Intent, error) {
	params := &stripe.PaymentIntentParams{
		Amount:      stripe.Int64(p.AmountMinor),
		Currency:    stripe.String(strings.ToLower(p.Currency)),
		Description: stripe.String(p.Description),
	}
	params.Context = ctx
	params.SetStripeAccount(p.Account)
	params.SetIdempotencyKey(p.IdempotencyKey)
	if p.ApplicationFeeMinor > 0 {
		params.ApplicationFeeAmount = stripe.Int64(p.ApplicationFeeMinor)
	}
	for k, v := range p.Metadata {
		params.AddMetadata(k, v)
	}
	if p.PaymentMethod != "" {
		params.PaymentMethod = stripe.String(p.PaymentMethod)
		params.Confirm = stripe.Bool(true)
		params.PaymentMethodTypes = stripe.StringSlice([]string{"card"})
	} else {
		params.AutomaticPaymentMethods = &stripe.PaymentIntentAutomaticPaymentMethodsParams{Enabled: stripe.Bool(true)}
	}
	if p.Customer != "" {
		params.Customer = stripe.String(p.Customer)
	}
	if p.OffSession && p.PaymentMethod != "" {
		params.OffSession = stripe.Bool(true)
	}
	if p.SaveCard && p.Customer != "" {
		params.SetupFutureUsage = stripe.String(string(stripe.PaymentIntentSetupFutureUsageOffSession))
	}
	pi, err := s.api.PaymentIntents.New(params)
	if err != nil {
		return nil, classify(err)
	}
	return intentOf(pi), nil
}

func (s *stripePort) GetPaymentIntent(ctx context.Context, account, id string) (*Intent, error) {
	params := &stripe.PaymentIntentParams{}
	params.Context = ctx
	params.SetStripeAccount(account)
	pi, err := s.api.PaymentIntents.Get(id, params)
	if err != nil {
		return nil, classify(err)
	}
	return intentOf(pi), nil
}

func (s *stripePort) FindPaymentIntent(ctx context.Context, account, attemptID string) (*Intent, error) {
	params := &stripe.PaymentIntentSearchParams{}
	params.Context = ctx
	params.Query = fmt.Sprintf("metadata['attempt_id']:'%s'", attemptID)
	params.SetStripeAccount(account)
	it := s.api.PaymentIntents.Search(params)
	for it.Next() {
		pi := it.PaymentIntent()
		if pi.Metadata["attempt_id"] == attemptID {
			return intentOf(pi), nil
		}
	}
	if err := it.Err(); err != nil {
		return nil, classify(err)
	}
	return nil, nil
}

func (s *stripePort) CreateAccount(ctx context.Context, key, country, email string) (string, error) {
	params := &stripe.AccountParams{Type: stripe.String(string(stripe.AccountTypeStandard))}
	params.Context = ctx
	params.SetIdempotencyKey(key)
	if country != "" {
		params.Country = stripe.String(country)
	}
	if email != "" {
		params.Email = stripe.String(email)
	}
	a, err := s.api.Accounts.New(params)
	if err != nil {
		return "", classify(err)
	}
	return a.ID, nil
}

func (s *stripePort) GetAccount(ctx context.Context, id string) (*Account, error) {
	params := &stripe.AccountParams{}
	params.Context = ctx
	a, err := s.api.Accounts.GetByID(id, params)
	if err != nil {
		return nil, classify(err)
	}
	return &Account{ID: a.ID, ChargesEnabled: a.ChargesEnabled, DetailsSubmitted: a.DetailsSubmitted, Country: a.Country}, nil
}

func (s *stripePort) CreateAccountLink(ctx context.Context, account, refreshURL, returnURL string) (*AccountLink, error) {
	params := &stripe.AccountLinkParams{
		Account:    stripe.String(account),
		RefreshURL: stripe.String(refreshURL),
		ReturnURL:  stripe.String(returnURL),
		Type:       stripe.String("account_onboarding"),
	}
	params.Context = ctx
	l, err := s.api.AccountLinks.New(params)
	if err != nil {
		return nil, classify(err)
	}
	return &AccountLink{URL: l.URL, ExpiresAt: time.Unix(l.ExpiresAt, 0).UTC()}, nil
}

func intentOf(pi *stripe.PaymentIntent) *Intent {
	out := &Intent{ID: pi.ID, Status: string(pi.Status), ClientSecret: pi.ClientSecret,
		AmountMinor: pi.Amount, Currency: strings.ToUpper(string(pi.Currency)), Metadata: pi.Metadata}
	if e := pi.LastPaymentError; e != nil {
		out.FailureCode, out.DeclineCode = string(e.Code), string(e.DeclineCode)
	}
	return out
}

// classify sorts a stripe-go error: a card refusal, another answered
// refusal, a missing object, or an unknown outcome (no answer, or a 5xx
// after the retries, where the write may have happened).
func classify(err error) error {
	var se *stripe.Error
	if !errors.As(err, &se) {
		return fmt.Errorf("%w: %v", ErrUnknownOutcome, err)
	}
	switch {
	case se.HTTPStatusCode >= 500 || se.HTTPStatusCode == 0:
		return fmt.Errorf("%w: status %d", ErrUnknownOutcome, se.HTTPStatusCode)
	case se.Type == stripe.ErrorTypeCard || se.HTTPStatusCode == http.StatusPaymentRequired:
		ce := &CardError{Code: string(se.Code), DeclineCode: string(se.DeclineCode), Message: se.Msg}
		if se.PaymentIntent != nil {
			ce.Intent = intentOf(se.PaymentIntent)
		}
		return ce
	case se.HTTPStatusCode == http.StatusNotFound:
		return fmt.Errorf("%w: %s", ErrNotFound, se.Code)
	default:
		return &refusalError{status: se.HTTPStatusCode, code: string(se.Code)}
	}
}
