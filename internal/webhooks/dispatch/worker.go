package dispatch

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"sync"
	"time"

	"github.com/google/uuid"
	"github.com/riverqueue/river"

	"github.com/venueplatform/venue/internal/webhooks/deliver"
	"github.com/venueplatform/venue/internal/webhooks/retry"
	"github.com/venueplatform/venue/internal/webhooks/signature"
)

const (
	// Queue is the River queue of webhook deliveries, apart from other work so that a slow
	// receiver cannot hold up notifications or renewals.
	Queue = "webhooks"
	// Kind is the River job kind of DeliverArgs.
	Kind = "webhook_delivery"
	// MaxRetryAfter caps how far a receiver's Retry-After may push the next attempt.
	MaxRetryAfter = time.Hour
	// disableReason is kept on a subscription disabled by its receiver.
	disableReason = "receiver answered 410 Gone"
)

// DeliverArgs are the arguments of a delivery job: only the delivery's id, since secrets must
// not sit in the job table.
type DeliverArgs struct {
	DeliveryID uuid.UUID `json:"delivery_id"`
}

// Kind implements river.JobArgs.
func (DeliverArgs) Kind() string { return Kind }

// InsertOpts implements river.JobArgsWithInsertOpts: the webhooks queue, and as many
// attempts as the default schedule makes.
func (DeliverArgs) InsertOpts() river.InsertOpts {
	return river.InsertOpts{Queue: Queue, MaxAttempts: retry.Default.MaxAttempts()}
}

// Config configures a Worker.
type Config struct {
	// Store loads deliveries and records attempts; required.
	Store Store
	// Sender makes the HTTP attempts; required.
	Sender *deliver.Sender
	// Schedule spaces the attempts; the zero value means retry.Default. A schedule with more
	// attempts than retry.Default needs MaxAttempts raised at insertion too.
	Schedule retry.Schedule
	// Now is the clock of signature timestamps and of Attempt.StartedAt for failures before
	// sending and NextAttemptAt; nil means time.Now. River schedules on the real clock.
	Now func() time.Time
	// JobTimeout bounds one run of a job; zero means a minute.
	JobTimeout time.Duration
}

// Worker is the River worker of DeliverArgs.
type Worker struct {
	river.WorkerDefaults[DeliverArgs]
	cfg Config

	// next holds the delay Work chose for a job run, for NextRetry, which River calls right
	// after Work returns an error.
	mu   sync.Mutex
	next map[runKey]time.Duration
}

type runKey struct {
	jobID   int64
	attempt int
}

