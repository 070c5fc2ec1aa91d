package idempotency_test

import (
	"context"
	"errors"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/stretchr/testify/require"

	"github.com/venueplatform/venue/internal/apperr"
	"github.com/venueplatform/venue/internal/db"
	"github.com/venueplatform/venue/internal/idempotency"
	"github.com/venueplatform/venue/internal/pgtest"
)

// TestConcurrentRequestsOneEffect sends 50 requests with one key and one
// body at once, through two server instances on one database: the operation
// runs once; every other request is told the first is in flight or gets its
// answer replayed.
func TestConcurrentRequestsOneEffect(t *testing.T) {
	ctx := context.Background()
	url := pgtest.New(t)
	var effects atomic.Int32
	var envs []*env
	for range 2 {
		pool, err := db.Open(ctx, url)
		require.NoError(t, err)
		t.Cleanup(pool.Close)
		e := newEnv(t, pool, idempotency.NewStore(pool, 0, 0), idempotency.Options{})
		e.set(func(context.Context, []byte) (int, any, error) {
			time.Sleep(100 * time.Millisecond)
			return http.StatusCreated, map[string]any{"run": effects.Add(1)}, nil
		})
		envs = append(envs, e)
	}
	key := uuid.NewString()
	var created, replayed, inFlight atomic.Int32
	var wg sync.WaitGroup
	start := make(chan struct{})
	for i := range 50 {
		wg.Go(func() {
			<-start
			rec := envs[i%2].do(t, request{key: key, body: `{"item":"mat"}`})
			switch {
			case rec.Code == http.StatusCreated && rec.Header().Get("Idempotent-Replayed") == "true":
				replayed.Add(1)
			case rec.Code == http.StatusCreated:
				created.Add(1)
			case rec.Code == http.StatusConflict && strings.Contains(rec.Body.String(), `"IDEMPOTENCY_KEY_IN_USE"`):
				require.Equal(t, "1", rec.Header().Get("Retry-After"))
				inFlight.Add(1)
			default:
				t.Errorf("unexpected answer %d %s", rec.Code, rec.Body)
			}
		})
	}
	close(start)
	wg.Wait()
	require.Equal(t, int32(1), effects.Load(), "exactly one effect")
	require.Equal(t, int32(1), created.Load())
	require.Equal(t, int32(49), replayed.Load()+inFlight.Load())
	require.Positive(t, inFlight.Load(), "requests arriving during the first one are told so")

	// After the first answer every retry replays it.
	rec := envs[1].do(t, request{key: key, body: `{"item":"mat"}`})
	require.Equal(t, http.StatusCreated, rec.Code)
	require.Equal(t, "true", rec.Header().Get("Idempotent-Replayed"))
	require.JSONEq(t, `{"data":{"run":1},"error":null}`, rec.Body.String())
	require.Equal(t, int32(1), effects.Load())
}

func TestReplaysTheStoredAnswerErrorsIncluded(t *testing.T) {
	e := newTestEnv(t)
	var runs atomic.Int32
	e.set(func(context.Context, []byte) (int, any, error) {
		runs.Add(1)
		return 0, nil, (&apperr.Error{Status: http.StatusUnprocessableEntity, Code: "CAPACITY_BELOW_BOOKED", Message: "capacity below booked"}).With("booked", 12)
	})
	key := uuid.NewString()
	first := e.do(t, request{key: key, body: `{"capacity":4}`})
	requireCode(t, first, http.StatusUnprocessableEntity, "CAPACITY_BELOW_BOOKED")
	require.Empty(t, first.Header().Get("Idempotent-Replayed"))

	again := e.do(t, request{key: key, body: `{"capacity":4}`})
	require.Equal(t, http.StatusUnprocessableEntity, again.Code)
	require.Equal(t, "true", again.Header().Get("Idempotent-Replayed"))
	require.Equal(t, first.Header().Get("Content-Type"), again.Header().Get("Content-Type"))
	require.Equal(t, first.Body.String(), again.Body.String(), "byte for byte, details.request_id of the first included")
	require.NotEqual(t, first.Header().Get("X-Request-Id"), again.Header().Get("X-Request-Id"))
	require.Equal(t, int32(1), runs.Load())

	// Successful answers replay their chosen headers only.
	e.set(counter(&runs))
	key = uuid.NewString()
	ok := e.do(t, request{key: key, body: `{}`})
	require.Equal(t, "1", ok.Header().Get("X-Not-Replayed"))
	again = e.do(t, request{key: key, body: `{}`})
	require.Equal(t, http.StatusCreated, again.Code)
	require.Equal(t, "application/json; charset=utf-8", again.Header().Get("Content-Type"))
	require.Empty(t, again.Header().Get("X-Not-Replayed"))
	require.Equal(t, ok.Body.String(), again.Body.String())
}

