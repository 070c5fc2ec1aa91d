package jobs

import (
	"context"
	"fmt"
	"log/slog"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/riverqueue/river"
	"github.com/riverqueue/river/riverdriver/riverpgxv5"
	"github.com/riverqueue/river/rivermigrate"

	"github.com/venueplatform/venue/internal/system"
	"github.com/venueplatform/venue/internal/webhooks/dispatch"
)

// Client is the River client of this service, over pgx transactions.
type Client = river.Client[pgx.Tx]

const (
	// DefaultWebhookWorkers is the concurrency of the webhooks queue on one instance.
	DefaultWebhookWorkers = 20
	// DefaultRescueAfter is Config.RescueAfter's default.
	DefaultRescueAfter = 2 * time.Minute
	// defaultWorkers is the concurrency of River's default queue, for other work.
	defaultWorkers = 10
	// migrateLockKey is the advisory lock that serialises Migrate across instances
	// (the bytes of "rivermig").
	migrateLockKey int64 = 0x7269766572_6d6967
)

// Config configures NewClient.
type Config struct {
	// Webhooks configures the delivery worker; its Store and Sender are required.
	Webhooks dispatch.Config
	// WebhookWorkers is the concurrency of the webhooks queue; zero means
	// DefaultWebhookWorkers.
	WebhookWorkers int
	// Logger receives River's logs; nil means slog.Default.
	Logger *slog.Logger
	// FetchPollInterval and FetchCooldown tune how soon River notices available jobs
	// (River's defaults when zero); tests shorten them.
	FetchPollInterval time.Duration
	FetchCooldown     time.Duration
	// RescueAfter is how long a job may stay running before it is taken as abandoned (its
	// instance crashed) and run again; zero means DefaultRescueAfter. River's own default is
	// an hour, which would hold a crashed instance's deliveries that long. Jobs of every kind
	// must finish within it; River's default job timeout is lowered to it when longer.
	RescueAfter time.Duration
	// Register adds further workers (notifications, renewals) before the client is built.
	Register func(*river.Workers) error
}

// Migrate applies River's migrations that are not applied yet to the database of pool, each
// in its own transaction (some add enum values, which PostgreSQL does not let a transaction
// use), under a session advisory lock, so that instances starting together apply them once.
// It returns the versions applied.
func Migrate(ctx context.Context, pool *pgxpool.Pool) (applied []int, err error) {
	migrator, err := rivermigrate.New(riverpgxv5.New(pool), nil)
	if err != nil {
		return nil, fmt.Errorf("river migrator: %w", err)
	}
	// The advisory lock serializes the migrations of instances starting together.
	ctx = system.RawSQL(ctx, "jobs.migrate_lock")
	conn, err := pool.Acquire(ctx)
	if err != nil {
		return nil, fmt.Errorf("river migrate: %w", err)
	}
	defer conn.Release()
	if _, err := conn.Exec(ctx, "SELECT pg_advisory_lock($1)", migrateLockKey); err != nil {
		return nil, fmt.Errorf("river migrate: lock: %w", err)
	}
	defer func() {
		// A fresh context: the lock must go even when ctx is done.
		uctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 10*time.Second)
		defer cancel()
		if _, uerr := conn.Exec(uctx, "SELECT pg_advisory_unlock($1)", migrateLockKey); uerr != nil {
			_ = conn.Conn().Close(uctx) // a closed session drops its locks
			if err == nil {
				err = fmt.Errorf("river migrate: unlock: %w", uerr)
			}
		}
	}()
	res, err := migrator.Migrate(ctx, rivermigrate.DirectionUp, nil)
	if err != nil {
		return nil, fmt.Errorf("river migrate: %w", err)
	}
	for _, v := range res.Versions {
		applied = append(applied, v.Version)
	}
	return applied, nil
}

// NewClient returns a River client over pool with the webhook delivery worker registered on
// the dispatch.Queue queue and River's default queue for other work. Call Start on it to work
// jobs, Stop to end; inserting needs neither.
func NewClient(pool *pgxpool.Pool, cfg Config) (*Client, error) {
	workers := river.NewWorkers()
	w, err := dispatch.NewWorker(cfg.Webhooks)
	if err != nil {
		return nil, err
	}
	if err := river.AddWorkerSafely(workers, w); err != nil {
		return nil, fmt.Errorf("register webhook worker: %w", err)
	}
	if cfg.Register != nil {
		if err := cfg.Register(workers); err != nil {
			return nil, fmt.Errorf("register workers: %w", err)
		}
	}
	if cfg.WebhookWorkers <= 0 {
		cfg.WebhookWorkers = DefaultWebhookWorkers
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.Default()
	}
	if cfg.RescueAfter <= 0 {
		cfg.RescueAfter = DefaultRescueAfter
	}
	client, err := river.NewClient(riverpgxv5.New(pool), &river.Config{
		Logger:            cfg.Logger,
		FetchPollInterval: cfg.FetchPollInterval,
		FetchCooldown:     cfg.FetchCooldown,
		// River's default job timeout is a minute; it may not exceed the rescue delay.
		JobTimeout:           min(time.Minute, cfg.RescueAfter),
		RescueStuckJobsAfter: cfg.RescueAfter,
		Queues: map[string]river.QueueConfig{
			river.QueueDefault: {MaxWorkers: defaultWorkers},
			dispatch.Queue:     {MaxWorkers: cfg.WebhookWorkers},
		},
		Workers: workers,
	})
	if err != nil {
		return nil, fmt.Errorf("river client: %w", err)
	}
	return client, nil
}
