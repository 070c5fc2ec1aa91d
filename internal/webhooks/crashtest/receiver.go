package main

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"sync"
	"sync/atomic"
	"time"

	"github.com/venueplatform/venue/internal/webhooks/signature"
)

// receipt is one request the receiver got.
type receipt struct {
	id, typ, bookingID string
	status             int
	verified           bool
	at                 time.Time
}

// receiver is the subscriber's endpoint: it verifies every signature and answers 200, or
// 503 while down.
type receiver struct {
	*httptest.Server
	secret atomic.Pointer[string]
	down   time.Duration
	start  atomic.Pointer[time.Time]
	mu     sync.Mutex
	got    []receipt
}

func startReceiver(down time.Duration) (*receiver, error) {
	r := &receiver{down: down}
	r.Server = httptest.NewServer(http.HandlerFunc(r.serve))
	return r, nil
}

// begin starts the down period.
func (r *receiver) begin() {
	now := time.Now()
	r.start.Store(&now)
}

func (r *receiver) serve(w http.ResponseWriter, req *http.Request) {
	body, _ := io.ReadAll(req.Body)
	var env struct {
		Type string         `json:"type"`
		Data map[string]any `json:"data"`
	}
	_ = json.Unmarshal(body, &env)
	rec := receipt{id: req.Header.Get(signature.HeaderID), typ: env.Type, status: http.StatusOK, at: time.Now()}
	rec.bookingID, _ = env.Data["booking_id"].(string)
	if s := r.secret.Load(); s != nil {
		rec.verified = signature.Verify(req.Header, body, *s) == nil
	}
	if st := r.start.Load(); st != nil && time.Since(*st) < r.down {
		rec.status = http.StatusServiceUnavailable
	}
	r.mu.Lock()
	r.got = append(r.got, rec)
	r.mu.Unlock()
	w.WriteHeader(rec.status)
}

func (r *receiver) receipts() []receipt {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]receipt(nil), r.got...)
}
