package jobs_test

import (
	"io"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"

	"github.com/venueplatform/venue/internal/webhooks/deliver"
	"github.com/venueplatform/venue/internal/webhooks/signature"
)

// received is one request as a receiver saw it.
type received struct {
	MessageID     string
	CorrelationID string
	Status        int
	Verified      bool
	Body          string
}

// receiver is an httptest webhook endpoint that answers with status(n), n counting its
// requests from 1, and verifies every signature with secret (when set).
type receiver struct {
	*httptest.Server
	mu     sync.Mutex
	log    []received
	secret string
	status func(n int) int
}

func newReceiver(t *testing.T, status func(n int) int) *receiver {
	t.Helper()
	r := &receiver{status: status}
	r.Server = httptest.NewServer(http.HandlerFunc(r.serve))
	t.Cleanup(r.Close)
	return r
}

func (r *receiver) serve(w http.ResponseWriter, req *http.Request) {
	body, _ := io.ReadAll(req.Body)
	r.mu.Lock()
	secret := r.secret
	n := len(r.log) + 1
	status := r.status(n)
	r.log = append(r.log, received{
		MessageID:     req.Header.Get(signature.HeaderID),
		CorrelationID: req.Header.Get(deliver.HeaderCorrelationID),
		Status:        status,
		Verified:      secret != "" && signature.Verify(req.Header, body, secret) == nil,
		Body:          string(body),
	})
	r.mu.Unlock()
	w.WriteHeader(status)
}

func (r *receiver) setSecret(s string) {
	r.mu.Lock()
	r.secret = s
	r.mu.Unlock()
}

// requests returns what the receiver got, in arrival order.
func (r *receiver) requests() []received {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]received(nil), r.log...)
}

// byMessage returns the requests for one message id, in arrival order.
func (r *receiver) byMessage(id string) []received {
	var out []received
	for _, x := range r.requests() {
		if x.MessageID == id {
			out = append(out, x)
		}
	}
	return out
}
