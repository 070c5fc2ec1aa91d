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

var (
	hooksMu     sync.RWMutex
	reconcilers = map[paymentattempt.Purpose]Reconciler{}
	// domainReconcilers take precedence over reconcilers.
	domainReconcilers = map[paymentattempt.Purpose]DomainReconciler{}
)

// A DomainReconciler settles an unknown attempt of a registered purpose
// through its own domain, with the payments service at hand (billing's
// invoice payments and subscription creations read the invoice or the
// subscription from Stripe and settle as their own answers would have).
type DomainReconciler func(ctx context.Context, s *Service, at *ent.PaymentAttempt) error

// RegisterDomainReconciler makes Reconcile settle attempts of purpose
// through r; registered once, at init.
func RegisterDomainReconciler(purpose paymentattempt.Purpose, r DomainReconciler) {
	hooksMu.Lock()
	defer hooksMu.Unlock()
	domainReconcilers[purpose] = r
}

func domainReconcilerOf(p paymentattempt.Purpose) DomainReconciler {
	hooksMu.RLock()
	defer hooksMu.RUnlock()
	return domainReconcilers[p]
}

// RegisterReconciler makes Reconcile settle attempts of purpose through r:
// a package whose attempts are not payment intents (refunds) registers
// itself once, at init.
func RegisterReconciler(purpose paymentattempt.Purpose, r Reconciler) {
	hooksMu.Lock()
	defer hooksMu.Unlock()
	reconcilers[purpose] = r
}

func reconcilerOf(p paymentattempt.Purpose) Reconciler {
	hooksMu.RLock()
	defer hooksMu.RUnlock()
	return reconcilers[p]
}

// EnqueueReconcile queues the reconcile job of an attempt whose outcome is
// unknown, in the transaction of ctx (events.WithTx).
func EnqueueReconcile(ctx context.Context, at *ent.PaymentAttempt) error {
	return enqueueReconcile(ctx, at)
}
