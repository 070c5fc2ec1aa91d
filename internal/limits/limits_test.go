package limits_test

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
	"github.com/ogen-go/ogen/middleware"
	"github.com/stretchr/testify/require"

	"github.com/venueplatform/venue/internal/apperr"
	"github.com/venueplatform/venue/internal/db"
	"github.com/venueplatform/venue/internal/httpx"
	"github.com/venueplatform/venue/internal/limits"
	"github.com/venueplatform/venue/internal/pgtest"
	"github.com/venueplatform/venue/internal/ratelimit"
	"github.com/venueplatform/venue/internal/viewer"
)

func TestMain(m *testing.M) { pgtest.Main(m) }

// The operations of the fake API: path -> operation id, and whether the
// operation authenticates API keys.
var ops = map[string]struct {
	id       string
	keyAuth  bool
	response string
}{
	"/schedule":           {"getVenueSchedule", true, `{"data":[]}`},
	"/gift-cards/balance": {"getGiftCardBalance", false, `{"data":{}}`},
	"/geo":                {"getGeo", false, `{"data":{}}`},
}

func operation(r *http.Request) (string, bool) {
	op, ok := ops[r.URL.Path]
	return op.id, ok
}

// api mimics the generated server around l: the security handler reports a
// presented key (the key is its id here) and answers a refusal the way the
// generated server does, without Retry-After of its own; then l's hook runs,
// then the operation.
func api(l *limits.Limits, calls *atomic.Int32) http.Handler {
	hook := l.Hook()
	writeErr := func(w http.ResponseWriter, err error) {
		e := apperr.From(err)
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(e.Status)
		_ = json.NewEncoder(w).Encode(httpx.Envelope{Error: httpx.ErrorBody{Code: e.Code, Message: e.Message, Details: e.Details}})
	}
	return l.Middleware(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		op, ok := ops[r.URL.Path]
		if !ok {
			writeErr(w, apperr.NotFound("route"))
			return
		}
		ctx := r.Context()
		if key := r.Header.Get("X-API-Key"); key != "" && op.keyAuth {
			id, err := uuid.Parse(key)
			if err != nil {
				writeErr(w, apperr.Unauthorized("invalid API key"))
				return
			}
			if err := limits.Authenticated(ctx, viewer.APIKey{KeyID: id}); err != nil {
				writeErr(w, err)
				return
			}
		}
		_, err := hook(middleware.Request{Context: ctx, OperationID: op.id, Raw: r}, func(middleware.Request) (middleware.Response, error) {
			if calls != nil {
				calls.Add(1)
			}
			return middleware.Response{}, nil
		})
		if err != nil {
			writeErr(w, err)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(op.response))
	}))
}

type call struct {
	path, ip, key string
}

