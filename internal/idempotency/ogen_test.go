package idempotency_test

import (
	"context"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"

	"github.com/google/uuid"
	"github.com/stretchr/testify/require"

	"github.com/venueplatform/venue/internal/apperr"
	api "github.com/venueplatform/venue/internal/gen/api"
	"github.com/venueplatform/venue/internal/httpx"
	"github.com/venueplatform/venue/internal/idempotency"
	"github.com/venueplatform/venue/internal/limits"
	"github.com/venueplatform/venue/internal/pgtest"
	"github.com/venueplatform/venue/internal/viewer"
)

// pricingAPI answers getVenuePricing and counts its runs; the other
// operations are not needed here.
type pricingAPI struct {
	api.UnimplementedHandler
	runs atomic.Int32
}

func (p *pricingAPI) GetVenuePricing(_ context.Context, params api.GetVenuePricingParams) (*api.PricingResponse, error) {
	p.runs.Add(1)
	if params.Slug == "missing" {
		return nil, apperr.NotFound("venue")
	}
	return &api.PricingResponse{Data: api.Pricing{PassTypes: []api.PricedPassType{}}}, nil
}

// NewError maps errors to the envelope, as the real handlers do.
func (p *pricingAPI) NewError(ctx context.Context, err error) *api.ErrorStatusCode {
	e := apperr.From(err)
	details := api.ErrorDetails{RequestID: httpx.RequestID(ctx)}
	if v, ok := e.Details["parameter"].(string); ok {
		details.Parameter = api.NewOptString(v)
	}
	return &api.ErrorStatusCode{StatusCode: e.Status, Response: api.ErrorResponse{Error: api.Error{Code: e.Code, Message: e.Message, Details: details}}}
}

// keySecurity accepts "<key id>" as an API key of one venue, and tells the
// rate limiter who calls as the real security handler does. The embedded
// interface keeps it compiling when the document gains security schemes.
type keySecurity struct {
	api.SecurityHandler
	venue uuid.UUID
}

func (s keySecurity) HandleApiKeyAuth(ctx context.Context, _ api.OperationName, t api.ApiKeyAuth) (context.Context, error) {
	id, err := uuid.Parse(t.APIKey)
	if err != nil {
		return nil, apperr.Unauthorized("invalid API key")
	}
	v := viewer.APIKey{Org: s.venue, KeyID: id, Scopes: []string{"read:pricing"}}
	if err := limits.Authenticated(ctx, v); err != nil {
		return nil, err
	}
	return viewer.NewContext(ctx, v), nil
}

