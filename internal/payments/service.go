package payments

import (
	"context"
	"crypto/rand"
	"fmt"
	"log/slog"
	"sync"
	"time"

	"github.com/venueplatform/venue/ent"
	"github.com/venueplatform/venue/internal/payments/stripeport"
)

// Config configures a Service.
type Config struct {
	// Port reaches Stripe; nil means card payments are off (no key set):
	// card operations answer CARD_PAYMENTS_UNAVAILABLE.
	Port stripeport.Port
	// WebhookSecrets verify inbound events (the platform's and the Connect
	// endpoint's); none means every inbound event is refused.
	WebhookSecrets []string
	// QuoteKey signs quotes; every instance must share it. Empty takes a
	// random key for this process.
	QuoteKey []byte
	// Log receives the jobs' logs; nil discards.
	Log *slog.Logger
	// Now is the clock; nil is time.Now.
	Now func() time.Time
}

// processQuoteKey is the quote key of a process configured without one:
// random, shared by every Service of the process.
var processQuoteKey = sync.OnceValue(func() []byte {
	k := make([]byte, 32)
	_, _ = rand.Read(k)
	return k
})

// Service is the payments domain over one ent client.
type Service struct {
	client   *ent.Client
	port     stripeport.Port
	secrets  []string
	quoteKey []byte
	log      *slog.Logger
	now      func() time.Time
}

// New returns a Service. client must come from db.NewClient (its
// transactions carry River jobs).
func New(client *ent.Client, cfg Config) *Service {
	s := &Service{client: client, port: cfg.Port, secrets: cfg.WebhookSecrets, quoteKey: cfg.QuoteKey, log: cfg.Log, now: cfg.Now}
	if len(s.quoteKey) == 0 {
		s.quoteKey = processQuoteKey()
	}
	if s.log == nil {
		s.log = slog.New(slog.DiscardHandler)
	}
	if s.now == nil {
		s.now = time.Now
	}
	return s
}

// Enabled reports whether the installation has a Stripe key.
func (s *Service) Enabled() bool { return s.port != nil }

// venuePayments reads the payment settings of the viewer's venue; nil when
// the venue has none.
func (s *Service) venuePayments(ctx context.Context) (*ent.VenuePayments, error) {
	vp, err := s.client.VenuePayments.Query().Only(ctx)
	if ent.IsNotFound(err) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("payments: venue settings: %w", err)
	}
	return vp, nil
}

// cardPayments says whether a venue with settings vp takes card payments
// now, and the reason of CARD_PAYMENTS_UNAVAILABLE when not.
func (s *Service) cardPayments(vp *ent.VenuePayments) (bool, string) {
	switch {
	case s.port == nil:
		return false, ReasonPaymentsDisabled
	case vp == nil || vp.AccountID == nil || !vp.ChargesEnabled:
		return false, ReasonConnectNotActive
	}
	return true, ""
}

// chargeable returns the venue's connected account, or the unavailability
// error.
func (s *Service) chargeable(ctx context.Context) (*ent.VenuePayments, error) {
	vp, err := s.venuePayments(ctx)
	if err != nil {
		return nil, err
	}
	if ok, reason := s.cardPayments(vp); !ok {
		return nil, unavailable(reason)
	}
	return vp, nil
}

// IdempotencyKey is the Stripe idempotency key of an attempt's step.
func IdempotencyKey(purpose, attemptID, step string) string {
	return "v1:" + purpose + ":" + attemptID + ":" + step
}
