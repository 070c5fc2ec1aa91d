package payments

import (
	"context"
	"sync"

	"github.com/venueplatform/venue/ent"
	"github.com/venueplatform/venue/ent/paymentattempt"
	"github.com/venueplatform/venue/internal/payments/stripeport"
)

// A Reconciler settles an unknown attempt of a registered purpose by
// reading Stripe (never writing), in the attempt's venue; the payments jobs
// call it for the attempts their sweep and reconcile job find.
type Reconciler func(ctx context.Context, client *ent.Client, port stripeport.Port, at *ent.PaymentAttempt) error

// An EventHandler processes one recorded inbound event of a registered
// type, in the job's context (no viewer: it finds the venue itself), and
// returns the outcome recorded on the event. It must be monotonic, as every
// event handler: redeliveries and disorder change nothing twice.
type EventHandler func(ctx context.Context, client *ent.Client, port stripeport.Port, ev *stripeport.Event) (string, error)

var (
	hooksMu     sync.RWMutex
	reconcilers = map[paymentattempt.Purpose]Reconciler{}
	handlers    = map[string]EventHandler{}
)

// RegisterReconciler makes Reconcile settle attempts of purpose through r:
// a package whose attempts are not payment intents (refunds) registers
// itself once, at init.
func RegisterReconciler(purpose paymentattempt.Purpose, r Reconciler) {
	hooksMu.Lock()
	defer hooksMu.Unlock()
	reconcilers[purpose] = r
}

// RegisterEventHandler makes ProcessEvent hand events of typ to h, in place
// of this package's own handling of that type.
func RegisterEventHandler(typ string, h EventHandler) {
	hooksMu.Lock()
	defer hooksMu.Unlock()
	handlers[typ] = h
}

func reconcilerOf(p paymentattempt.Purpose) Reconciler {
	hooksMu.RLock()
	defer hooksMu.RUnlock()
	return reconcilers[p]
}

func eventHandlerOf(typ string) EventHandler {
	hooksMu.RLock()
	defer hooksMu.RUnlock()
	return handlers[typ]
}

// Port is the service's Stripe port; nil when card payments are off.
func (s *Service) Port() stripeport.Port { return s.port }

// EnqueueReconcile queues the reconcile job of an attempt whose outcome is
// unknown, in the transaction of ctx (events.WithTx).
func EnqueueReconcile(ctx context.Context, at *ent.PaymentAttempt) error {
	return enqueueReconcile(ctx, at)
}
