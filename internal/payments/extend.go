package payments

import (
	"context"
	"log/slog"
	"strings"
	"sync"
	"time"

	"github.com/google/uuid"
	"github.com/riverqueue/river"

	"github.com/venueplatform/venue/ent"
	"github.com/venueplatform/venue/ent/processorevent"
	"github.com/venueplatform/venue/internal/payments/stripeport"
	"github.com/venueplatform/venue/internal/system"
)

// What other money packages (the renewals of memberships) hang on the
// payments service: inbound event types they handle, workers they run, and
// a hook on the activation of a recurring pass. Each registers once, at
// init, like a Subject, so every Service of the process (request handlers,
// event jobs) reaches them.

// EventHandler handles one recorded inbound event of a registered type
// prefix, in the job's context (no viewer: it finds the venue itself); it
// returns the outcome stored on the event. It must be monotonic, as every
// event handler: redeliveries and disorder change nothing twice.
type EventHandler func(ctx context.Context, s *Service, ev *stripeport.Event) (string, error)

// RecurringHook runs in the activation's transaction when a checkout of a
// recurring pass type is paid: the renewals start from there.
type RecurringHook func(ctx context.Context, tx *ent.Tx, pass *ent.Pass, co *ent.Checkout) error

var (
	extMu          sync.RWMutex
	eventHandlers  = map[string]EventHandler{}
	workerHooks    []func(w *river.Workers, s *Service) error
	recurringHooks []RecurringHook
)

// RegisterEventHandler routes inbound events whose type starts with prefix
// (invoice., customer.subscription.; or a whole type, refund.updated) to h,
// in place of this package's own handling of that type.
func RegisterEventHandler(prefix string, h EventHandler) {
	extMu.Lock()
	defer extMu.Unlock()
	eventHandlers[prefix] = h
}

// RegisterWorkers adds workers that Register adds to River with the
// payments workers.
func RegisterWorkers(add func(w *river.Workers, s *Service) error) {
	extMu.Lock()
	defer extMu.Unlock()
	workerHooks = append(workerHooks, add)
}

// RegisterRecurringHook runs h when a recurring pass is activated.
func RegisterRecurringHook(h RecurringHook) {
	extMu.Lock()
	defer extMu.Unlock()
	recurringHooks = append(recurringHooks, h)
}

func eventHandlerOf(typ string) EventHandler {
	extMu.RLock()
	defer extMu.RUnlock()
	for prefix, h := range eventHandlers {
		if strings.HasPrefix(typ, prefix) {
			return h
		}
	}
	return nil
}

func registerExtraWorkers(w *river.Workers, s *Service) error {
	extMu.RLock()
	hooks := append([]func(*river.Workers, *Service) error(nil), workerHooks...)
	extMu.RUnlock()
	for _, add := range hooks {
		if err := add(w, s); err != nil {
			return err
		}
	}
	return nil
}

func runRecurringHooks(ctx context.Context, tx *ent.Tx, p *ent.Pass, co *ent.Checkout) error {
	extMu.RLock()
	hooks := append([]RecurringHook(nil), recurringHooks...)
	extMu.RUnlock()
	for _, h := range hooks {
		if err := h(ctx, tx, p, co); err != nil {
			return err
		}
	}
	return nil
}

// Client is the service's ent client.
func (s *Service) Client() *ent.Client { return s.client }

// Port is the service's Stripe port; nil when card payments are off.
func (s *Service) Port() stripeport.Port { return s.port }

// Now is the service's clock.
func (s *Service) Now() time.Time { return s.now() }

// Logger is the service's logger.
func (s *Service) Logger() *slog.Logger { return s.log }

// Chargeable returns the connected account of the viewer's venue, or
// CARD_PAYMENTS_UNAVAILABLE with its reason.
func (s *Service) Chargeable(ctx context.Context) (*ent.VenuePayments, error) {
	return s.chargeable(ctx)
}

// Customer returns the member's Stripe customer on the venue's account;
// create makes it when the member has none (else nil, nil).
func (s *Service) Customer(ctx context.Context, vp *ent.VenuePayments, memberID uuid.UUID, create bool) (*ent.PaymentCustomer, error) {
	return s.customer(ctx, vp, memberID, create)
}

// EventID is the id of the recorded inbound event whose Stripe id is
// stripeID (what ProcessEvent takes); tools that deliver events themselves
// (the billing clock of the tests) use it.
func (s *Service) EventID(ctx context.Context, stripeID string) (uuid.UUID, error) {
	// System call site: the event row is global; the caller delivered it.
	return s.client.ProcessorEvent.Query().Where(processorevent.EventID(stripeID)).
		OnlyID(system.Allow(ctx, "payments.event_job"))
}
