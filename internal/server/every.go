package server

import (
	"context"
	"log/slog"
	"time"
)

// every runs sweep each period until ctx ends: the server schedules the
// periodic sweeps that domain packages offer as one-shot calls (lapsed
// holds, stale payment attempts, expired idempotency keys, staged uploads,
// undelivered inquiries). A failure is logged, unless ctx has ended, and the
// next tick tries again; a sweep that did something logs how much.
func every(ctx context.Context, log *slog.Logger, period time.Duration, name string, sweep func(context.Context) (int, error)) {
	t := time.NewTicker(period)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			n, err := sweep(ctx)
			switch {
			case err != nil && ctx.Err() == nil:
				log.ErrorContext(ctx, "sweep failed", "sweep", name, "error", err)
			case err == nil && n > 0:
				log.InfoContext(ctx, "sweep done", "sweep", name, "count", n)
			}
		}
	}
}
