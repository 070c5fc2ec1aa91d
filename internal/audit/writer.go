package audit

import (
	"context"
	"fmt"
	"log/slog"
	"sync"
	"time"

	"github.com/venueplatform/venue/ent"
	"github.com/venueplatform/venue/internal/system"
)

// Defaults of WriterOptions.
const (
	DefaultQueue    = 4096
	DefaultMaxBatch = 256
	DefaultInterval = 10 * time.Millisecond
)

// writeTimeout bounds one batch statement, so a database that hangs cannot
// hold the writer (and a shutdown waiting on it) forever.
const writeTimeout = 30 * time.Second

// WriterOptions tune a Writer; zero values take the defaults.
type WriterOptions struct {
	// Queue is how many entries may wait to be written. When it is full,
	// Record waits for room (backpressure on the caller) rather than drop.
	Queue int
	// MaxBatch is the most entries one INSERT carries.
	MaxBatch int
	// Interval is how long the first entry of a batch waits for others to
	// join it: the longest an entry stays queued under light load.
	Interval time.Duration
	// Log receives entries that could not be written.
	Log *slog.Logger
}

// Writer records entries in batches for callers whose entry need not commit
// with a change of their own (a read-only MCP tools/call): Record checks an
// entry and queues it, and one goroutine writes the queue in multi-row
// INSERTs, so a busy endpoint pays one statement per batch instead of one per
// call. No entry is dropped: a full queue makes Record wait, a caller that
// gives up while waiting writes its entry itself, Flush and Close write what
// is queued, and a Record after Close writes at once. An entry whose batch
// fails is retried alone, and only an entry that fails alone is logged and
// lost, as a failed Record is today.
//
// Entries that must commit or roll back with a change are written with
// Record on the change's transaction instead.
type Writer struct {
	client   *ent.Client
	log      *slog.Logger
	maxBatch int
	interval time.Duration

	mu     sync.RWMutex // held for reading while sending on queue; Close takes it to close queue
	closed bool
	queue  chan row
	flush  chan chan struct{}
	done   chan struct{}
}

// NewWriter starts a writer over client; Close stops it.
func NewWriter(client *ent.Client, opts WriterOptions) *Writer {
	if opts.Queue <= 0 {
		opts.Queue = DefaultQueue
	}
	if opts.MaxBatch <= 0 {
		opts.MaxBatch = DefaultMaxBatch
	}
	if opts.Interval <= 0 {
		opts.Interval = DefaultInterval
	}
	if opts.Log == nil {
		opts.Log = slog.New(slog.DiscardHandler)
	}
	w := &Writer{
		client:   client,
		log:      opts.Log,
		maxBatch: opts.MaxBatch,
		interval: opts.Interval,
		queue:    make(chan row, opts.Queue),
		flush:    make(chan chan struct{}),
		done:     make(chan struct{}),
	}
	go w.run()
	return w
}

// Record checks e against the viewer of ctx as Record does (a venue viewer
// is required; actor and key come from it) and queues it, stamped with the
// time of the call. Errors are those of the check; a write that fails later
// is logged.
func (w *Writer) Record(ctx context.Context, e Entry) error {
	r, err := newRow(ctx, e)
	if err != nil {
		return err
	}
	w.mu.RLock()
	if w.closed {
		w.mu.RUnlock()
		return w.writeOne(ctx, r)
	}
	select {
	case w.queue <- r:
		w.mu.RUnlock()
		return nil
	default:
	}
	// The queue is full: wait for room, the backpressure that keeps a burst
	// from outrunning the database; a caller that gives up writes its own.
	select {
	case w.queue <- r:
		w.mu.RUnlock()
		return nil
	case <-ctx.Done():
	}
	w.mu.RUnlock()
	return w.writeOne(context.WithoutCancel(ctx), r)
}

// Flush returns once every entry queued before the call is written (or its
// failure logged).
func (w *Writer) Flush(ctx context.Context) error {
	ack := make(chan struct{})
	select {
	case w.flush <- ack:
	case <-w.done:
		return nil
	case <-ctx.Done():
		return fmt.Errorf("audit: flush: %w", ctx.Err())
	}
	select {
	case <-ack:
		return nil
	case <-w.done:
		return nil
	case <-ctx.Done():
		return fmt.Errorf("audit: flush: %w", ctx.Err())
	}
}

