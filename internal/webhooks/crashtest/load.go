package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"sync"
	"sync/atomic"
	"time"
)

// load books every pair once through the API, retrying the same request (same
// Idempotency-Key) while the server is unreachable or the key is still in use.
type load struct {
	c        config
	s        *seeded
	base     string
	answered atomic.Int64 // final answers
	inFlight atomic.Int64
	created  atomic.Int64
	refused  atomic.Int64
	retried  atomic.Int64
	mu       sync.Mutex
	acked    map[string]string // booking id -> status the API answered
	refusals map[string]int    // error code -> count
}

func newLoad(c config, s *seeded, base string) *load {
	return &load{c: c, s: s, base: base, acked: map[string]string{}, refusals: map[string]int{}}
}

func (l *load) run(ctx context.Context) {
	work := make(chan int)
	var wg sync.WaitGroup
	hc := &http.Client{Timeout: 30 * time.Second}
	for range l.c.workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range work {
				l.book(ctx, hc, i)
			}
		}()
	}
	for i := range l.s.pairs {
		work <- i
	}
	close(work)
	wg.Wait()
}

func (l *load) book(ctx context.Context, hc *http.Client, i int) {
	p := l.s.pairs[i]
	body, _ := json.Marshal(map[string]string{"class_instance_id": p[1].String(), "member_id": p[0].String()})
	deadline := time.Now().Add(3 * time.Minute)
	for time.Now().Before(deadline) && ctx.Err() == nil {
		req, _ := http.NewRequestWithContext(ctx, http.MethodPost, l.base+"/api/v1/bookings", bytes.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("X-API-Key", l.s.keys[i/50])
		req.Header.Set("Idempotency-Key", fmt.Sprintf("crash-%d", i))
		l.inFlight.Add(1)
		res, err := hc.Do(req)
		l.inFlight.Add(-1)
		if err != nil {
			l.retried.Add(1)
			time.Sleep(100 * time.Millisecond)
			continue
		}
		var out struct {
			Data struct {
				ID     string `json:"id"`
				Status string `json:"status"`
			} `json:"data"`
			Error struct {
				Code string `json:"code"`
			} `json:"error"`
		}
		_ = json.NewDecoder(res.Body).Decode(&out)
		res.Body.Close()
		if res.StatusCode == http.StatusConflict && out.Error.Code == "IDEMPOTENCY_KEY_IN_USE" ||
			res.StatusCode == http.StatusTooManyRequests || res.StatusCode >= 500 {
			l.retried.Add(1)
			time.Sleep(500 * time.Millisecond)
			continue
		}
		l.answered.Add(1)
		l.mu.Lock()
		defer l.mu.Unlock()
		if res.StatusCode == http.StatusCreated {
			l.created.Add(1)
			l.acked[out.Data.ID] = out.Data.Status
		} else {
			l.refused.Add(1)
			l.refusals[fmt.Sprintf("%d %s", res.StatusCode, out.Error.Code)]++
		}
		return
	}
	l.answered.Add(1)
	l.mu.Lock()
	l.refusals["gave up"]++
	l.mu.Unlock()
}