func do(t *testing.T, h http.Handler, c call) *httptest.ResponseRecorder {
	t.Helper()
	req := httptest.NewRequest(http.MethodGet, c.path, nil)
	if c.ip != "" {
		req.RemoteAddr = c.ip
	}
	if c.key != "" {
		req.Header.Set("X-API-Key", c.key)
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	return rec
}

func newLimits(t *testing.T, q ratelimit.Querier, cfg limits.Config) *limits.Limits {
	t.Helper()
	cfg.Operation = operation
	l, err := limits.New(q, cfg, nil)
	require.NoError(t, err)
	return l
}

var fivePerMinute = limits.Policy{Name: "test", Limit: 5, Window: time.Minute}

func TestAnonymousBurst(t *testing.T) {
	h := api(newLimits(t, pgtest.NewPool(t), limits.Config{PerIP: fivePerMinute}), nil)
	for i := range 5 {
		rec := do(t, h, call{path: "/schedule", ip: "192.0.2.1:1234"})
		require.Equal(t, http.StatusOK, rec.Code)
		require.Equal(t, `"test";q=5;w=60`, rec.Header().Get("RateLimit-Policy"))
		require.Regexp(t, `^"test";r=`+strconv.Itoa(4-i)+`;t=\d+$`, rec.Header().Get("RateLimit"))
		require.Empty(t, rec.Header().Get("Retry-After"))
	}
	rec := do(t, h, call{path: "/schedule", ip: "192.0.2.1:999"})
	require.Equal(t, http.StatusTooManyRequests, rec.Code)
	require.Equal(t, `"test";q=5;w=60`, rec.Header().Get("RateLimit-Policy"))
	require.Regexp(t, `^"test";r=0;t=(59|60)$`, rec.Header().Get("RateLimit"))
	retry, err := strconv.Atoi(rec.Header().Get("Retry-After"))
	require.NoError(t, err)
	require.InDelta(t, 12, retry, 1, "one emission interval: 60 s / 5")
	var env struct {
		Data  any `json:"data"`
		Error struct {
			Code    string         `json:"code"`
			Details map[string]any `json:"details"`
		} `json:"error"`
	}
	require.NoError(t, json.Unmarshal(rec.Body.Bytes(), &env))
	require.Nil(t, env.Data)
	require.Equal(t, "RATE_LIMITED", env.Error.Code)
	require.Equal(t, float64(retry), env.Error.Details["retry_after_seconds"])
	require.Equal(t, "test", env.Error.Details["policy"])
	require.Contains(t, env.Error.Details, "request_id")
}

func TestPerIPIsolation(t *testing.T) {
	h := api(newLimits(t, pgtest.NewPool(t), limits.Config{PerIP: limits.Policy{Name: "ip", Limit: 2, Window: time.Hour}}), nil)
	exhaust := func(ip string) {
		for range 2 {
			require.Equal(t, http.StatusOK, do(t, h, call{path: "/schedule", ip: ip}).Code)
		}
		require.Equal(t, http.StatusTooManyRequests, do(t, h, call{path: "/schedule", ip: ip}).Code)
	}
	exhaust("192.0.2.1:1")
	// Another address is untouched; the port does not matter.
	exhaust("192.0.2.2:1")
	require.Equal(t, http.StatusTooManyRequests, do(t, h, call{path: "/schedule", ip: "192.0.2.1:2"}).Code)
	// IPv6 is limited per /64: another host of the same /64 shares the bucket.
	exhaust("[2001:db8:1:2::1]:443")
	require.Equal(t, http.StatusTooManyRequests, do(t, h, call{path: "/schedule", ip: "[2001:db8:1:2::ffff]:443"}).Code)
	require.Equal(t, http.StatusOK, do(t, h, call{path: "/schedule", ip: "[2001:db8:1:3::1]:443"}).Code)
	// An IPv4-mapped IPv6 peer is its IPv4 address.
	require.Equal(t, http.StatusTooManyRequests, do(t, h, call{path: "/schedule", ip: "[::ffff:192.0.2.1]:1"}).Code)
}

// TestSharedAcrossInstances runs two instances (two Limits on two pools of
// one database) concurrently: exactly the limit gets through in total.
func TestSharedAcrossInstances(t *testing.T) {
	ctx := context.Background()
	url := pgtest.New(t)
	var handlers []http.Handler
	var calls atomic.Int32
	for range 2 {
		pool, err := db.Open(ctx, url)
		require.NoError(t, err)
		t.Cleanup(pool.Close)
		handlers = append(handlers, api(newLimits(t, pool, limits.Config{PerIP: limits.Policy{Name: "shared", Limit: 10, Window: time.Hour}}), &calls))
	}
	var ok, limited atomic.Int32
	var wg sync.WaitGroup
	for i := range 40 {
		wg.Go(func() {
			switch do(t, handlers[i%2], call{path: "/schedule", ip: "198.51.100.7:1"}).Code {
			case http.StatusOK:
				ok.Add(1)
			case http.StatusTooManyRequests:
				limited.Add(1)
			}
		})
	}
	wg.Wait()
	require.Equal(t, int32(10), ok.Load())
	require.Equal(t, int32(30), limited.Load())
	require.Equal(t, int32(10), calls.Load(), "refused requests never reach the operation")
}

func TestAPIKeys(t *testing.T) {
	pool := pgtest.NewPool(t)
	var calls atomic.Int32
	h := api(newLimits(t, pool, limits.Config{
		PerKey: limits.Policy{Name: "key", Limit: 3, Window: time.Minute},
		PerIP:  limits.Policy{Name: "ip", Limit: 2, Window: time.Minute},
	}), &calls)
	key, other := uuid.NewString(), uuid.NewString()
	for i := range 3 {
		rec := do(t, h, call{path: "/schedule", ip: "192.0.2.9:1", key: key})
		require.Equal(t, http.StatusOK, rec.Code)
		require.Equal(t, `"key";q=3;w=60`, rec.Header().Get("RateLimit-Policy"))
		require.Regexp(t, `^"key";r=`+strconv.Itoa(2-i)+`;`, rec.Header().Get("RateLimit"))
	}
	rec := do(t, h, call{path: "/schedule", ip: "192.0.2.9:1", key: key})
	require.Equal(t, http.StatusTooManyRequests, rec.Code)
	require.NotEmpty(t, rec.Header().Get("Retry-After"), "set by the limiter even when the server writes the error")
	require.Contains(t, rec.Body.String(), `"retry_after_seconds":20`)
	require.Equal(t, int32(3), calls.Load())

	// Another key from the same address, and anonymous calls from it, have
	// their own windows.
	require.Equal(t, http.StatusOK, do(t, h, call{path: "/schedule", ip: "192.0.2.9:1", key: other}).Code)
	require.Equal(t, http.StatusOK, do(t, h, call{path: "/schedule", ip: "192.0.2.9:1"}).Code)

	// A key that fails authentication is not charged to anyone.
	for range 5 {
		require.Equal(t, http.StatusUnauthorized, do(t, h, call{path: "/schedule", ip: "192.0.2.10:1", key: "bad"}).Code)
	}
	require.Equal(t, http.StatusOK, do(t, h, call{path: "/schedule", ip: "192.0.2.10:1"}).Code)
}

// TestKeyWindowSharedWithMCP: the default per-key policy counts in the bucket
// MCP's limiter uses for the same key.
func TestKeyWindowSharedWithMCP(t *testing.T) {
	pool := pgtest.NewPool(t)
	h := api(newLimits(t, pool, limits.Config{}), nil)
	id := uuid.New()
	mcp := ratelimit.New(pool, 0, 0)
	for range ratelimit.DefaultLimit - 1 {
		d, err := mcp.Allow(context.Background(), ratelimit.APIKey(id))
		require.NoError(t, err)
		require.True(t, d.Allowed)
	}
	rec := do(t, h, call{path: "/schedule", key: id.String()})
	require.Equal(t, http.StatusOK, rec.Code)
	require.Equal(t, `"default";q=100;w=60`, rec.Header().Get("RateLimit-Policy"))
	require.Regexp(t, `^"default";r=0;`, rec.Header().Get("RateLimit"))
	require.Equal(t, http.StatusTooManyRequests, do(t, h, call{path: "/schedule", key: id.String()}).Code)
}

func TestOperationOverrides(t *testing.T) {
	gift := limits.Policy{Name: "gift-card", Limit: 3, Window: time.Minute}
	h := api(newLimits(t, pgtest.NewPool(t), limits.Config{
		Operations: map[string]limits.Rule{"getGiftCardBalance": {PerIP: &gift}},
	}), nil)
	for range 3 {
		rec := do(t, h, call{path: "/gift-cards/balance", ip: "203.0.113.5:1"})
		require.Equal(t, http.StatusOK, rec.Code)
		require.Equal(t, `"gift-card";q=3;w=60`, rec.Header().Get("RateLimit-Policy"))
	}
	require.Equal(t, http.StatusTooManyRequests, do(t, h, call{path: "/gift-cards/balance", ip: "203.0.113.5:1"}).Code)
	// Other operations keep the default anonymous bucket.
	rec := do(t, h, call{path: "/schedule", ip: "203.0.113.5:1"})
	require.Equal(t, http.StatusOK, rec.Code)
	require.Equal(t, `"anonymous";q=300;w=60`, rec.Header().Get("RateLimit-Policy"))

	// A credential header on an operation that does not authenticate keys is
	// no way around the IP limit: the hook charges the address.
	require.Equal(t, http.StatusTooManyRequests, do(t, h, call{path: "/gift-cards/balance", ip: "203.0.113.5:1", key: uuid.NewString()}).Code)
}

func TestUnknownRoutesCountPerIP(t *testing.T) {
	h := api(newLimits(t, pgtest.NewPool(t), limits.Config{PerIP: limits.Policy{Name: "ip", Limit: 1, Window: time.Minute}}), nil)
	require.Equal(t, http.StatusNotFound, do(t, h, call{path: "/nowhere", ip: "192.0.2.1:1"}).Code)
	require.Equal(t, http.StatusTooManyRequests, do(t, h, call{path: "/schedule", ip: "192.0.2.1:1"}).Code)
}

type brokenDB struct{}

func (brokenDB) QueryRow(context.Context, string, ...any) pgx.Row { return errRow{} }

type errRow struct{}

func (errRow) Scan(...any) error { return errors.New("connection refused") }

func TestDatabaseFailureLetsThrough(t *testing.T) {
	h := api(newLimits(t, brokenDB{}, limits.Config{}), nil)
	rec := do(t, h, call{path: "/schedule"})
	require.Equal(t, http.StatusOK, rec.Code)
	require.Empty(t, rec.Header().Get("RateLimit"))
	rec = do(t, h, call{path: "/schedule", key: uuid.NewString()})
	require.Equal(t, http.StatusOK, rec.Code)
}

func TestNewRefusesBadPolicies(t *testing.T) {
	for _, cfg := range []limits.Config{
		{PerIP: limits.Policy{Name: "x", Limit: 0, Window: time.Minute}},
		{PerIP: limits.Policy{Name: "x", Limit: 1, Window: time.Millisecond}},
		{PerIP: limits.Policy{Name: `bad"name`, Limit: 1, Window: time.Minute}},
		{PerIP: limits.Policy{Name: "", Limit: 1, Window: time.Minute}},
		{Operations: map[string]limits.Rule{"op": {PerIP: &limits.Policy{Name: "default", Limit: 5, Window: time.Minute}}}},
	} {
		_, err := limits.New(nil, cfg, nil)
		require.Error(t, err, "%+v", cfg)
	}
	_, err := limits.New(nil, limits.Config{Operations: map[string]limits.Rule{"a": {PerIP: &limits.GiftCardLookup}, "b": {PerIP: &limits.GiftCardLookup}}}, nil)
	require.NoError(t, err, "one policy may serve several operations")
}
