package notify

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/riverqueue/river"
	"github.com/riverqueue/river/riverdriver/riverpgxv5"

	"github.com/venueplatform/venue/internal/system"
)

const (
	// Kind is the River job kind of DeliverArgs.
	Kind = "notification_delivery"
	// MaxAttempts is how many times a delivery is tried before it ends as failed (River's
	// backoff spaces them over several hours).
	MaxAttempts = 10
)

// DeliverArgs are the arguments of a delivery job: only the row's id, so addresses and
// message text stay in the outbox table.
type DeliverArgs struct {
	DeliveryID uuid.UUID `json:"delivery_id"`
}

// Kind implements river.JobArgs.
func (DeliverArgs) Kind() string { return Kind }

// InsertOpts implements river.JobArgsWithInsertOpts: River's default queue.
func (DeliverArgs) InsertOpts() river.InsertOpts {
	return river.InsertOpts{Queue: river.QueueDefault, MaxAttempts: MaxAttempts}
}

// Worker is the River worker of DeliverArgs. It reads and updates the outbox row by id with
// plain SQL: the row carries everything sending needs, and no venue rule is involved in
// sending a message the venue's own request already wrote.
type Worker struct {
	river.WorkerDefaults[DeliverArgs]
	pool     *pgxpool.Pool
	adapters Adapters
	log      *slog.Logger
	now      func() time.Time
}

// NewWorker returns the delivery worker over pool with the channel adapters.
func NewWorker(pool *pgxpool.Pool, adapters Adapters, log *slog.Logger) *Worker {
	if log == nil {
		log = slog.Default()
	}
	return &Worker{pool: pool, adapters: adapters, log: log, now: time.Now}
}

// Register returns a jobs.Config.Register function that adds the delivery worker.
func Register(pool *pgxpool.Pool, adapters Adapters, log *slog.Logger) func(*river.Workers) error {
	return func(ws *river.Workers) error {
		return river.AddWorkerSafely(ws, NewWorker(pool, adapters, log))
	}
}

// Timeout implements river.Worker: one send is bounded.
func (w *Worker) Timeout(*river.Job[DeliverArgs]) time.Duration { return 2 * time.Minute }

// Work sends one delivery and records the outcome.
func (w *Worker) Work(ctx context.Context, job *river.Job[DeliverArgs]) error {
	ctx = system.RawSQL(ctx, "notify.deliver")
	id := job.Args.DeliveryID
	var (
		m      = Outgoing{DeliveryID: id}
		status string
		data   []byte
		org    uuid.UUID
	)
	err := w.pool.QueryRow(ctx, `UPDATE notification_deliveries SET attempts = attempts + 1, updated_at = now()
		WHERE id = $1 AND status = 'pending'
		RETURNING channel, address, kind, subject, body, data, status, organization_id`, id).
		Scan(&m.Channel, &m.To, &m.Kind, &m.Subject, &m.Body, &data, &status, &org)
	if errors.Is(err, pgx.ErrNoRows) {
		return nil // unknown, or already sent, failed or skipped: nothing to do
	}
	if err != nil {
		return fmt.Errorf("load notification: %w", err)
	}
	if len(data) > 0 {
		_ = json.Unmarshal(data, &m.Data)
	}
	if m.Channel == Email {
		if m.Attachments, err = w.attachments(ctx, id); err != nil {
			return err
		}
	}
	sender, err := w.adapters.For(m.Channel)
	if err == nil {
		var providerID string
		providerID, err = sender.Send(ctx, m)
		if err == nil {
			return w.record(ctx, id, `UPDATE notification_deliveries SET status = 'sent', sent_at = $2,
				provider_message_id = $3, last_error = NULL, updated_at = now() WHERE id = $1 AND status = 'pending'`,
				w.now(), truncate(providerID, 200))
		}
	}
	msg := truncate(err.Error(), 500)
	if errors.Is(err, ErrPermanent) || job.Attempt >= job.MaxAttempts {
		reason := "rejected"
		if !errors.Is(err, ErrPermanent) {
			reason = "retries_exhausted"
		}
		w.log.WarnContext(ctx, "notification failed", "delivery_id", id.String(), "channel", string(m.Channel), "reason", reason)
		if rerr := w.record(ctx, id, `UPDATE notification_deliveries SET status = 'failed', status_reason = $2,
			last_error = $3, updated_at = now() WHERE id = $1 AND status = 'pending'`, reason, msg); rerr != nil {
			return rerr
		}
		if m.Channel == Push && errors.Is(err, ErrPermanent) {
			// The provider rejected the device token: later messages skip the device.
			if _, derr := w.pool.Exec(ctx, `UPDATE push_devices SET disabled_at = now(), updated_at = now()
				WHERE organization_id = $1 AND token = $2 AND disabled_at IS NULL`, org, m.To); derr != nil {
				return fmt.Errorf("disable push device: %w", derr)
			}
		}
		return river.JobCancel(fmt.Errorf("notification %s: %s", id, reason))
	}
	if rerr := w.record(ctx, id, `UPDATE notification_deliveries SET last_error = $2, updated_at = now()
		WHERE id = $1`, msg); rerr != nil {
		return rerr
	}
	return fmt.Errorf("notification %s: attempt %d failed", id, job.Attempt)
}

