package idempotency_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/ogen-go/ogen/middleware"
	"github.com/stretchr/testify/require"

	"github.com/venueplatform/venue/internal/apperr"
	"github.com/venueplatform/venue/internal/httpx"
	"github.com/venueplatform/venue/internal/idempotency"
	"github.com/venueplatform/venue/internal/pgtest"
	"github.com/venueplatform/venue/internal/viewer"
)

func TestMain(m *testing.M) { pgtest.Main(m) }

// The fake API's operations: path -> operation id.
var routes = map[string]string{
	"/api/v1/orders":  "createOrder",  // key required, UUID
	"/api/v1/notes":   "createNote",   // key optional, at most 128
	"/api/v1/returns": "createReturn", // key required, 8 to 160 ASCII
	"/api/v1/reads":   "listReads",    // no policy
	"/api/v1/setups":  "removeSetup",  // key required, UUID, IDEMPOTENCY_KEY_INVALID
	"/api/v1/settles": "settleFee",    // key required, UUID, a lost answer runs again
}

var policies = idempotency.Registry{
	"createOrder":  idempotency.Required(idempotency.UUID),
	"createNote":   idempotency.Optional(idempotency.Max128),
	"createReturn": idempotency.Required(idempotency.ASCII8To160),
	"removeSetup":  idempotency.Required(idempotency.UUID).WithInvalidCode(idempotency.CodeKeyInvalid),
	"settleFee":    idempotency.Required(idempotency.UUID).WithRerunUnknown(),
}

func route(r *http.Request) (string, bool) {
	op, ok := routes[r.URL.Path]
	return op, ok
}

// operation is the effect of a request: it answers a status and a body, or
// fails with an error.
type operation func(ctx context.Context, body []byte) (int, any, error)

// env is one server instance of the fake API over a test database.
type env struct {
	pool  *pgxpool.Pool
	store *idempotency.Store
	guard *idempotency.Guard
	srv   http.Handler
	logs  *bytes.Buffer
	op    atomic.Pointer[operation]
}

// newEnv serves the fake API over pool. The fake mirrors the generated
// server's order: authenticate (X-API-Key "<venue id>/<key id>" becomes an
// API-key viewer), decode the body, run the middleware hook, run the
// operation, encode the answer or the error envelope.
func newEnv(t *testing.T, pool *pgxpool.Pool, store *idempotency.Store, opts idempotency.Options) *env {
	t.Helper()
	e := &env{pool: pool, store: store, logs: &bytes.Buffer{}}
	var mu sync.Mutex
	opts.Log = slog.New(slog.NewTextHandler(lockedWriter{&mu, e.logs}, nil))
	e.guard = idempotency.New(store, route, policies, opts)
	hook := e.guard.Hook()
	api := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		ctx := r.Context()
		if k := r.Header.Get("X-API-Key"); k != "" {
			venueID, keyID, _ := strings.Cut(k, "/")
			ctx = viewer.NewContext(ctx, viewer.APIKey{Org: uuid.MustParse(venueID), KeyID: uuid.MustParse(keyID)})
		}
		body, err := io.ReadAll(r.Body)
		if err != nil {
			httpx.WriteError(w, r, apperr.Validation("body", "unreadable body"))
			return
		}
		var status int
		var out any
		_, err = hook(middleware.Request{Context: ctx, OperationID: routes[r.URL.Path], Raw: r, RawBody: body},
			func(req middleware.Request) (middleware.Response, error) {
				op := *e.op.Load()
				var err error
				status, out, err = op(req.Context, body)
				return middleware.Response{Type: out}, err
			})
		if err != nil {
			httpx.WriteError(w, r.WithContext(ctx), apperr.From(err))
			return
		}
		w.Header().Set("Content-Type", "application/json; charset=utf-8")
		w.Header().Set("X-Not-Replayed", "1")
		w.WriteHeader(status)
		_ = json.NewEncoder(w).Encode(map[string]any{"data": out, "error": nil})
	})
	e.srv = httpx.Middleware(slog.New(slog.DiscardHandler), e.guard.Middleware(api))
	return e
}

// newTestEnv is one instance on a fresh database with default options.
func newTestEnv(t *testing.T) *env {
	pool := pgtest.NewPool(t)
	return newEnv(t, pool, idempotency.NewStore(pool, 0, 0), idempotency.Options{})
}

func (e *env) set(op operation) { e.op.Store(&op) }

type request struct {
	method, path, body, key, apiKey, ip, venue string
	keys                                       []string
}

func (e *env) do(t *testing.T, r request) *httptest.ResponseRecorder {
	t.Helper()
	if r.method == "" {
		r.method = http.MethodPost
	}
	if r.path == "" {
		r.path = "/api/v1/orders"
	}
	req := httptest.NewRequest(r.method, r.path, strings.NewReader(r.body))
	if r.key != "" {
		req.Header.Set(idempotency.Header, r.key)
	}
	for _, k := range r.keys {
		req.Header.Add(idempotency.Header, k)
	}
	if r.apiKey != "" {
		req.Header.Set("X-API-Key", r.apiKey)
	}
	if r.ip != "" {
		req.RemoteAddr = r.ip + ":4000"
	}
	if r.venue != "" {
		req.Header.Set("X-Organization-ID", r.venue)
	}
	rec := httptest.NewRecorder()
	e.srv.ServeHTTP(rec, req)
	return rec
}

// rows counts the stored keys.
func (e *env) rows(t *testing.T) int {
	t.Helper()
	var n int
	require.NoError(t, e.pool.QueryRow(context.Background(), `SELECT count(*) FROM idempotency_keys`).Scan(&n))
	return n
}

type envelope struct {
	Data  any `json:"data"`
	Error *struct {
		Code    string         `json:"code"`
		Message string         `json:"message"`
		Details map[string]any `json:"details"`
	} `json:"error"`
}

func decode(t *testing.T, rec *httptest.ResponseRecorder) envelope {
	t.Helper()
	var env envelope
	require.NoError(t, json.Unmarshal(rec.Body.Bytes(), &env), rec.Body.String())
	return env
}

func requireCode(t *testing.T, rec *httptest.ResponseRecorder, status int, code string) envelope {
	t.Helper()
	require.Equal(t, status, rec.Code, rec.Body.String())
	env := decode(t, rec)
	require.NotNil(t, env.Error, rec.Body.String())
	require.Equal(t, code, env.Error.Code)
	return env
}

// counter is an operation that counts its runs and answers 201 with the run
// number.
func counter(n *atomic.Int32) operation {
	return func(context.Context, []byte) (int, any, error) {
		return http.StatusCreated, map[string]any{"run": n.Add(1)}, nil
	}
}

type lockedWriter struct {
	mu *sync.Mutex
	w  io.Writer
}

func (l lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}
