package server

import (
	"context"
	"encoding/base64"
	"fmt"
	"time"

	"github.com/riverqueue/river"

	"github.com/venueplatform/venue/internal/config"
	"github.com/venueplatform/venue/internal/idempotency"
	"github.com/venueplatform/venue/internal/jobs"
	"github.com/venueplatform/venue/internal/secretbox"
	"github.com/venueplatform/venue/internal/webhooks"
	"github.com/venueplatform/venue/internal/webhooks/deliver"
	"github.com/venueplatform/venue/internal/webhooks/dispatch"
	"github.com/venueplatform/venue/internal/webhooks/store"
)

// JobsStopGrace is how long jobs in flight may finish after a stop signal before River
// cancels them (a cancelled delivery attempt is retried later, never lost).
const JobsStopGrace = 10 * time.Second

func init() {
	// Creating a subscription, rotating its secret and replaying a delivery each make
	// something a retry must not make twice (a second subscription, a second secret, a
	// second delivery): an Idempotency-Key is accepted on each, 1 to 200 characters.
	idempotencyPolicies["createWebhookSubscription"] = idempotency.Optional(idempotency.Max200)
	idempotencyPolicies["rotateWebhookSecret"] = idempotency.Optional(idempotency.Max200)
	idempotencyPolicies["replayWebhookDelivery"] = idempotency.Optional(idempotency.Max200)
	idempotencyPolicies["pingWebhookSubscription"] = idempotency.Optional(idempotency.Max200)
}

// sealingBox is the keyring of webhook signing secrets: the current key
// (VENUE_WEBHOOK_SECRET_KEY) seals, it and the previous ones open.
func sealingBox(w config.Webhooks) (*secretbox.Box, error) {
	var current []byte
	if w.SecretKey != "" {
		k, err := base64.StdEncoding.DecodeString(w.SecretKey)
		if err != nil {
			return nil, fmt.Errorf("%s: not base64", "VENUE_WEBHOOK_SECRET_KEY")
		}
		current = k
	}
	var previous [][]byte
	for _, v := range w.PreviousKeys {
		k, err := base64.StdEncoding.DecodeString(v)
		if err != nil {
			return nil, fmt.Errorf("%s: not base64", "VENUE_WEBHOOK_SECRET_PREVIOUS_KEYS")
		}
		previous = append(previous, k)
	}
	return secretbox.New(secretbox.FormatWebhook, current, previous...)
}

// startJobs starts the River client that works webhook deliveries (and the workers of
// cfg.RegisterWorkers) on this instance, and returns the function that stops it: jobs in
// flight get JobsStopGrace to finish, then are cancelled and retried later.
func startJobs(ctx context.Context, cfg Config, settings config.Config, d Deps) (stop func(), err error) {
	wcfg, err := webhooks.FromConfig(settings.Webhooks)
	if err != nil {
		return nil, err
	}
	box, err := sealingBox(settings.Webhooks)
	if err != nil {
		return nil, err
	}
	rescue := wcfg.RescueAfter
	if rescue == 0 {
		rescue = jobs.DefaultRescueAfter
	}
	jcfg := jobs.Config{
		Webhooks: dispatch.Config{
			Store:    store.New(d.Client).WithBox(box),
			Sender:   deliver.New(wcfg.Sender),
			Schedule: wcfg.Schedule,
			// One attempt takes at most the sender's timeout (10 s by default); the job
			// must end well within the rescue delay.
			JobTimeout: min(time.Minute, rescue/2),
		},
		WebhookWorkers: wcfg.Workers,
		RescueAfter:    rescue,
		Logger:         d.Log,
	}
	if cfg.RegisterWorkers != nil {
		jcfg.Register = func(w *river.Workers) error { return cfg.RegisterWorkers(d, w) }
	}
	client, err := jobs.NewClient(d.Pool, jcfg)
	if err != nil {
		return nil, fmt.Errorf("jobs: %w", err)
	}
	// The client outlives ctx: it is stopped explicitly, after the HTTP server.
	if err := client.Start(context.WithoutCancel(ctx)); err != nil {
		return nil, fmt.Errorf("jobs: start: %w", err)
	}
	d.Log.Info("webhook delivery started", "allow_private", wcfg.Sender.AllowPrivate,
		"allow_http", wcfg.Sender.AllowHTTP, "attempts", wcfg.Schedule.MaxAttempts())
	return func() {
		sctx, cancel := context.WithTimeout(context.Background(), JobsStopGrace)
		defer cancel()
		if err := client.Stop(sctx); err != nil {
			d.Log.Warn("jobs: graceful stop timed out, cancelling", "error", err.Error())
			cctx, ccancel := context.WithTimeout(context.Background(), 5*time.Second)
			defer ccancel()
			_ = client.StopAndCancel(cctx)
		}
	}, nil
}