// attachments reads the files of delivery id, in the order they were written.
func (w *Worker) attachments(ctx context.Context, id uuid.UUID) ([]Attachment, error) {
	ctx = system.RawSQL(ctx, "notify.deliver")
	rows, err := w.pool.Query(ctx, `SELECT filename, content_type, data FROM notification_attachments
		WHERE delivery_id = $1 ORDER BY created_at, id`, id)
	if err != nil {
		return nil, fmt.Errorf("load notification attachments: %w", err)
	}
	out, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (Attachment, error) {
		var a Attachment
		err := r.Scan(&a.Filename, &a.ContentType, &a.Data)
		return a, err
	})
	if err != nil {
		return nil, fmt.Errorf("load notification attachments: %w", err)
	}
	return out, nil
}

func (w *Worker) record(ctx context.Context, id uuid.UUID, sql string, args ...any) error {
	if _, err := w.pool.Exec(system.RawSQL(ctx, "notify.deliver"), sql, append([]any{id}, args...)...); err != nil {
		return fmt.Errorf("record notification outcome: %w", err)
	}
	return nil
}

// Relay hands committed pending deliveries to River: it selects rows not yet dispatched
// (FOR UPDATE SKIP LOCKED, so several instances share the work), inserts one job per row and
// marks them dispatched, in one transaction. A crash before commit leaves the rows for the
// next pass; after commit the jobs exist.
type Relay struct {
	Pool *pgxpool.Pool
	// River inserts the jobs; nil means an insert-only client (no pool, no workers): the
	// jobs are worked by whichever instances run the workers.
	River *river.Client[pgx.Tx]
	// Interval between passes when the last one found nothing; zero means a second.
	Interval time.Duration
	// Batch is the most rows one pass takes; zero means 200.
	Batch int
	Log   *slog.Logger
}

// inserter is the insert-only River client of relays built without one.
var inserter = sync.OnceValues(func() (*river.Client[pgx.Tx], error) {
	return river.NewClient(riverpgxv5.New(nil), &river.Config{})
})

// Once makes one pass and returns how many deliveries it queued.
func (r *Relay) Once(ctx context.Context) (int, error) {
	batch := r.Batch
	if batch <= 0 {
		batch = 200
	}
	ctx = system.RawSQL(ctx, "notify.relay")
	tx, err := r.Pool.Begin(ctx)
	if err != nil {
		return 0, fmt.Errorf("relay: begin: %w", err)
	}
	defer func() { _ = tx.Rollback(ctx) }()
	rows, err := tx.Query(ctx, `SELECT id FROM notification_deliveries
		WHERE status = 'pending' AND dispatched_at IS NULL
		ORDER BY created_at LIMIT $1 FOR UPDATE SKIP LOCKED`, batch)
	if err != nil {
		return 0, fmt.Errorf("relay: select: %w", err)
	}
	ids, err := pgx.CollectRows(rows, pgx.RowTo[uuid.UUID])
	if err != nil {
		return 0, fmt.Errorf("relay: select: %w", err)
	}
	if len(ids) == 0 {
		return 0, nil
	}
	params := make([]river.InsertManyParams, len(ids))
	for i, id := range ids {
		params[i] = river.InsertManyParams{Args: DeliverArgs{DeliveryID: id}}
	}
	rc := r.River
	if rc == nil {
		if rc, err = inserter(); err != nil {
			return 0, fmt.Errorf("relay: river inserter: %w", err)
		}
	}
	if _, err := rc.InsertManyTx(ctx, tx, params); err != nil {
		return 0, fmt.Errorf("relay: insert jobs: %w", err)
	}
	if _, err := tx.Exec(ctx, `UPDATE notification_deliveries SET dispatched_at = now() WHERE id = ANY($1)`, ids); err != nil {
		return 0, fmt.Errorf("relay: mark dispatched: %w", err)
	}
	if err := tx.Commit(ctx); err != nil {
		return 0, fmt.Errorf("relay: commit: %w", err)
	}
	return len(ids), nil
}

// Run makes passes until ctx is done: at once again after a full batch, else after Interval.
func (r *Relay) Run(ctx context.Context) {
	interval := r.Interval
	if interval <= 0 {
		interval = time.Second
	}
	log := r.Log
	if log == nil {
		log = slog.Default()
	}
	for {
		n, err := r.Once(ctx)
		if err != nil && ctx.Err() == nil {
			log.ErrorContext(ctx, "notification relay", "error", err)
		}
		wait := interval
		if err == nil && n > 0 {
			wait = 0
		}
		select {
		case <-ctx.Done():
			return
		case <-time.After(wait):
		}
	}
}
