package server

import (
	"context"
	"fmt"

	"github.com/riverqueue/river"

	"github.com/venueplatform/venue/internal/config"
	"github.com/venueplatform/venue/internal/notify"
)

// withNotifyWorker adds the notification delivery worker (channel adapters of the SMTP
// settings: SMTP when VENUE_SMTP_HOST is set, log sinks otherwise) to the River workers
// next registers, so that every instance that works jobs also sends notifications.
func withNotifyWorker(smtp config.SMTP, next func(d Deps, w *river.Workers) error) func(d Deps, w *river.Workers) error {
	return func(d Deps, w *river.Workers) error {
		cfg := notify.ConfigFor(smtp)
		if cfg.SMTP.Host != "" {
			d.Log.Info("notification e-mail over SMTP", "host", cfg.SMTP.Host, "port", cfg.SMTP.Port, "tls", cfg.SMTP.TLS)
		} else {
			d.Log.Info("notification e-mail goes to the log (VENUE_SMTP_HOST unset)")
		}
		if err := notify.Register(d.Pool, cfg.Adapters(d.Log, nil, nil), d.Log)(w); err != nil {
			return fmt.Errorf("notifications: %w", err)
		}
		if next != nil {
			return next(d, w)
		}
		return nil
	}
}

// runNotifyRelay hands notification rows written outside a job-carrying transaction to River
// until ctx ends (package notify: Relay). Every instance may run it.
func runNotifyRelay(ctx context.Context, d Deps) {
	go (&notify.Relay{Pool: d.Pool, Log: d.Log}).Run(ctx)
}
