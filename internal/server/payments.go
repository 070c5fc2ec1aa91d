package server

import (
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"

	"github.com/riverqueue/river"

	"github.com/venueplatform/venue/internal/apperr"
	"github.com/venueplatform/venue/internal/config"
	"github.com/venueplatform/venue/internal/httpx"
	"github.com/venueplatform/venue/internal/idempotency"
	"github.com/venueplatform/venue/internal/payments"
	"github.com/venueplatform/venue/internal/payments/stripeport"
)

// PaymentEventsPath is where Stripe posts its events (the platform's and the
// Connect endpoint's): a raw body whose Stripe-Signature is checked, so it is
// served beside the generated server, not through it.
const PaymentEventsPath = "/api/v1/payments/stripe/events"

// maxEventBody caps an inbound event's body (Stripe's are a few kilobytes).
const maxEventBody = 256 << 10

func init() {
	// POST /me/checkout/purchase and the onboarding link: a required key of
	// 1 to 200 characters (spec/parts/payments.yaml).
	idempotencyPolicies["purchaseCheckout"] = idempotency.Required(idempotency.Max200)
	idempotencyPolicies["createPaymentsAccountLink"] = idempotency.Required(idempotency.Max200)
	idempotencyPolicies["createMyPaymentMethod"] = idempotency.Required(idempotency.Max200)
	idempotencyPolicies["setMyDefaultPaymentMethod"] = idempotency.Required(idempotency.Max200)
	idempotencyPolicies["initMyPaymentSheet"] = idempotency.Required(idempotency.Max200)
	idempotencyPolicies["createTip"] = idempotency.Required(idempotency.Max200)
}

// paymentsService builds the payments domain from the configuration: card
// payments are off without a Stripe key. Quotes are signed with the cursor
// secret (an installation secret every instance shares).
func paymentsService(d Deps, c config.Config) *payments.Service {
	pc := payments.Config{Log: d.Log, QuoteKey: []byte(c.Cursors.Secret)}
	if c.Payments.SecretKey != "" {
		pc.Port = stripeport.New(stripeport.Config{SecretKey: c.Payments.SecretKey, APIBase: c.Payments.APIBase,
			Timeout: c.Payments.Timeout})
	}
	pc.WebhookSecrets = []string{c.Payments.WebhookSecret, c.Payments.ConnectWebhookSecret}
	if pc.Log == nil {
		pc.Log = slog.New(slog.DiscardHandler)
	}
	return payments.New(d.Client, pc)
}

// paymentEvents answers Stripe's inbound events: 200 once the event is
// recorded with its job (or was recorded before), 400 with nothing recorded
// when the signature does not verify.
func paymentEvents(svc *payments.Service, log *slog.Logger) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, maxEventBody))
		if err != nil {
			httpx.WriteError(w, r, apperr.Validation("body", "unreadable or too large event body"))
			return
		}
		fresh, err := svc.Receive(r.Context(), body, r.Header.Get("Stripe-Signature"))
		if errors.Is(err, payments.ErrBadSignature) {
			httpx.WriteError(w, r, apperr.Validation("Stripe-Signature", "the event signature does not verify"))
			return
		}
		if err != nil {
			log.ErrorContext(r.Context(), "inbound payment event", "error", err)
			httpx.WriteError(w, r, apperr.Internal(err))
			return
		}
		writeJSON(w, http.StatusOK, map[string]any{"received": true, "duplicate": !fresh})
	})
}

// withPaymentsWorker adds the payments jobs (inbound events, reconcile) to
// the River workers next registers.
func withPaymentsWorker(c config.Config, next func(d Deps, w *river.Workers) error) func(d Deps, w *river.Workers) error {
	return func(d Deps, w *river.Workers) error {
		if err := paymentsService(d, c).Register(w); err != nil {
			return fmt.Errorf("payments: %w", err)
		}
		if next != nil {
			return next(d, w)
		}
		return nil
	}
}
