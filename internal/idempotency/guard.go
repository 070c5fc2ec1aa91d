package idempotency

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"io"
	"log/slog"
	"net"
	"net/http"
	"time"

	"github.com/google/uuid"
	"github.com/ogen-go/ogen/middleware"

	"github.com/venueplatform/venue/internal/apperr"
	"github.com/venueplatform/venue/internal/httpx"
	"github.com/venueplatform/venue/internal/venuectx"
	"github.com/venueplatform/venue/internal/viewer"
)

// DefaultMaxResponseBytes caps a stored answer (1 MiB).
const DefaultMaxResponseBytes = 1 << 20

// DefaultReplayHeaders are stored with an answer besides its body
// (Idempotency-Key: answers that name the key they ran under, such as
// POST /venues/{slug}/inquiries, say it again on replay).
var DefaultReplayHeaders = []string{"Content-Type", "Content-Language", "Location", "ETag", "Last-Modified", "Cache-Control", "Idempotency-Key"}

// Identity is who claims a key: a scope (the venue) and a principal.
type Identity struct {
	Scope, Principal string
}

// Options tune a Guard; the zero value takes the defaults.
type Options struct {
	// Identify names the caller after authentication (nil: DefaultIdentify
	// with ClientIP).
	Identify func(ctx context.Context, r *http.Request) Identity
	// ClientIP gives an anonymous caller's address (nil: the peer address).
	ClientIP func(r *http.Request) string
	// ReplayHeaders are stored and replayed (nil: DefaultReplayHeaders).
	ReplayHeaders []string
	// MaxResponseBytes caps a stored answer (0: DefaultMaxResponseBytes).
	MaxResponseBytes int
	// Log receives store failures and wiring mistakes.
	Log *slog.Logger
}

// Guard enforces the policies of a Registry.
type Guard struct {
	store    *Store
	route    func(r *http.Request) (string, bool)
	policies Registry
	opts     Options
}

// New returns a Guard claiming keys in store for the operations of policies;
// route names a request's operation; the server passes httpx.Operation, which
// reads what its entry found once, so the router is not asked again.
func New(store *Store, route func(r *http.Request) (operationID string, ok bool), policies Registry, opts Options) *Guard {
	if opts.ClientIP == nil {
		opts.ClientIP = peer
	}
	if opts.Identify == nil {
		opts.Identify = DefaultIdentify(opts.ClientIP)
	}
	if opts.ReplayHeaders == nil {
		opts.ReplayHeaders = DefaultReplayHeaders
	}
	if opts.MaxResponseBytes <= 0 {
		opts.MaxResponseBytes = DefaultMaxResponseBytes
	}
	if opts.Log == nil {
		opts.Log = slog.New(slog.DiscardHandler)
	}
	return &Guard{store: store, route: route, policies: policies, opts: opts}
}

// Store is the Guard's store (for Sweep).
func (g *Guard) Store() *Store { return g.store }

// state is one request's passage through the Guard.
type state struct {
	policy  Policy
	hash    []byte
	w       http.ResponseWriter
	rec     *recorder
	hooked  bool
	claim   uuid.UUID
	key     Key
	replay  *Response
	opID    string
	reqPath string
}

type ctxKey struct{}

func stateFrom(ctx context.Context) *state {
	st, _ := ctx.Value(ctxKey{}).(*state)
	return st
}

