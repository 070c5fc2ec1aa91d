package mcp

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"strconv"
	"time"

	"github.com/venueplatform/venue/ent"
	"github.com/venueplatform/venue/internal/audit"
	"github.com/venueplatform/venue/internal/auth"
	"github.com/venueplatform/venue/internal/db"
	"github.com/venueplatform/venue/internal/ratelimit"
	"github.com/venueplatform/venue/internal/schedule"
	"github.com/venueplatform/venue/internal/system"
	"github.com/venueplatform/venue/internal/viewer"
)

// Limiter counts one request against a key's window; *ratelimit.Limiter is
// the implementation, shared with REST so both count in one window.
type Limiter interface {
	Allow(ctx context.Context, key string) (ratelimit.Decision, error)
}

// Handler is the MCP endpoint: mount it at POST /api/mcp.
type Handler struct {
	client  *ent.Client
	auth    *auth.Authenticator
	limiter Limiter
	audit   *audit.Writer
	log     *slog.Logger
	now     func() time.Time
	schemas *toolSchemas
	tools   map[string]*tool
}

var _ http.Handler = (*Handler)(nil)

// Option configures a Handler.
type Option func(*Handler)

// WithAuditWriter makes w the writer of the audit entries of read-only tool
// calls (for example with a longer interval); the handler owns it and its
// Close closes it. By default the handler starts one with the defaults of
// audit.WriterOptions.
func WithAuditWriter(w *audit.Writer) Option {
	return func(h *Handler) { h.audit = w }
}

// NewHandler returns the endpoint over client. authn applies the key, kill
// switch, plan and feature-flag gates; limiter the per-key rate limit (the
// same one REST uses, e.g. ratelimit.New(pool, 0, 0)); log receives internal
// errors. Call Close after the HTTP server has drained, so the audit entries
// still queued are written. It panics if the generated tool schemas do not
// compile, which a test of this package rules out.
func NewHandler(client *ent.Client, authn *auth.Authenticator, limiter Limiter, log *slog.Logger, opts ...Option) *Handler {
	schemas, err := loadSchemas()
	if err != nil {
		panic(err)
	}
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	h := &Handler{
		client:  client,
		auth:    authn,
		limiter: limiter,
		log:     log,
		now:     time.Now,
		schemas: schemas,
		tools:   toolTable(),
	}
	for _, o := range opts {
		o(h)
	}
	if h.audit == nil {
		h.audit = audit.NewWriter(client, audit.WriterOptions{Log: log})
	}
	return h
}

// Flush returns once the audit entries of the calls answered so far are
// written.
func (h *Handler) Flush(ctx context.Context) error { return h.audit.Flush(ctx) }

// Close writes the audit entries still queued and stops the writer; calls
// answered later write their entries at once. The server calls it on a
// graceful shutdown, after requests in flight have finished.
func (h *Handler) Close(ctx context.Context) error { return h.audit.Close(ctx) }

// ServeHTTP answers POST with JSON-RPC; GET, DELETE and every other method
// with 405 and Allow: POST (no SSE stream, no session to delete). The
// Accept, Content-Type and MCP-Protocol-Version headers are read leniently.
func (h *Handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost {
		w.Header().Set("Allow", http.MethodPost)
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusMethodNotAllowed)
		_, _ = w.Write(encode(errorResponse(nullID, &rpcError{Code: CodeInvalidRequest,
			Message: "Invalid Request: the endpoint answers POST only"})))
		return
	}
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, MaxBodyBytes))
	if err != nil {
		var tooBig *http.MaxBytesError
		e := &rpcError{Code: CodeParseError, Message: "Parse error: the body could not be read"}
		if errors.As(err, &tooBig) {
			e = (&rpcError{Code: CodeInvalidRequest, Message: "Invalid Request: the body is too large"}).
				with("max_body_bytes", MaxBodyBytes)
		}
		writeAnswer(w, http.StatusOK, encode(errorResponse(nullID, e)))
		return
	}
	x := &exchange{h: h, apiKey: r.Header.Get("X-API-Key")}
	status, out, release := process(r.Context(), body, x.handle)
	writeAnswer(w, status, out)
	release()
}

func writeAnswer(w http.ResponseWriter, status int, body []byte) {
	if status == http.StatusAccepted {
		w.WriteHeader(status)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	// A known length spares the answer chunked encoding.
	w.Header().Set("Content-Length", strconv.Itoa(len(body)))
	w.WriteHeader(status)
	_, _ = w.Write(body)
}

// caller is an authenticated API key and its venue.
type caller struct {
	key   viewer.APIKey
	venue *ent.Organization
	loc   *time.Location
}

// exchange is the state of one HTTP request: the key is authenticated at
// most once, when the first element needs it, and every element is then
// gated on its own.
type exchange struct {
	h       *Handler
	apiKey  string
	authed  bool
	caller  *caller
	authErr *rpcError
}

// admit runs the gates every answered method passes, in the contract's
// order: key (-32001), kill switch, plan and API flag (-32004), rate limit
// (-32003). It returns a context carrying the key's viewer.
func (x *exchange) admit(ctx context.Context) (context.Context, *caller, *rpcError) {
	if !x.authed {
		x.authed = true
		// The key, venue and flag reads are plain reads outside a
		// transaction: pgx scans them directly (db.DirectReads), as REST's
		// hot schedule read does, instead of through database/sql, which
		// costs more CPU than the statements themselves. Only the context
		// of the lookup is marked; the tools' own reads are not.
		res, err := x.h.auth.Authenticate(db.DirectReads(ctx), x.apiKey)
		if err != nil {
			x.authErr = fromAuth(err)
			if x.authErr.Code == CodeInternalError {
				x.h.log.ErrorContext(ctx, "mcp: authenticate", "error", err)
			}
		} else {
			x.caller = &caller{key: res.Viewer, venue: res.Venue, loc: x.h.location(res.Venue.Timezone)}
		}
	}
	if x.authErr != nil {
		return ctx, nil, x.authErr
	}
	d, err := x.h.limiter.Allow(ctx, ratelimit.APIKey(x.caller.key.KeyID))
	if err != nil {
		x.h.log.ErrorContext(ctx, "mcp: rate limit", "error", err)
		return ctx, x.caller, errInternal()
	}
	if !d.Allowed {
		return ctx, x.caller, errRateLimited(d.RetryAfterSeconds())
	}
	return system.Identify(ctx, "mcp.api_key", x.caller.key), x.caller, nil
}

// location returns the venue's time zone (cached by package schedule); an
// unknown name, which venue validation rules out, falls back to UTC.
func (h *Handler) location(name string) *time.Location {
	loc, err := schedule.Location(name)
	if err != nil {
		h.log.Error("mcp: venue time zone", "timezone", name, "error", err)
		return time.UTC
	}
	return loc
}
