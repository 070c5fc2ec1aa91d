// Package httpx holds the HTTP plumbing every entry point shares: request
// ids, access logs, panic recovery, the API version header, a body size cap,
// and writing an error envelope.
package httpx

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"log/slog"
	"net/http"
	"regexp"
	"time"

	"github.com/venueplatform/venue/internal/apperr"
)

// CurrentAPIVersion is the date-based API version this build implements.
const CurrentAPIVersion = "2026-04-11"

// MaxBodyBytes caps request bodies (1 MiB).
const MaxBodyBytes = 1 << 20

type requestIDKey struct{}

// RequestID returns the request id of ctx ("" outside a request).
func RequestID(ctx context.Context) string {
	id, _ := ctx.Value(requestIDKey{}).(string)
	return id
}

// WithRequestID returns ctx carrying id.
func WithRequestID(ctx context.Context, id string) context.Context {
	return context.WithValue(ctx, requestIDKey{}, id)
}

var requestIDPattern = regexp.MustCompile(`^[A-Za-z0-9._-]{1,128}$`)

func newRequestID() string {
	b := make([]byte, 12)
	_, _ = rand.Read(b)
	return "req_" + hex.EncodeToString(b)
}

type statusRecorder struct {
	http.ResponseWriter
	status int
	bytes  int
}

func (r *statusRecorder) WriteHeader(code int) {
	if r.status == 0 {
		r.status = code
	}
	r.ResponseWriter.WriteHeader(code)
}

// Unwrap lets http.ResponseController reach the connection (deadlines,
// flushes) through the recorder.
func (r *statusRecorder) Unwrap() http.ResponseWriter { return r.ResponseWriter }

func (r *statusRecorder) Write(b []byte) (int, error) {
	if r.status == 0 {
		r.status = http.StatusOK
	}
	n, err := r.ResponseWriter.Write(b)
	r.bytes += n
	return n, err
}

// Middleware wraps next with a request id (a well-formed incoming
// X-Request-Id is kept), the X-Api-Version header, a body size cap, panic
// recovery into a 500 envelope, and one JSON access-log line per request.
func Middleware(log *slog.Logger, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		start := time.Now()
		id := r.Header.Get("X-Request-Id")
		if !requestIDPattern.MatchString(id) {
			id = newRequestID()
		}
		ctx := WithRequestID(r.Context(), id)
		w.Header().Set("X-Request-Id", id)
		w.Header().Set("X-Api-Version", CurrentAPIVersion)
		if r.Body != nil {
			r.Body = http.MaxBytesReader(w, r.Body, MaxBodyBytes)
		}
		rec := &statusRecorder{ResponseWriter: w}
		defer func() {
			if p := recover(); p != nil {
				if p == http.ErrAbortHandler {
					panic(p) // the handler asked net/http to drop the connection
				}
				log.ErrorContext(ctx, "panic", "request_id", id, "panic", p)
				if rec.status == 0 {
					WriteError(rec, r.WithContext(ctx), apperr.Internal(nil))
				}
			}
			log.InfoContext(ctx, "request",
				"request_id", id,
				"method", r.Method,
				"path", r.URL.Path,
				"status", rec.status,
				"bytes", rec.bytes,
				"duration_ms", float64(time.Since(start).Microseconds())/1000,
				"api_version", r.Header.Get("X-Api-Version"),
			)
		}()
		next.ServeHTTP(rec, r.WithContext(ctx))
	})
}

// Envelope is the REST error body: {data: null, error: {code, message, details}}.
type Envelope struct {
	Data  any       `json:"data"`
	Error ErrorBody `json:"error"`
}

// ErrorBody is the error member of an Envelope.
type ErrorBody struct {
	Code    string         `json:"code"`
	Message string         `json:"message"`
	Details map[string]any `json:"details"`
}

// Body returns the error body of e for the request in ctx, with
// details.request_id set.
func Body(ctx context.Context, e *apperr.Error) ErrorBody {
	details := make(map[string]any, len(e.Details)+1)
	for k, v := range e.Details {
		details[k] = v
	}
	details["request_id"] = RequestID(ctx)
	return ErrorBody{Code: e.Code, Message: e.Message, Details: details}
}

// WriteError writes e as an error envelope with its status.
func WriteError(w http.ResponseWriter, r *http.Request, e *apperr.Error) {
	w.Header().Set("Content-Type", "application/json")
	if ra, ok := e.Details["retry_after_seconds"]; ok {
		if n, ok := ra.(int); ok {
			w.Header().Set("Retry-After", itoa(n))
		}
	}
	w.WriteHeader(e.Status)
	_ = json.NewEncoder(w).Encode(Envelope{Error: Body(r.Context(), e)})
}

func itoa(n int) string {
	b, _ := json.Marshal(n)
	return string(b)
}
