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
// requests from 1, and verifies every signature with secret (when set). With
// refuseUnverified it answers 503 to a request its secret does not verify, as a
// receiver checking signatures would.
type receiver struct {
	*httptest.Server
	mu               sync.Mutex
	log              []received
	secret           string
	status           func(n int) int
	refuseUnverified bool
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
	verified := secret != "" && signature.Verify(req.Header, body, secret) == nil
	if r.refuseUnverified && !verified {
		status = http.StatusServiceUnavailable
	}
	r.log = append(r.log, received{
		MessageID:     req.Header.Get(signature.HeaderID),
		CorrelationID: req.Header.Get(deliver.HeaderCorrelationID),
		Status:        status,
		Verified:      verified,
		Body:          string(body),
	})
	r.mu.Unlock()
	w.WriteHeader(status)
}

// refuseUnverifiedRequests makes the receiver answer 503 to a request its secret does
// not verify.
func (r *receiver) refuseUnverifiedRequests() {
	r.mu.Lock()
	r.refuseUnverified = true
	r.mu.Unlock()
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