func TestSameKeyOtherRequestIsRefused(t *testing.T) {
	e := newTestEnv(t)
	var runs atomic.Int32
	e.set(counter(&runs))
	key := uuid.NewString()
	require.Equal(t, http.StatusCreated, e.do(t, request{key: key, body: `{"amount":10}`}).Code)
	for _, r := range []request{
		{key: key, body: `{"amount":11}`},
		{key: key, body: `{"amount":10.0}`},
		{key: key, body: `{"amount":10,"note":null}`},
		{key: key, body: `{"amount":10}{}`},
		{key: key, body: `{"amount":10}`, path: "/api/v1/orders?dry_run=true"},
		{key: key, body: `{"amount":10}`, method: http.MethodPut},
	} {
		requireCode(t, e.do(t, r), http.StatusConflict, "IDEMPOTENCY_KEY_REUSE_MISMATCH")
	}
	require.Equal(t, int32(1), runs.Load())
	// The stored answer is untouched by the refusals.
	require.Equal(t, "true", e.do(t, request{key: key, body: `{"amount":10}`}).Header().Get("Idempotent-Replayed"))
}

// TestSameDocumentOtherBytesIsTheSameRequest: a client that re-serialises
// its JSON for the retry (keys in another order, other white space) sends
// the same request and gets the replay; non-JSON bodies compare as bytes.
func TestSameDocumentOtherBytesIsTheSameRequest(t *testing.T) {
	e := newTestEnv(t)
	var runs atomic.Int32
	e.set(counter(&runs))
	key := uuid.NewString()
	first := e.do(t, request{key: key, body: `{"amount":10,"lines":[{"sku":"a","qty":1}],"note":"<b>"}`})
	require.Equal(t, http.StatusCreated, first.Code)
	for _, body := range []string{
		`{"note":"<b>","lines":[{"qty":1,"sku":"a"}],"amount":10}`,
		"{\n  \"amount\": 10,\n  \"lines\": [ { \"sku\": \"a\", \"qty\": 1 } ],\n  \"note\": \"\\u003cb>\"\n}\n",
	} {
		again := e.do(t, request{key: key, body: body})
		require.Equal(t, http.StatusCreated, again.Code, body)
		require.Equal(t, "true", again.Header().Get("Idempotent-Replayed"), body)
		require.Equal(t, first.Body.String(), again.Body.String())
	}
	// Array order is part of the document.
	requireCode(t, e.do(t, request{key: key, body: `{"amount":10,"lines":[{"sku":"a","qty":1},{"sku":"b","qty":1}],"note":"<b>"}`}),
		http.StatusConflict, "IDEMPOTENCY_KEY_REUSE_MISMATCH")
	require.Equal(t, int32(1), runs.Load())

	key = uuid.NewString()
	require.Equal(t, http.StatusCreated, e.do(t, request{key: key, body: "not json"}).Code)
	require.Equal(t, "true", e.do(t, request{key: key, body: "not json"}).Header().Get("Idempotent-Replayed"))
	requireCode(t, e.do(t, request{key: key, body: "not json "}), http.StatusConflict, "IDEMPOTENCY_KEY_REUSE_MISMATCH")
}

