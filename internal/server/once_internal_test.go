package server

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/stretchr/testify/require"

	"github.com/venueplatform/venue/internal/accounts"
	"github.com/venueplatform/venue/internal/apikey"
	"github.com/venueplatform/venue/internal/db"
	"github.com/venueplatform/venue/internal/idempotency"
	"github.com/venueplatform/venue/internal/members"
	"github.com/venueplatform/venue/internal/pgtest"
	"github.com/venueplatform/venue/internal/ratelimit"
	"github.com/venueplatform/venue/internal/scope"
	"github.com/venueplatform/venue/internal/venue"
	"github.com/venueplatform/venue/internal/viewer"
)

// counter counts the statements one request sends to the rate limit's and
// the idempotency store's tables: a charge is one GCRA statement, a claim
// one claim statement (sequential requests never retry a claim).
type counter struct {
	*pgxpool.Pool
	mu              sync.Mutex
	charges, claims int
}

func (c *counter) QueryRow(ctx context.Context, sql string, args ...any) pgx.Row {
	c.mu.Lock()
	switch {
	case strings.Contains(sql, "INSERT INTO rate_limits"):
		c.charges++
	case strings.Contains(sql, "INSERT INTO idempotency_keys"):
		c.claims++
	}
	c.mu.Unlock()
	return c.Pool.QueryRow(ctx, sql, args...)
}

func (c *counter) Exec(ctx context.Context, sql string, args ...any) (pgconn.CommandTag, error) {
	return c.Pool.Exec(ctx, sql, args...)
}

func (c *counter) reset() (charges, claims int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	charges, claims = c.charges, c.claims
	c.charges, c.claims = 0, 0
	return charges, claims
}

