package webhooks

import (
	"fmt"
	"strings"
	"time"

	"github.com/venueplatform/venue/internal/config"
	"github.com/venueplatform/venue/internal/webhooks/deliver"
	"github.com/venueplatform/venue/internal/webhooks/retry"
)

// Config is the configuration of webhook delivery.
type Config struct {
	// Sender are the sender's options; subscription URLs are checked with the same ones.
	Sender deliver.Options
	// Schedule spaces the attempts.
	Schedule retry.Schedule
	// Workers is the concurrency of the webhooks queue; zero means the jobs default.
	Workers int
	// RescueAfter is the jobs' stuck-job rescue delay; zero means the jobs default.
	RescueAfter time.Duration
}

// FromConfig builds the delivery configuration of the webhook settings
// (package config has checked the numbers and durations; the retry schedule
// is parsed here, VENUE_WEBHOOK_RETRY_DELAYS).
func FromConfig(w config.Webhooks) (Config, error) {
	c := Config{Schedule: retry.Default, Workers: w.Workers, RescueAfter: w.RescueAfter,
		Sender: deliver.Options{AllowPrivate: w.AllowPrivate, AllowHTTP: w.AllowHTTP, Timeout: w.Timeout}}
	if w.RetryDelays != "" {
		var err error
		if c.Schedule, err = ParseDelays(w.RetryDelays); err != nil {
			return c, fmt.Errorf("%s: %w", "VENUE_WEBHOOK_RETRY_DELAYS", err)
		}
	}
	return c, nil
}

// ParseDelays parses a comma-separated list of positive waits into a schedule without
// jitter. It may not have more attempts than retry.Default, since jobs are inserted with
// that many.
func ParseDelays(v string) (retry.Schedule, error) {
	var s retry.Schedule
	for _, part := range strings.Split(v, ",") {
		d, err := time.ParseDuration(strings.TrimSpace(part))
		if err != nil || d <= 0 {
			return s, fmt.Errorf("%q is not a positive duration", part)
		}
		s.Delays = append(s.Delays, d)
	}
	if s.MaxAttempts() > retry.Default.MaxAttempts() {
		return s, fmt.Errorf("at most %d waits", retry.Default.MaxAttempts()-1)
	}
	return s, nil
}