func TestExpiry(t *testing.T) {
	e := newTestEnv(t)
	var runs atomic.Int32
	e.set(counter(&runs))
	key := uuid.NewString()
	require.Equal(t, http.StatusCreated, e.do(t, request{key: key, body: `{"a":1}`}).Code)
	var ttl time.Duration
	require.NoError(t, e.pool.QueryRow(context.Background(),
		`SELECT expires_at - now() FROM idempotency_keys`).Scan(&ttl))
	require.InDelta(t, 24*time.Hour, ttl, float64(time.Minute), "kept 24 h from the answer")

	// Past its expiry the key is ignored: even another body runs afresh.
	_, err := e.pool.Exec(context.Background(), `UPDATE idempotency_keys SET expires_at = now() - interval '1 second'`)
	require.NoError(t, err)
	rec := e.do(t, request{key: key, body: `{"a":2}`})
	require.Equal(t, http.StatusCreated, rec.Code)
	require.Empty(t, rec.Header().Get("Idempotent-Replayed"))
	require.Equal(t, int32(2), runs.Load())
	require.Equal(t, "true", e.do(t, request{key: key, body: `{"a":2}`}).Header().Get("Idempotent-Replayed"))

	// Sweep deletes expired keys only.
	require.Equal(t, http.StatusCreated, e.do(t, request{key: uuid.NewString(), body: `{}`}).Code)
	_, err = e.pool.Exec(context.Background(), `UPDATE idempotency_keys SET expires_at = now() - interval '1 second' WHERE key = $1`, key)
	require.NoError(t, err)
	n, err := e.guard.Store().Sweep(context.Background())
	require.NoError(t, err)
	require.Equal(t, int64(1), n)
	require.Equal(t, 1, e.rows(t))
}

func TestScopesAndPrincipalsAreIsolated(t *testing.T) {
	e := newTestEnv(t)
	var runs atomic.Int32
	e.set(counter(&runs))
	key := uuid.NewString()
	venueA, venueB := uuid.NewString(), uuid.NewString()
	keyA, keyB := venueA+"/"+uuid.NewString(), venueB+"/"+uuid.NewString()
	keyA2 := venueA + "/" + uuid.NewString()
	for i, r := range []request{
		{apiKey: keyA},
		{apiKey: keyB},                   // another venue
		{apiKey: keyA2},                  // another key of the same venue
		{ip: "192.0.2.1"},                // anonymous, public scope
		{ip: "192.0.2.2"},                // another address
		{ip: "192.0.2.1", venue: venueA}, // same address, a venue named by header
		{ip: "192.0.2.1", venue: venueB},
	} {
		r.key, r.body = key, `{"same":"body"}`
		rec := e.do(t, r)
		require.Equal(t, http.StatusCreated, rec.Code, "request %d: %s", i, rec.Body)
		require.Empty(t, rec.Header().Get("Idempotent-Replayed"), "request %d runs on its own", i)
		require.Equal(t, int32(i+1), runs.Load())
		// The same caller replays.
		require.Equal(t, "true", e.do(t, r).Header().Get("Idempotent-Replayed"), "request %d", i)
	}
	require.Equal(t, 7, e.rows(t))
}

func TestKeyRules(t *testing.T) {
	e := newTestEnv(t)
	var runs atomic.Int32
	e.set(counter(&runs))

	env := requireCode(t, e.do(t, request{body: `{}`}), http.StatusBadRequest, "INVALID_IDEMPOTENCY_KEY")
	require.Equal(t, "Idempotency-Key", env.Error.Details["parameter"])
	require.Equal(t, "missing", env.Error.Details["reason"])
	require.NotEmpty(t, env.Error.Details["request_id"])

	env = requireCode(t, e.do(t, request{key: "order-1", body: `{}`}), http.StatusBadRequest, "INVALID_IDEMPOTENCY_KEY")
	require.Equal(t, "format", env.Error.Details["reason"])
	require.Equal(t, "uuid", env.Error.Details["format"])

	requireCode(t, e.do(t, request{keys: []string{uuid.NewString(), uuid.NewString()}, body: `{}`}), http.StatusBadRequest, "INVALID_IDEMPOTENCY_KEY")
	requireCode(t, e.do(t, request{path: "/api/v1/returns", key: "short", body: `{}`}), http.StatusBadRequest, "INVALID_IDEMPOTENCY_KEY")
	require.Zero(t, runs.Load(), "refused requests never run")

	require.Equal(t, http.StatusCreated, e.do(t, request{path: "/api/v1/returns", key: "return:2026-11-22:0001", body: `{}`}).Code)

	// UUID keys are compared in lower case.
	u := uuid.NewString()
	require.Equal(t, http.StatusCreated, e.do(t, request{key: strings.ToUpper(u), body: `{}`}).Code)
	require.Equal(t, "true", e.do(t, request{key: u, body: `{}`}).Header().Get("Idempotent-Replayed"))

	// An optional key may be left out: each request then runs.
	before := runs.Load()
	require.Equal(t, http.StatusCreated, e.do(t, request{path: "/api/v1/notes", body: `{}`}).Code)
	require.Equal(t, http.StatusCreated, e.do(t, request{path: "/api/v1/notes", body: `{}`}).Code)
	require.Equal(t, before+2, runs.Load())
	requireCode(t, e.do(t, request{path: "/api/v1/notes", key: strings.Repeat("k", 129), body: `{}`}), http.StatusBadRequest, "INVALID_IDEMPOTENCY_KEY")
	require.Equal(t, http.StatusCreated, e.do(t, request{path: "/api/v1/notes", key: "note-1", body: `{}`}).Code)
	require.Equal(t, "true", e.do(t, request{path: "/api/v1/notes", key: "note-1", body: `{}`}).Header().Get("Idempotent-Replayed"))

	// Operations without a policy ignore the header and store nothing.
	rows := e.rows(t)
	require.Equal(t, http.StatusCreated, e.do(t, request{method: http.MethodGet, path: "/api/v1/reads", key: "anything at all"}).Code)
	require.Equal(t, rows, e.rows(t))
}

