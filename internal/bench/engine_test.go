package bench

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// testServer answers /n/<n> with 200 and body "ok", or 500 for every
// failEvery-th n, and records the n it saw.
func testServer(t *testing.T, failEvery uint64, delay time.Duration) (*httptest.Server, *sync.Map) {
	t.Helper()
	var seen sync.Map
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n, _ := strconv.ParseUint(r.URL.Query().Get("n"), 10, 64)
		seen.Store(n, true)
		time.Sleep(delay)
		if failEvery > 0 && n%failEvery == failEvery-1 {
			http.Error(w, "boom", http.StatusInternalServerError)
			return
		}
		_, _ = w.Write([]byte(`{"data":[{"id":1}]}`))
	}))
	t.Cleanup(srv.Close)
	return srv, &seen
}

func stepFor(srv *httptest.Server, c int) *Step {
	return &Step{
		Op: "test", Set: "main", Concurrency: c,
		Client: NewClient(c, 5*time.Second),
		Request: func(ctx context.Context, n uint64) (*http.Request, error) {
			return http.NewRequestWithContext(ctx, http.MethodGet, fmt.Sprintf("%s/?n=%d", srv.URL, n), nil)
		},
	}
}

func TestRunMeasuresTheWindowOnly(t *testing.T) {
	srv, seen := testServer(t, 0, time.Millisecond)
	s := stepFor(srv, 4)
	s.Warmup, s.Duration = 100*time.Millisecond, 300*time.Millisecond
	var ticks atomic.Int32
	res, err := Run(context.Background(), s, func(p Progress) { ticks.Add(1) })
	require.NoError(t, err)
	require.Equal(t, 300*time.Millisecond, res.Elapsed)
	require.Positive(t, res.Requests)
	require.Zero(t, res.Errors)
	require.EqualValues(t, res.Requests, res.Latency.Count())
	require.Equal(t, res.Requests*int64(len(`{"data":[{"id":1}]}`)), res.Bytes)
	require.GreaterOrEqual(t, res.Completed, res.Requests, "warmup answers count as completed")
	require.GreaterOrEqual(t, res.Latency.Quantile(0.5), time.Millisecond)
	// 4 workers on a 1 ms handler cannot finish more than 4 per ms.
	require.LessOrEqual(t, res.Requests, int64(4*300))
	require.Positive(t, ticks.Load(), "progress is reported")
	// Warmup requests were sent (more distinct n than measured) but not counted.
	distinct := 0
	seen.Range(func(any, any) bool { distinct++; return true })
	require.Greater(t, distinct, int(res.Requests))
	require.InDelta(t, float64(res.Requests)/0.3, res.Throughput(), 0.01)
}

func TestRunCountsFailuresAndChecks(t *testing.T) {
	srv, _ := testServer(t, 4, 0)
	s := stepFor(srv, 2)
	s.Duration = 200 * time.Millisecond
	res, err := Run(context.Background(), s, nil)
	require.NoError(t, err)
	require.Positive(t, res.Errors)
	require.InDelta(t, 0.25, float64(res.Errors)/float64(res.Requests), 0.05, "one request in four fails")
	require.Len(t, res.ErrorSamples, 1, "one distinct failure text")
	require.Contains(t, res.ErrorSamples[0], "status 500")
	require.InDelta(t, float64(res.Requests-res.Errors)/0.2, res.Throughput(), 0.01, "throughput counts successes")

	srv2, _ := testServer(t, 0, 0)
	s = stepFor(srv2, 2)
	s.Duration = 100 * time.Millisecond
	s.Check = func(body []byte) error { return errors.New("never right") }
	res, err = Run(context.Background(), s, nil)
	require.NoError(t, err)
	require.Equal(t, res.Requests, res.Errors)
	require.Contains(t, res.ErrorSamples[0], "never right")
}

func TestRunStopsAtTheRequestCap(t *testing.T) {
	srv, _ := testServer(t, 0, 0)
	s := stepFor(srv, 8)
	s.MaxRequests = 250
	s.Warmup = 20 * time.Millisecond
	res, err := Run(context.Background(), s, nil)
	require.NoError(t, err)
	require.EqualValues(t, 250, res.Requests)
	require.EqualValues(t, 250, res.Latency.Count())
	require.Positive(t, res.Elapsed)
}

func TestRunStopsWhenCancelled(t *testing.T) {
	srv, _ := testServer(t, 0, 5*time.Millisecond)
	s := stepFor(srv, 2)
	s.Duration = time.Hour
	ctx, cancel := context.WithTimeout(context.Background(), 150*time.Millisecond)
	defer cancel()
	start := time.Now()
	res, err := Run(ctx, s, nil)
	require.ErrorIs(t, err, context.DeadlineExceeded)
	require.Less(t, time.Since(start), 5*time.Second)
	require.Positive(t, res.Requests)
	require.Less(t, res.Elapsed, time.Second)
}

func TestRunRefusesBadSteps(t *testing.T) {
	srv, _ := testServer(t, 0, 0)
	s := stepFor(srv, 0)
	s.Duration = time.Second
	_, err := Run(context.Background(), s, nil)
	require.Error(t, err)
	s = stepFor(srv, 1)
	_, err = Run(context.Background(), s, nil)
	require.Error(t, err, "neither duration nor cap")
}