// TestThroughTheGeneratedServer wires the Guard and the rate limits into the
// generated server exactly as internal/server does, and checks the hooks
// compose: replays (errors included) come from the table, refusals use the
// envelope, and every answer carries the rate-limit headers.
func TestThroughTheGeneratedServer(t *testing.T) {
	pool := pgtest.NewPool(t)
	h := &pricingAPI{}
	var srv *api.Server
	route := func(r *http.Request) (string, bool) {
		rt, ok := srv.FindPath(r.Method, r.URL)
		return rt.OperationID(), ok
	}
	lim, err := limits.New(pool, limits.Config{Operation: route}, nil)
	require.NoError(t, err)
	guard := idempotency.New(idempotency.NewStore(pool, 0, 0), route,
		idempotency.Registry{"getVenuePricing": idempotency.Optional(idempotency.UUID)}, idempotency.Options{})
	srv, err = api.NewServer(h, keySecurity{venue: uuid.New()},
		api.WithPathPrefix("/api/v1"),
		api.WithMiddleware(lim.Hook(), guard.Hook()),
		api.WithErrorHandler(func(ctx context.Context, w http.ResponseWriter, r *http.Request, err error) {
			httpx.WriteError(w, r, apperr.From(err))
		}))
	require.NoError(t, err)
	mux := http.NewServeMux()
	mux.Handle("/api/v1/", lim.Middleware(guard.Middleware(srv)))
	ts := httptest.NewServer(httpx.Middleware(slog.New(slog.DiscardHandler), mux))
	t.Cleanup(ts.Close)

	get := func(path, key, apiKey string) (*http.Response, string) {
		t.Helper()
		req, err := http.NewRequest(http.MethodGet, ts.URL+path, nil)
		require.NoError(t, err)
		if key != "" {
			req.Header.Set(idempotency.Header, key)
		}
		if apiKey != "" {
			req.Header.Set("X-API-Key", apiKey)
		}
		res, err := http.DefaultClient.Do(req)
		require.NoError(t, err)
		defer res.Body.Close()
		b, err := io.ReadAll(res.Body)
		require.NoError(t, err)
		if res.StatusCode != http.StatusUnauthorized { // failed authentication is not charged
			require.NotEmpty(t, res.Header.Get("RateLimit"), "every limited answer carries RateLimit")
			require.NotEmpty(t, res.Header.Get("RateLimit-Policy"))
		}
		return res, string(b)
	}

	key := uuid.NewString()
	res, first := get("/api/v1/venues/studio/pricing", key, "")
	require.Equal(t, http.StatusOK, res.StatusCode, first)
	require.Empty(t, res.Header.Get(idempotency.ReplayedHeader))
	res, again := get("/api/v1/venues/studio/pricing", key, "")
	require.Equal(t, http.StatusOK, res.StatusCode)
	require.Equal(t, "true", res.Header.Get(idempotency.ReplayedHeader))
	require.Equal(t, first, again)
	require.Equal(t, "application/json; charset=utf-8", res.Header.Get("Content-Type"))
	require.Equal(t, int32(1), h.runs.Load())

	// Another query with the key: refused through the server's error path.
	res, body := get("/api/v1/venues/studio/pricing?category=membership", key, "")
	require.Equal(t, http.StatusConflict, res.StatusCode)
	require.Contains(t, body, `"code":"IDEMPOTENCY_KEY_REUSE_MISMATCH"`)
	require.Contains(t, body, `"request_id":"req_`)

	// An error answer is replayed too.
	key = uuid.NewString()
	res, first = get("/api/v1/venues/missing/pricing", key, "")
	require.Equal(t, http.StatusNotFound, res.StatusCode)
	res, again = get("/api/v1/venues/missing/pricing", key, "")
	require.Equal(t, http.StatusNotFound, res.StatusCode)
	require.Equal(t, "true", res.Header.Get(idempotency.ReplayedHeader))
	require.Equal(t, first, again)
	require.Equal(t, int32(2), h.runs.Load())

	// A malformed key is a 400 envelope; no key at all runs unprotected.
	res, body = get("/api/v1/venues/studio/pricing", "not-a-uuid", "")
	require.Equal(t, http.StatusBadRequest, res.StatusCode)
	require.Contains(t, body, `"code":"INVALID_IDEMPOTENCY_KEY"`)
	require.Contains(t, body, `"parameter":"Idempotency-Key"`)
	get("/api/v1/venues/studio/pricing", "", "")
	require.Equal(t, int32(3), h.runs.Load())

	// The same key from an API key is another principal's; the key's calls
	// are limited under the per-key policy.
	keyID := uuid.NewString()
	res, _ = get("/api/v1/venues/studio/pricing", key, keyID)
	require.Equal(t, http.StatusOK, res.StatusCode)
	require.Empty(t, res.Header.Get(idempotency.ReplayedHeader))
	require.Equal(t, `"default";q=100;w=60`, res.Header.Get("RateLimit-Policy"))
	require.Equal(t, int32(4), h.runs.Load())
	res, _ = get("/api/v1/venues/studio/pricing", key, keyID)
	require.Equal(t, "true", res.Header.Get(idempotency.ReplayedHeader))
	require.Regexp(t, `^"default";r=98;`, res.Header.Get("RateLimit"), "replays count against the limit")

	// A wrong key is the server's 401, untouched by either hook.
	res, body = get("/api/v1/venues/studio/pricing", uuid.NewString(), "bad")
	require.Equal(t, http.StatusUnauthorized, res.StatusCode, body)
	require.Equal(t, int32(4), h.runs.Load())
	require.Empty(t, res.Header.Get("RateLimit"))
}