func TestServerErrorsAndPanicsReleaseTheKey(t *testing.T) {
	e := newTestEnv(t)
	var runs atomic.Int32
	var derived []string
	e.set(func(ctx context.Context, _ []byte) (int, any, error) {
		k, _ := idempotency.Derive(ctx, "stripe:payment_intent")
		derived = append(derived, k)
		switch runs.Add(1) {
		case 1:
			return 0, nil, errors.New("database went away")
		case 2:
			panic("boom")
		default:
			return http.StatusCreated, map[string]any{"ok": true}, nil
		}
	})
	key := uuid.NewString()
	requireCode(t, e.do(t, request{key: key, body: `{}`}), http.StatusInternalServerError, "INTERNAL_ERROR")
	require.Zero(t, e.rows(t), "a 5xx answer releases the key")
	requireCode(t, e.do(t, request{key: key, body: `{}`}), http.StatusInternalServerError, "INTERNAL_ERROR")
	require.Zero(t, e.rows(t), "so does a panic")
	require.Equal(t, http.StatusCreated, e.do(t, request{key: key, body: `{}`}).Code)
	require.Equal(t, "true", e.do(t, request{key: key, body: `{}`}).Header().Get("Idempotent-Replayed"))
	require.Equal(t, int32(3), runs.Load())

	// Calls to other services get the same derived key on every run.
	require.Len(t, derived, 3)
	require.Len(t, derived[0], 64)
	require.Equal(t, derived[0], derived[1])
	require.Equal(t, derived[0], derived[2])
	require.NotContains(t, derived[0], key)
}

func TestInFlightAndLockTakeover(t *testing.T) {
	pool := pgtest.NewPool(t)
	e := newEnv(t, pool, idempotency.NewStore(pool, 500*time.Millisecond, 0), idempotency.Options{})
	release := make(chan struct{})
	var runs atomic.Int32
	e.set(func(context.Context, []byte) (int, any, error) {
		n := runs.Add(1)
		if n == 1 {
			<-release
		}
		return http.StatusCreated, map[string]any{"run": n}, nil
	})
	key := uuid.NewString()
	first := make(chan int)
	go func() { first <- e.do(t, request{key: key, body: `{}`}).Code }()
	require.Eventually(t, func() bool { return runs.Load() == 1 }, 5*time.Second, 5*time.Millisecond)

	rec := e.do(t, request{key: key, body: `{}`})
	requireCode(t, rec, http.StatusConflict, "IDEMPOTENCY_KEY_IN_USE")
	require.Equal(t, "1", rec.Header().Get("Retry-After"))
	requireCode(t, e.do(t, request{key: key, body: `{"other":1}`}), http.StatusConflict, "IDEMPOTENCY_KEY_REUSE_MISMATCH")

	// The first request outlives its lock (as if its instance died): a retry
	// takes the key over and its answer is the one kept.
	time.Sleep(600 * time.Millisecond)
	rec = e.do(t, request{key: key, body: `{}`})
	require.Equal(t, http.StatusCreated, rec.Code)
	require.JSONEq(t, `{"data":{"run":2},"error":null}`, rec.Body.String())
	close(release)
	require.Equal(t, http.StatusCreated, <-first)
	require.Contains(t, e.logs.String(), "claim lost")
	rec = e.do(t, request{key: key, body: `{}`})
	require.Equal(t, "true", rec.Header().Get("Idempotent-Replayed"))
	require.JSONEq(t, `{"data":{"run":2},"error":null}`, rec.Body.String())
}