// NewWorker returns a Worker.
func NewWorker(cfg Config) (*Worker, error) {
	if cfg.Store == nil || cfg.Sender == nil {
		return nil, errors.New("dispatch: Store and Sender are required")
	}
	if len(cfg.Schedule.Delays) == 0 && cfg.Schedule.Repeat == 0 {
		cfg.Schedule = retry.Default
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.JobTimeout <= 0 {
		cfg.JobTimeout = time.Minute
	}
	return &Worker{cfg: cfg, next: map[runKey]time.Duration{}}, nil
}

// AttemptError is the error of a failed attempt, as River keeps it in the job's errors. It
// carries no URL, secret or payload.
type AttemptError struct {
	Number int
	Class  deliver.Class
	Status int
}

// Error implements error.
func (e *AttemptError) Error() string {
	if e.Status != 0 {
		return fmt.Sprintf("webhook attempt %d: %s %d", e.Number, e.Class, e.Status)
	}
	return fmt.Sprintf("webhook attempt %d: %s", e.Number, e.Class)
}

// Work makes one attempt of a delivery.
func (w *Worker) Work(ctx context.Context, job *river.Job[DeliverArgs]) error {
	id := job.Args.DeliveryID
	d, err := w.cfg.Store.Load(ctx, id)
	switch {
	case errors.Is(err, ErrNotFound):
		return river.JobCancel(err)
	case err != nil:
		return fmt.Errorf("load delivery: %w", err)
	case d.Delivered:
		return nil // a duplicate run: River delivers jobs at least once
	case d.SubscriptionDisabled:
		return river.JobCancel(ErrSubscriptionDisabled)
	}

	rec := Attempt{Number: job.Attempt}
	header, err := signature.Headers(d.MessageID, w.cfg.Now(), d.Body, d.Secrets...)
	if err != nil {
		rec.Result = deliver.Attempt{StartedAt: w.cfg.Now(), Error: "signing failed: invalid secret"}
		rec.Outcome = OutcomeFailed
		return river.JobCancel(errors.Join(fmt.Errorf("sign: %w", err), w.record(ctx, id, rec)))
	}
	rec.Result = w.cfg.Sender.Send(ctx, deliver.Request{URL: d.URL, Header: header, Body: d.Body})
	failure := &AttemptError{Number: rec.Number, Class: rec.Result.Class, Status: rec.Result.Status}

	switch class := rec.Result.Class; {
	case class == deliver.ClassDelivered:
		rec.Outcome = OutcomeDelivered
		return w.record(ctx, id, rec)
	case class == deliver.ClassGone:
		rec.Outcome = OutcomeDisabled
		if err := w.record(ctx, id, rec); err != nil {
			return err
		}
		if err := w.cfg.Store.Disable(ctx, d.SubscriptionID, disableReason); err != nil {
			return fmt.Errorf("disable subscription: %w", err)
		}
		return river.JobCancel(failure)
	case !class.Retry():
		rec.Outcome = OutcomeFailed
		return river.JobCancel(errors.Join(failure, w.record(ctx, id, rec)))
	}

	delay, ok := w.cfg.Schedule.Next(job.Attempt, jitter(job))
	if !ok || job.Attempt >= job.MaxAttempts {
		rec.Outcome = OutcomeFailed
		return river.JobCancel(errors.Join(failure, w.record(ctx, id, rec)))
	}
	if ra := min(rec.Result.RetryAfter, MaxRetryAfter); ra > delay {
		delay = ra
	}
	rec.Outcome = OutcomeRetrying
	rec.NextAttemptAt = w.cfg.Now().Add(delay)
	w.mu.Lock()
	w.next[runKey{job.ID, job.Attempt}] = delay
	w.mu.Unlock()
	return errors.Join(failure, w.record(ctx, id, rec))
}

// NextRetry implements river.Worker: the delay Work chose, or, when Work did not get that far
// (the store failed), the schedule's, from now. It uses the real clock, as River does (River
// replaces a time already past with its own policy), not Config.Now.
func (w *Worker) NextRetry(job *river.Job[DeliverArgs]) time.Time {
	key := runKey{job.ID, job.Attempt}
	w.mu.Lock()
	delay, ok := w.next[key]
	delete(w.next, key)
	w.mu.Unlock()
	if !ok {
		if delay, ok = w.cfg.Schedule.Next(job.Attempt, jitter(job)); !ok {
			return time.Time{} // River's default; the job has no attempts left anyway
		}
	}
	return time.Now().Add(delay)
}

// Timeout implements river.Worker.
func (w *Worker) Timeout(*river.Job[DeliverArgs]) time.Duration { return w.cfg.JobTimeout }

// record saves an attempt, wrapping a failure.
func (w *Worker) record(ctx context.Context, id uuid.UUID, a Attempt) error {
	if err := w.cfg.Store.RecordAttempt(ctx, id, a); err != nil {
		return fmt.Errorf("record attempt: %w", err)
	}
	return nil
}

// jitter is a random source fixed by the job run, so that the delay Work records and the one
// NextRetry would compute agree.
func jitter(job *river.Job[DeliverArgs]) retry.Rand {
	return rand.New(rand.NewPCG(uint64(job.ID), uint64(job.Attempt)))
}