// Middleware is the Guard's entry: for an operation with a policy it holds
// the request's state, hashes the request and records the answer, and once
// the server has answered stores it, replays the stored one, or releases
// the key; Hook claims the key in between. Install it inside the rate
// limiter and around the generated server.
func (g *Guard) Middleware(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		op, ok := g.route(r)
		pol, has := g.policies[op]
		if !ok || !has {
			next.ServeHTTP(w, r)
			return
		}
		var body []byte
		if r.Body != nil {
			b, err := io.ReadAll(r.Body)
			if err != nil {
				// Too large or broken: the server reports it as it would.
				r.Body = io.NopCloser(io.MultiReader(bytes.NewReader(b), errReader{err}))
				next.ServeHTTP(w, r)
				return
			}
			body = b
		}
		st := &state{policy: pol, hash: requestHash(r, body), w: w, opID: op, reqPath: r.URL.Path,
			rec: newRecorder(w, g.opts.ReplayHeaders, g.opts.MaxResponseBytes)}
		ctx := context.WithValue(r.Context(), ctxKey{}, st)
		r = r.WithContext(ctx)
		r.Body = io.NopCloser(bytes.NewReader(body))
		defer func() {
			if p := recover(); p != nil {
				g.release(ctx, st)
				panic(p)
			}
			g.finish(ctx, st)
		}()
		next.ServeHTTP(st.rec, r)
	})
}

// errReplayed stops the operation of a replayed request; what the server
// writes for it is discarded.
var errReplayed = &apperr.Error{Status: http.StatusOK, Code: "IDEMPOTENT_REPLAY", Message: "answer replayed"}

// Hook is the ogen middleware that claims the key, the Guard's one claim of
// a request: after the security handler named the caller and the server
// decoded the request, before the operation runs. Install it after the rate
// limiter's hook.
func (g *Guard) Hook() middleware.Middleware {
	return func(req middleware.Request, next middleware.Next) (middleware.Response, error) {
		st := stateFrom(req.Context)
		if st == nil || st.hooked {
			return next(req)
		}
		st.hooked = true
		values := req.Raw.Header.Values(Header)
		switch {
		case len(values) == 0 && !st.policy.Required:
			return next(req)
		case len(values) == 0:
			return middleware.Response{}, MissingKey()
		case len(values) > 1:
			return middleware.Response{}, st.policy.malformed()
		}
		key, err := st.policy.Format.Normalize(values[0])
		if err != nil {
			return middleware.Response{}, st.policy.malformed()
		}
		id := g.opts.Identify(req.Context, req.Raw)
		k := Key{Scope: id.Scope, Principal: id.Principal, Key: key}
		c, err := g.store.Claim(req.Context, k, st.hash)
		if err != nil {
			return middleware.Response{}, apperr.From(err) // 503 when the client went away, else a logged 500
		}
		switch c.Outcome {
		case Claimed:
			st.claim, st.key = c.ID, k
			return next(req)
		case Replay:
			st.replay = c.Response
			st.rec.discard = true
			return middleware.Response{}, errReplayed
		case Mismatch:
			return middleware.Response{}, KeyMismatch()
		default:
			st.w.Header().Set("Retry-After", "1")
			return middleware.Response{}, KeyInUse()
		}
	}
}

// finish replays, stores or releases, once the server has answered.
func (g *Guard) finish(ctx context.Context, st *state) {
	switch {
	case st.replay != nil:
		replay(st.w, st.replay)
	case st.claim != uuid.Nil:
		resp := st.rec.response()
		if st.policy.RerunUnknown && unknownOutcome(resp) {
			g.release(ctx, st) // the same key runs again and looks the outcome up
			return
		}
		if resp.Status >= 500 || st.rec.over {
			if st.rec.over {
				g.opts.Log.ErrorContext(ctx, "idempotency: answer too large to store; key released",
					"request_id", httpx.RequestID(ctx), "operation", st.opID)
			}
			g.release(ctx, st)
			return
		}
		dctx, cancel := detached(ctx)
		defer cancel()
		held, err := g.store.Complete(dctx, st.claim, resp)
		switch {
		case err != nil:
			g.opts.Log.ErrorContext(ctx, "idempotency: store answer", "request_id", httpx.RequestID(ctx), "error", err)
		case !held:
			g.opts.Log.WarnContext(ctx, "idempotency: claim lost before the answer (lock expired)",
				"request_id", httpx.RequestID(ctx), "operation", st.opID)
		}
	case !st.hooked && st.rec.status < 400:
		g.opts.Log.ErrorContext(ctx, "idempotency: the ogen hook did not run for an operation with a policy; is Guard.Hook installed?",
			"operation", st.opID, "path", st.reqPath)
	}
}