// TestChargedAndClaimedOncePerRequest: whichever way a request is
// authenticated (none, an API key, a user's bearer token, a credential the
// operation ignores) and whatever it is answered, it charges the rate limit
// at most once, to the bucket the limits package documents, and claims its
// Idempotency-Key at most once.
func TestChargedAndClaimedOncePerRequest(t *testing.T) {
	pool := pgtest.NewPool(t)
	cnt := &counter{Pool: pool}
	prevRate, prevKeys := rateStore, keyStore
	rateStore = func(*pgxpool.Pool) ratelimit.Querier { return cnt }
	keyStore = func(*pgxpool.Pool) idempotency.DB { return cnt }
	t.Cleanup(func() { rateStore, keyStore = prevRate, prevKeys })

	ctx := context.Background()
	client := db.NewClient(pool)
	v, err := venue.Create(ctx, client, venue.CreateParams{Name: "Once", Slug: "once", APIEnabled: true})
	require.NoError(t, err)
	op := viewer.NewContext(ctx, viewer.Operator{Org: v.ID, Name: "test"})
	reads, err := apikey.Create(op, client, apikey.CreateParams{Name: "reads", Scopes: scope.Reads()})
	require.NoError(t, err)
	_, err = members.Enroll(op, client, members.EnrollParams{Email: "owner@example.com", Role: "staff"})
	require.NoError(t, err)
	writes, err := apikey.Create(op, client, apikey.CreateParams{Name: "writes",
		Scopes: []string{scope.ReadSchedule, scope.WriteSchedule}, CreatedBy: "owner@example.com"})
	require.NoError(t, err)
	acct, err := accounts.New(client, accounts.Config{})
	require.NoError(t, err)
	h, err := New(Deps{Pool: pool, Client: client, Accounts: acct, Log: slog.New(slog.DiscardHandler)})
	require.NoError(t, err)
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)

	do := func(method, path, body string, header map[string]string) *http.Response {
		t.Helper()
		req, err := http.NewRequest(method, srv.URL+path, strings.NewReader(body))
		require.NoError(t, err)
		if body != "" {
			req.Header.Set("Content-Type", "application/json")
		}
		for k, v := range header {
			req.Header.Set(k, v)
		}
		res, err := http.DefaultClient.Do(req)
		require.NoError(t, err)
		t.Cleanup(func() { res.Body.Close() })
		return res
	}

	// A user signs up (an anonymous call, charged once per address).
	cnt.reset()
	res := do(http.MethodPost, "/api/v1/auth/signup", `{"email":"once@example.com","password":"correct horse battery"}`, nil)
	require.Equal(t, http.StatusCreated, res.StatusCode)
	var session struct {
		Data struct {
			AccessToken string `json:"access_token"`
		} `json:"data"`
	}
	require.NoError(t, json.NewDecoder(res.Body).Decode(&session))
	require.NotEmpty(t, session.Data.AccessToken)
	bearer := "Bearer " + session.Data.AccessToken
	charges, claims := cnt.reset()
	require.Equal(t, [2]int{1, 0}, [2]int{charges, claims}, "signup")

	joinKey, bookKey := uuid.NewString(), uuid.NewString()
	booking := `{"class_instance_id":"` + uuid.NewString() + `"}`
	for _, c := range []struct {
		name, method, path, body string
		header                   map[string]string
		status                   int
		// policy is the RateLimit-Policy name of the charged bucket ("" when
		// the request is not charged); charges and claims are the counts.
		policy          string
		charges, claims int
		replayed        bool
	}{
		// Anonymous: charged per address before anything else runs.
		{"anonymous public read", "GET", "/api/v1/venues", "", nil, 200, "anonymous", 1, 0, false},
		{"anonymous unknown path", "GET", "/api/v1/nowhere", "", nil, 404, "anonymous", 1, 0, false},
		{"anonymous on an authenticated operation", "GET", "/api/v1/me", "", nil, 401, "anonymous", 1, 0, false},
		{"anonymous idempotent write", "POST", "/api/v1/venues/once/join", `{"consent":true}`,
			map[string]string{"Idempotency-Key": uuid.NewString()}, 401, "anonymous", 1, 0, false},
		{"anonymous malformed parameter", "GET", "/api/v1/venues/once/schedule?from=nope", "", nil, 400, "anonymous", 1, 0, false},

		// API key: charged to the key once authenticated, not when refused.
		{"API key", "GET", "/api/v1/venues/once/schedule", "", map[string]string{"X-API-Key": reads.Secret}, 200, "default", 1, 0, false},
		{"API key, malformed parameter", "GET", "/api/v1/venues/once/schedule?from=nope", "", map[string]string{"X-API-Key": reads.Secret}, 400, "default", 1, 0, false},
		{"JWT on a public operation, malformed parameter", "GET", "/api/v1/venues?lat=nope", "", map[string]string{"Authorization": "Bearer nope"}, 400, "", 0, 0, false},
		{"API key without the scope", "POST", "/api/v1/bookings", booking,
			map[string]string{"X-API-Key": reads.Secret, "Idempotency-Key": bookKey}, 403, "default", 1, 0, false},
		{"API key, idempotent write", "POST", "/api/v1/bookings", booking,
			map[string]string{"X-API-Key": writes.Secret, "Idempotency-Key": bookKey}, 0, "default", 1, 1, false},
		{"API key, replay", "POST", "/api/v1/bookings", booking,
			map[string]string{"X-API-Key": writes.Secret, "Idempotency-Key": bookKey}, 0, "default", 1, 1, true},
		{"API key on a bearer-only idempotent write (refused before the limit)", "POST", "/api/v1/venues/once/join", `{"consent":true}`,
			map[string]string{"X-API-Key": writes.Secret, "Idempotency-Key": uuid.NewString()}, 401, "", 0, 0, false},
		{"bad API key", "GET", "/api/v1/venues/once/schedule", "", map[string]string{"X-API-Key": "vk_bad_key"}, 401, "", 0, 0, false},

		// Bearer token: charged to the user once verified.
		{"JWT", "GET", "/api/v1/me", "", map[string]string{"Authorization": bearer}, 200, "default", 1, 0, false},
		{"JWT, idempotent write", "POST", "/api/v1/venues/once/join", `{"consent":true}`,
			map[string]string{"Authorization": bearer, "Idempotency-Key": joinKey}, 0, "default", 1, 1, false},
		{"JWT, replay", "POST", "/api/v1/venues/once/join", `{"consent":true}`,
			map[string]string{"Authorization": bearer, "Idempotency-Key": joinKey}, 0, "default", 1, 1, true},
		{"JWT, idempotent write without its key", "POST", "/api/v1/venues/once/join", `{"consent":true}`,
			map[string]string{"Authorization": bearer}, 400, "default", 1, 0, false},
		{"bad JWT", "GET", "/api/v1/me", "", map[string]string{"Authorization": "Bearer nope"}, 401, "", 0, 0, false},
		{"bad JWT on an idempotent write", "POST", "/api/v1/venues/once/join", `{"consent":true}`,
			map[string]string{"Authorization": "Bearer nope", "Idempotency-Key": uuid.NewString()}, 401, "", 0, 0, false},

		// Both credentials: refused, after the one that authenticated first
		// was charged.
		{"both credentials, bearer-only operation", "GET", "/api/v1/me", "",
			map[string]string{"Authorization": bearer, "X-API-Key": reads.Secret}, 401, "default", 1, 0, false},
		{"both credentials on an idempotent write", "POST", "/api/v1/venues/once/join", `{"consent":true}`,
			map[string]string{"Authorization": bearer, "X-API-Key": reads.Secret, "Idempotency-Key": uuid.NewString()}, 401, "default", 1, 0, false},
		{"both credentials, operation taking either", "POST", "/api/v1/bookings", booking,
			map[string]string{"Authorization": bearer, "X-API-Key": writes.Secret, "Idempotency-Key": bookKey}, 401, "default", 1, 0, false},

		// A credential the operation ignores: charged per address once the
		// operation is about to run; a bad key is refused uncharged.
		{"API key on a public operation", "GET", "/api/v1/venues", "", map[string]string{"X-API-Key": reads.Secret}, 200, "anonymous", 1, 0, false},
		{"JWT on a public operation", "GET", "/api/v1/venues", "", map[string]string{"Authorization": bearer}, 200, "anonymous", 1, 0, false},
		{"bad API key on a public operation", "GET", "/api/v1/venues", "", map[string]string{"X-API-Key": "vk_bad_key"}, 401, "", 0, 0, false},
		{"JWT on a key-only operation", "GET", "/api/v1/venues/once/schedule", "", map[string]string{"Authorization": bearer}, 200, "anonymous", 1, 0, false},
		{"bad JWT on /me/minimal", "GET", "/api/v1/me/minimal", "", map[string]string{"Authorization": "Bearer nope"}, 200, "anonymous", 1, 0, false},
	} {
		cnt.reset()
		res := do(c.method, c.path, c.body, c.header)
		_, _ = io.Copy(io.Discard, res.Body)
		if c.status != 0 {
			require.Equal(t, c.status, res.StatusCode, c.name)
		} else {
			require.Less(t, res.StatusCode, 500, c.name)
		}
		charges, claims := cnt.reset()
		require.Equal(t, c.charges, charges, "%s: rate limit charges", c.name)
		require.Equal(t, c.claims, claims, "%s: idempotency claims", c.name)
		if c.policy == "" {
			require.Empty(t, res.Header.Get("RateLimit-Policy"), c.name)
		} else {
			require.True(t, strings.HasPrefix(res.Header.Get("RateLimit-Policy"), `"`+c.policy+`";`),
				"%s: policy %q", c.name, res.Header.Get("RateLimit-Policy"))
		}
		require.Equal(t, c.replayed, res.Header.Get(idempotency.ReplayedHeader) == "true", c.name)
	}
}
