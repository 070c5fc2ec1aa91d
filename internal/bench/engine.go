package bench

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"slices"
	"sync"
	"sync/atomic"
	"time"
)

// maxErrorSamples is how many distinct error texts a step keeps.
const maxErrorSamples = 5

// Step is one operation driven at one concurrency level.
type Step struct {
	// Op and Set name the operation and the data set, for the report.
	Op, Set string
	// Round of Rounds is the slice of the step this is, for progress.
	Round, Rounds int
	// Concurrency is the number of closed-loop workers: each sends a request,
	// waits for the whole answer, then sends the next.
	Concurrency int
	// Warmup runs the workers unmeasured first (connections, statement
	// caches, the scheduler); Duration is the measured window.
	Warmup, Duration time.Duration
	// MaxRequests ends the measured window early after that many requests;
	// zero means no cap.
	MaxRequests int64
	// Client sends the requests.
	Client *http.Client
	// Request returns request n of the step. n counts from FirstRequest
	// over the whole step (warmup included) and is shared by the workers, so
	// the mix of requests is the same at every concurrency.
	Request func(ctx context.Context, n uint64) (*http.Request, error)
	// FirstRequest is the first n; the rounds of a step start apart, so a
	// later round does not repeat an earlier one's requests.
	FirstRequest uint64
	// Check, when set, validates a 2xx answer's body; a non-nil error counts
	// as a failed request. Without it, any 2xx is a success.
	Check func(body []byte) error
}

// Result is what a Step measured.
type Result struct {
	Op          string
	Set         string
	Concurrency int
	// Requests counts the measured requests, failures included.
	Requests int64
	Errors   int64
	// Bytes sums the measured answers' body sizes.
	Bytes int64
	// Elapsed is the measured window.
	Elapsed time.Duration
	// Latency holds the latency of every measured request, failures included.
	Latency *Histogram
	// ErrorSamples are the first distinct failure texts.
	ErrorSamples []string
	// Completed counts every answered request of the step, warmup and
	// uncounted ones included: the work the CPU times below paid for.
	Completed int64
	// CPU is the CPU time this process used during the step, DBCPU that of
	// the managed PostgreSQL (negative when unknown); the caller fills them.
	CPU, DBCPU time.Duration
}

// CPUPerRequest returns this process's and the database's CPU time per
// completed request (the latter negative when unknown).
func (r *Result) CPUPerRequest() (self, db time.Duration) {
	if r.Completed == 0 {
		return 0, -1
	}
	db = -1
	if r.DBCPU >= 0 {
		db = r.DBCPU / time.Duration(r.Completed)
	}
	return r.CPU / time.Duration(r.Completed), db
}

// Throughput returns successful requests per second.
func (r *Result) Throughput() float64 {
	if r.Elapsed <= 0 {
		return 0
	}
	return float64(r.Requests-r.Errors) / r.Elapsed.Seconds()
}

// Merge adds the measurements of o, another slice of the same step.
func (r *Result) Merge(o *Result) {
	r.Requests += o.Requests
	r.Errors += o.Errors
	r.Bytes += o.Bytes
	r.Elapsed += o.Elapsed
	r.Completed += o.Completed
	r.CPU += o.CPU
	if r.DBCPU < 0 || o.DBCPU < 0 {
		r.DBCPU = -1
	} else {
		r.DBCPU += o.DBCPU
	}
	if r.Latency == nil {
		r.Latency = &Histogram{}
	}
	r.Latency.Merge(o.Latency)
	for _, s := range o.ErrorSamples {
		if len(r.ErrorSamples) < maxErrorSamples && !slices.Contains(r.ErrorSamples, s) {
			r.ErrorSamples = append(r.ErrorSamples, s)
		}
	}
}

// Progress is a live view of a running step.
type Progress struct {
	Step *Step
	// Measuring is false during the warmup.
	Measuring bool
	// Elapsed counts from the start of the current phase.
	Elapsed  time.Duration
	Requests int64
	Errors   int64
	P50, P99 time.Duration
}

// worker holds one worker's measurements; the progress reader locks mu.
type worker struct {
	mu    sync.Mutex
	hist  Histogram
	reqs  int64
	errs  int64
	bytes int64
}

// run is the shared state of one running step.
type run struct {
	s         *Step
	seq       atomic.Uint64
	measuring atomic.Bool
	issued    atomic.Int64 // measured requests started, for MaxRequests
	start     time.Time    // start of the measured window
	end       time.Time    // end of the measured window (time-bounded steps)
	capped    chan struct{}
	capOnce   sync.Once
	lastDone  atomic.Int64 // unix nanos of the last measured completion
	completed atomic.Int64
	samplesMu sync.Mutex
	samples   []string
}