func (g *Guard) release(ctx context.Context, st *state) {
	if st.claim == uuid.Nil {
		return
	}
	dctx, cancel := detached(ctx)
	defer cancel()
	if err := g.store.Release(dctx, st.claim); err != nil {
		g.opts.Log.ErrorContext(ctx, "idempotency: release", "request_id", httpx.RequestID(ctx), "error", err)
	}
}

// detached outlives the request's cancellation: the answer is stored even
// when the client went away.
func detached(ctx context.Context) (context.Context, context.CancelFunc) {
	return context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
}

// requestHash is SHA-256 over method, path, query and body. A JSON body is
// hashed in canonical form (object keys sorted, no insignificant white
// space, numbers as written), so a retry that re-serialises the same
// document, with its keys in another order, is the same request.
func requestHash(r *http.Request, body []byte) []byte {
	h := sha256.New()
	io.WriteString(h, r.Method+"\n"+r.URL.EscapedPath()+"?"+r.URL.RawQuery+"\n")
	h.Write(canonicalBody(body))
	return h.Sum(nil)
}

// canonicalBody returns body's canonical JSON form, or body itself when it
// is not one JSON document.
func canonicalBody(body []byte) []byte {
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return body
	}
	if _, err := dec.Token(); err != io.EOF {
		return body // trailing data: not one document
	}
	out, err := json.Marshal(v)
	if err != nil {
		return body
	}
	return out
}

// DefaultIdentify scopes keys by the viewer's venue (else the venue headers,
// else "public") and names the principal by API key id, the viewer's Actor,
// or for anonymous callers the client address.
func DefaultIdentify(clientIP func(r *http.Request) string) func(ctx context.Context, r *http.Request) Identity {
	return func(ctx context.Context, r *http.Request) Identity {
		id := Identity{Scope: "public"}
		if v, ok := viewer.VenueFromContext(ctx); ok {
			id.Scope = v.String()
		} else if sel, err := venuectx.FromHeader(r.Header); err == nil {
			switch {
			case sel.ID != uuid.Nil:
				id.Scope = sel.ID.String()
			case sel.Slug != "":
				id.Scope = "slug:" + sel.Slug
			}
		}
		switch v := viewer.FromContext(ctx).(type) {
		case viewer.APIKey:
			id.Principal = "api_key:" + v.KeyID.String()
		case nil, viewer.Public:
			id.Principal = "ip:" + clientIP(r)
		default:
			id.Principal = v.Actor()
		}
		return id
	}
}

// KeyFromContext returns the key the request in ctx holds, if any.
func KeyFromContext(ctx context.Context) (Key, bool) {
	if st := stateFrom(ctx); st != nil && st.claim != uuid.Nil {
		return st.key, true
	}
	return Key{}, false
}

// Derive returns a key for a call to another service on behalf of the
// claimed request in ctx (e.g. Stripe's Idempotency-Key), distinct per
// purpose and the same on every retry of the request; ok is false when the
// request holds no key.
func Derive(ctx context.Context, purpose string) (string, bool) {
	k, ok := KeyFromContext(ctx)
	if !ok {
		return "", false
	}
	sum := sha256.Sum256([]byte(k.Scope + "\x00" + k.Principal + "\x00" + k.Key + "\x00" + purpose))
	return hex.EncodeToString(sum[:]), true
}

func peer(r *http.Request) string {
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		return r.RemoteAddr
	}
	return host
}

type errReader struct{ err error }

func (e errReader) Read([]byte) (int, error) { return 0, e.err }

// unknownOutcome reports whether resp is a 409 UNKNOWN_WRITE_OUTCOME.
func unknownOutcome(resp Response) bool {
	if resp.Status != http.StatusConflict {
		return false
	}
	var env struct {
		Error struct {
			Code string `json:"code"`
		} `json:"error"`
	}
	return json.Unmarshal(resp.Body, &env) == nil && env.Error.Code == "UNKNOWN_WRITE_OUTCOME"
}
