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

// load has every member preview and buy once, retrying the same purchase
// request (same Idempotency-Key and body) while the server is unreachable or
// the key is still held by a request the kill cut.
type load struct {
	c         config
	s         *seeded
	base      string
	inFlight  atomic.Int64
	succeeded atomic.Int64
	other     atomic.Int64
	retried   atomic.Int64
	mu        sync.Mutex
	acked     map[string]string // checkout id -> payment_status the API answered
	answers   map[string]int    // status and code -> count
}

func newLoad(c config, s *seeded, base string) *load {
	return &load{c: c, s: s, base: base, acked: map[string]string{}, answers: map[string]int{}}
}

func (l *load) run(ctx context.Context) {
	work := make(chan int)
	var wg sync.WaitGroup
	hc := &http.Client{Timeout: 60 * time.Second}
	for range l.c.workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range work {
				l.buy(ctx, hc, i)
			}
		}()
	}
	for i := range l.s.tokens {
		work <- i
	}
	close(work)
	wg.Wait()
}

// call sends one request, retrying it unchanged while the server cannot
// answer; it returns the status and the decoded body.
func (l *load) call(ctx context.Context, hc *http.Client, method, path, tok, key string, body []byte) (int, map[string]any) {
	deadline := time.Now().Add(4 * time.Minute)
	for time.Now().Before(deadline) && ctx.Err() == nil {
		req, _ := http.NewRequestWithContext(ctx, method, l.base+path, bytes.NewReader(body))
		req.Header.Set("Authorization", "Bearer "+tok)
		req.Header.Set("X-Organization-ID", l.s.org.String())
		if body != nil {
			req.Header.Set("Content-Type", "application/json")
		}
		if key != "" {
			req.Header.Set("Idempotency-Key", key)
		}
		l.inFlight.Add(1)
		res, err := hc.Do(req)
		l.inFlight.Add(-1)
		if err != nil {
			l.retried.Add(1)
			time.Sleep(100 * time.Millisecond)
			continue
		}
		var out map[string]any
		_ = json.NewDecoder(res.Body).Decode(&out)
		res.Body.Close()
		code := ""
		if e, ok := out["error"].(map[string]any); ok {
			code, _ = e["code"].(string)
		}
		if res.StatusCode == http.StatusConflict && code == "IDEMPOTENCY_KEY_IN_USE" ||
			res.StatusCode == http.StatusTooManyRequests || res.StatusCode >= 500 {
			l.retried.Add(1)
			time.Sleep(500 * time.Millisecond)
			continue
		}
		return res.StatusCode, out
	}
	return 0, nil
}

func (l *load) buy(ctx context.Context, hc *http.Client, i int) {
	tok := l.s.tokens[i]
	st, prev := l.call(ctx, hc, http.MethodGet, "/api/v1/me/checkout/preview?pass_type_slug=ten", tok, "", nil)
	if st != http.StatusOK {
		l.note(fmt.Sprintf("preview %d", st))
		return
	}
	data, _ := prev["data"].(map[string]any)
	body, _ := json.Marshal(map[string]any{"direct_purchase_quote": data["direct_purchase_quote"], "payment_method_id": "pm_card_visa"})
	st, out := l.call(ctx, hc, http.MethodPost, "/api/v1/me/checkout/purchase", tok, fmt.Sprintf("crash-buy-%d", i), body)
	if st != http.StatusOK {
		code := ""
		if e, ok := out["error"].(map[string]any); ok {
			code, _ = e["code"].(string)
		}
		l.other.Add(1)
		l.note(fmt.Sprintf("purchase %d %s", st, code))
		return
	}
	d, _ := out["data"].(map[string]any)
	status, _ := d["payment_status"].(string)
	id, _ := d["checkout_id"].(string)
	if status == "succeeded" {
		l.succeeded.Add(1)
	} else {
		l.other.Add(1)
	}
	l.mu.Lock()
	l.acked[id] = status
	l.mu.Unlock()
	l.note("purchase 200 " + status)
}

func (l *load) note(k string) {
	l.mu.Lock()
	l.answers[k]++
	l.mu.Unlock()
}