func TestOversizedAnswersAreNotStored(t *testing.T) {
	pool := pgtest.NewPool(t)
	e := newEnv(t, pool, idempotency.NewStore(pool, 0, 0), idempotency.Options{MaxResponseBytes: 64})
	var runs atomic.Int32
	e.set(func(context.Context, []byte) (int, any, error) {
		runs.Add(1)
		return http.StatusCreated, strings.Repeat("x", 100), nil
	})
	key := uuid.NewString()
	require.Equal(t, http.StatusCreated, e.do(t, request{key: key, body: `{}`}).Code)
	require.Zero(t, e.rows(t))
	require.Equal(t, http.StatusCreated, e.do(t, request{key: key, body: `{}`}).Code)
	require.Equal(t, int32(2), runs.Load())
	require.Contains(t, e.logs.String(), "too large")
}

// TestMissingHookIsLogged: a Guard whose ogen hook was never installed
// cannot protect anything; it says so instead of failing silently.
func TestMissingHookIsLogged(t *testing.T) {
	pool := pgtest.NewPool(t)
	var logs strings.Builder
	g := idempotency.New(idempotency.NewStore(pool, 0, 0), route, policies,
		idempotency.Options{Log: slog.New(slog.NewTextHandler(&logs, nil))})
	h := g.Middleware(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.WriteHeader(http.StatusCreated)
	}))
	req := httptest.NewRequest(http.MethodPost, "/api/v1/orders", strings.NewReader(`{}`))
	req.Header.Set(idempotency.Header, uuid.NewString())
	h.ServeHTTP(httptest.NewRecorder(), req)
	require.Contains(t, logs.String(), "is Guard.Hook installed")
}

// A policy names the code of a malformed key: the refusal carries it, runs
// nothing and stores nothing; a missing key keeps the layer's code, and a
// good key runs and replays as under any policy.
func TestPolicyInvalidCode(t *testing.T) {
	e := newTestEnv(t)
	var runs atomic.Int32
	e.set(counter(&runs))
	const path = "/api/v1/setups"

	for _, r := range []request{
		{path: path, key: "not-a-uuid", body: `{}`},
		{path: path, key: uuid.NewString() + "0", body: `{}`},
		{path: path, keys: []string{uuid.NewString(), uuid.NewString()}, body: `{}`},
	} {
		env := requireCode(t, e.do(t, r), http.StatusBadRequest, "IDEMPOTENCY_KEY_INVALID")
		require.Equal(t, "Idempotency-Key", env.Error.Details["parameter"])
		require.Equal(t, "uuid", env.Error.Details["format"])
	}
	requireCode(t, e.do(t, request{path: path, body: `{}`}), http.StatusBadRequest, "INVALID_IDEMPOTENCY_KEY")
	require.Zero(t, runs.Load(), "refused requests never run")
	require.Zero(t, e.rows(t), "refused requests claim no key")

	// Other policies keep the layer's code.
	requireCode(t, e.do(t, request{key: "order-1", body: `{}`}), http.StatusBadRequest, "INVALID_IDEMPOTENCY_KEY")

	u := uuid.NewString()
	require.Equal(t, http.StatusCreated, e.do(t, request{path: path, key: u, body: `{}`}).Code)
	require.Equal(t, "true", e.do(t, request{path: path, key: strings.ToUpper(u), body: `{}`}).Header().Get("Idempotent-Replayed"))
	require.Equal(t, int32(1), runs.Load())
}