// Close stops queueing and returns once every queued entry is written, or
// with an error when ctx ends first (the writing goes on in the
// background). Later Records write at once. Close is safe to call twice.
func (w *Writer) Close(ctx context.Context) error {
	w.mu.Lock()
	if !w.closed {
		w.closed = true
		close(w.queue)
	}
	w.mu.Unlock()
	select {
	case <-w.done:
		return nil
	case <-ctx.Done():
		return fmt.Errorf("audit: %d entries unwritten at close: %w", len(w.queue), ctx.Err())
	}
}

// run is the writing goroutine: it takes the first queued entry, lets others
// join it for up to the interval (or until the batch is full or a flush is
// asked for), and writes them in one statement.
func (w *Writer) run() {
	defer close(w.done)
	batch := make([]row, 0, w.maxBatch)
	timer := time.NewTimer(time.Hour)
	timer.Stop()
	for {
		select {
		case r, ok := <-w.queue:
			if !ok {
				return // closed and drained
			}
			batch = append(batch[:0], r)
			timer.Reset(w.interval)
			var ack chan struct{}
			open := true
		fill:
			for len(batch) < w.maxBatch {
				select {
				case r, ok := <-w.queue:
					if !ok {
						open = false
						break fill
					}
					batch = append(batch, r)
				case <-timer.C:
					break fill
				case ack = <-w.flush:
					break fill
				}
			}
			timer.Stop()
			w.write(batch)
			if ack != nil {
				w.drain(batch)
				close(ack)
			}
			if !open {
				return
			}
		case ack := <-w.flush:
			w.drain(batch)
			close(ack)
		}
	}
}

// drain writes everything the queue holds now, in batches.
func (w *Writer) drain(batch []row) {
	for {
		batch = batch[:0]
	take:
		for len(batch) < w.maxBatch {
			select {
			case r, ok := <-w.queue:
				if !ok {
					break take
				}
				batch = append(batch, r)
			default:
				break take
			}
		}
		if len(batch) == 0 {
			return
		}
		w.write(batch)
	}
}

// write inserts rows in one statement; when that fails, each row alone, so
// one bad entry costs no other.
func (w *Writer) write(rows []row) {
	if len(rows) == 0 {
		return
	}
	ctx, cancel := context.WithTimeout(w.systemContext(), writeTimeout)
	defer cancel()
	creates := make([]*ent.AuditLogCreate, len(rows))
	for i, r := range rows {
		creates[i] = r.create(w.client)
	}
	err := w.client.AuditLog.CreateBulk(creates...).Exec(ctx)
	if err == nil {
		return
	}
	if len(rows) == 1 {
		w.logFailure(rows[0], err)
		return
	}
	for _, r := range rows {
		if err := r.create(w.client).Exec(ctx); err != nil {
			w.logFailure(r, err)
		}
	}
}

// writeOne inserts one row at once, for a closed writer or a caller that
// gave up waiting for room in the queue.
func (w *Writer) writeOne(ctx context.Context, r row) error {
	ctx, cancel := context.WithTimeout(ctx, writeTimeout)
	defer cancel()
	if err := r.create(w.client).Exec(system.Allow(ctx, "audit.record")); err != nil {
		return fmt.Errorf("audit: record %s: %w", r.Action, err)
	}
	return nil
}

// systemContext is the context of batch writes: the system call site
// "audit.record" without a viewer, since one batch holds the entries of
// many venues; each row carries the venue newRow took from its caller's
// viewer, and the create hook accepts an explicit venue only at a system
// call site.
func (w *Writer) systemContext() context.Context {
	return system.Allow(context.Background(), "audit.record")
}

func (w *Writer) logFailure(r row, err error) {
	w.log.Error("audit: entry not written", "action", r.Action, "target", r.Target,
		"organization_id", r.org, "error", err)
}
