package webhooks

import (
	"fmt"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/venueplatform/venue/internal/webhooks/deliver"
	"github.com/venueplatform/venue/internal/webhooks/retry"
)

// Environment variables of webhook delivery (README, configuration table).
const (
	// EnvAllowPrivate lets subscriptions target loopback, private and link-local addresses
	// (development, tests); cloud metadata addresses stay refused. Default false.
	EnvAllowPrivate = "VENUE_WEBHOOK_ALLOW_PRIVATE"
	// EnvAllowHTTP lets subscriptions use plain http. Default false.
	EnvAllowHTTP = "VENUE_WEBHOOK_ALLOW_HTTP"
	// EnvRetryDelays replaces the retry schedule with a comma-separated list of waits
	// ("1s,2s,5s"): one more attempt than waits. Default: retry.Default (about 3 days).
	EnvRetryDelays = "VENUE_WEBHOOK_RETRY_DELAYS"
	// EnvWorkers is the number of concurrent deliveries per server instance. Default 20.
	EnvWorkers = "VENUE_WEBHOOK_WORKERS"
	// EnvTimeout bounds one attempt (a Go duration). Default 10s.
	EnvTimeout = "VENUE_WEBHOOK_TIMEOUT"
	// EnvRescueAfter is how long a job may stay running before it is taken as abandoned
	// by a crashed instance and run again (a Go duration, at least 15s). Default 2m.
	EnvRescueAfter = "VENUE_JOBS_RESCUE_AFTER"
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

// FromEnv reads Config from the environment.
func FromEnv() (Config, error) {
	c := Config{Schedule: retry.Default}
	var err error
	if c.Sender.AllowPrivate, err = envBool(EnvAllowPrivate); err != nil {
		return c, err
	}
	if c.Sender.AllowHTTP, err = envBool(EnvAllowHTTP); err != nil {
		return c, err
	}
	if v := os.Getenv(EnvTimeout); v != "" {
		if c.Sender.Timeout, err = time.ParseDuration(v); err != nil || c.Sender.Timeout <= 0 {
			return c, fmt.Errorf("%s: want a positive duration", EnvTimeout)
		}
	}
	if v := os.Getenv(EnvWorkers); v != "" {
		if c.Workers, err = strconv.Atoi(v); err != nil || c.Workers < 1 {
			return c, fmt.Errorf("%s: want a positive integer", EnvWorkers)
		}
	}
	if v := os.Getenv(EnvRescueAfter); v != "" {
		if c.RescueAfter, err = time.ParseDuration(v); err != nil || c.RescueAfter < 15*time.Second {
			return c, fmt.Errorf("%s: want a duration of at least 15s", EnvRescueAfter)
		}
	}
	if v := os.Getenv(EnvRetryDelays); v != "" {
		if c.Schedule, err = ParseDelays(v); err != nil {
			return c, fmt.Errorf("%s: %w", EnvRetryDelays, err)
		}
	}
	return c, nil
}

// SenderOptions returns the sender's options of the environment, ignoring malformed values
// (FromEnv, run at start, reports those): what subscription URLs are checked against.
func SenderOptions() deliver.Options {
	c, _ := FromEnv()
	return c.Sender
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

func envBool(key string) (bool, error) {
	v := os.Getenv(key)
	if v == "" {
		return false, nil
	}
	b, err := strconv.ParseBool(v)
	if err != nil {
		return false, fmt.Errorf("%s: want true or false", key)
	}
	return b, nil
}