// Run drives s and returns its measurements. It stops by itself after the
// warmup and the measured window (or MaxRequests); requests still in flight
// at the end finish but are not counted. Cancelling ctx stops the step early
// and returns what was measured with ctx's error.
func Run(ctx context.Context, s *Step, progress func(Progress)) (*Result, error) {
	if s.Concurrency < 1 {
		return nil, errors.New("bench: concurrency must be at least 1")
	}
	if s.Duration <= 0 && s.MaxRequests <= 0 {
		return nil, errors.New("bench: a step needs a duration or a request cap")
	}
	r := &run{s: s, capped: make(chan struct{})}
	r.seq.Store(s.FirstRequest)
	workers := make([]*worker, s.Concurrency)
	for i := range workers {
		workers[i] = &worker{}
	}
	stop := make(chan struct{})
	var wg sync.WaitGroup
	for _, w := range workers {
		wg.Go(func() { r.loop(ctx, w, stop) })
	}

	phaseStart := time.Now()
	report := func(measuring bool) {
		if progress == nil {
			return
		}
		p := Progress{Step: s, Measuring: measuring, Elapsed: time.Since(phaseStart)}
		var h Histogram
		for _, w := range workers {
			w.mu.Lock()
			h.Merge(&w.hist)
			p.Requests += w.reqs
			p.Errors += w.errs
			w.mu.Unlock()
		}
		p.P50, p.P99 = h.Quantile(0.50), h.Quantile(0.99)
		progress(p)
	}
	ticker := time.NewTicker(250 * time.Millisecond)
	defer ticker.Stop()
	wait := func(d time.Duration, measuring bool) bool {
		var deadline <-chan time.Time
		if d > 0 {
			t := time.NewTimer(d)
			defer t.Stop()
			deadline = t.C
		}
		for {
			select {
			case <-ctx.Done():
				return false
			case <-deadline:
				return true
			case <-r.capped:
				return true
			case <-ticker.C:
				report(measuring)
			}
		}
	}

	ok := true
	if s.Warmup > 0 {
		ok = wait(s.Warmup, false)
	}
	if ok {
		r.start = time.Now()
		r.end = r.start.Add(s.Duration)
		if s.Duration <= 0 {
			r.end = time.Time{}
		}
		phaseStart = r.start
		r.measuring.Store(true)
		ok = wait(s.Duration, true)
	}
	stopAt := time.Now()
	close(stop)
	wg.Wait()

	res := &Result{Op: s.Op, Set: s.Set, Concurrency: s.Concurrency, Latency: &Histogram{}}
	for _, w := range workers {
		res.Latency.Merge(&w.hist)
		res.Requests += w.reqs
		res.Errors += w.errs
		res.Bytes += w.bytes
	}
	switch {
	case r.start.IsZero():
	case s.MaxRequests > 0:
		if last := r.lastDone.Load(); last > 0 {
			res.Elapsed = time.Unix(0, last).Sub(r.start)
		}
	case ok:
		res.Elapsed = s.Duration
	default:
		res.Elapsed = stopAt.Sub(r.start)
	}
	res.ErrorSamples = r.samples
	res.Completed = r.completed.Load()
	if !ok {
		return res, ctx.Err()
	}
	return res, nil
}

// loop is one closed-loop worker.
func (r *run) loop(ctx context.Context, w *worker, stop <-chan struct{}) {
	var body bytes.Buffer
	for {
		select {
		case <-stop:
			return
		case <-ctx.Done():
			return
		default:
		}
		measured := r.measuring.Load()
		if measured && r.s.MaxRequests > 0 {
			if r.issued.Add(1) > r.s.MaxRequests {
				r.capOnce.Do(func() { close(r.capped) })
				<-stop
				return
			}
		}
		n := r.seq.Add(1) - 1
		start := time.Now()
		body.Reset()
		err := r.do(ctx, n, &body)
		done := time.Now()
		if ctx.Err() != nil {
			return // cancelled, not a failure of the server
		}
		r.completed.Add(1)
		if !measured || (!r.end.IsZero() && r.s.MaxRequests <= 0 && done.After(r.end)) {
			continue
		}
		w.mu.Lock()
		w.hist.Record(done.Sub(start))
		w.reqs++
		w.bytes += int64(body.Len())
		if err != nil {
			w.errs++
		}
		w.mu.Unlock()
		if err != nil {
			r.sample(err)
		}
		if r.s.MaxRequests > 0 {
			storeMax(&r.lastDone, done.UnixNano())
			if r.issued.Load() >= r.s.MaxRequests {
				r.capOnce.Do(func() { close(r.capped) })
			}
		}
	}
}

// do sends request n and reads the whole answer into buf.
func (r *run) do(ctx context.Context, n uint64, buf *bytes.Buffer) error {
	req, err := r.s.Request(ctx, n)
	if err != nil {
		return fmt.Errorf("build request: %w", err)
	}
	res, err := r.s.Client.Do(req)
	if err != nil {
		var ne net.Error
		if errors.As(err, &ne) && ne.Timeout() {
			return fmt.Errorf("%s %s: timeout", req.Method, req.URL.Path)
		}
		return err
	}
	defer res.Body.Close()
	if _, err := buf.ReadFrom(res.Body); err != nil {
		return fmt.Errorf("%s %s: read body: %w", req.Method, req.URL.Path, err)
	}
	if res.StatusCode < 200 || res.StatusCode > 299 {
		return fmt.Errorf("%s %s: status %d: %s", req.Method, req.URL.Path, res.StatusCode, clip(buf.Bytes(), 200))
	}
	if r.s.Check != nil {
		if err := r.s.Check(buf.Bytes()); err != nil {
			return fmt.Errorf("%s %s: %w", req.Method, req.URL.Path, err)
		}
	}
	return nil
}

// storeMax raises a to v unless it holds more already.
func storeMax(a *atomic.Int64, v int64) {
	for {
		old := a.Load()
		if old >= v || a.CompareAndSwap(old, v) {
			return
		}
	}
}

// sample keeps the first distinct error texts.
func (r *run) sample(err error) {
	msg := err.Error()
	r.samplesMu.Lock()
	defer r.samplesMu.Unlock()
	if len(r.samples) >= maxErrorSamples {
		return
	}
	for _, s := range r.samples {
		if s == msg {
			return
		}
	}
	r.samples = append(r.samples, msg)
}
