// Package server assembles the HTTP service: REST under /api/v1 (the
// generated server), MCP at /api/mcp, health and readiness probes, and the
// OpenAPI document, behind one middleware chain (request ids, JSON access
// logs, panic recovery, the API version header and a body cap).
package server

import (
	"context"
	"encoding/json"
	"github.com/venueplatform/venue/internal/media"
	"log/slog"
	"net/http"
	"net/netip"
	"net/url"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/venueplatform/venue/ent"
	"github.com/venueplatform/venue/internal/accounts"
	"github.com/venueplatform/venue/internal/apperr"
	"github.com/venueplatform/venue/internal/auth"
	"github.com/venueplatform/venue/internal/codemail"
	"github.com/venueplatform/venue/internal/config"
	api "github.com/venueplatform/venue/internal/gen/api"
	"github.com/venueplatform/venue/internal/gen/openapi"
	"github.com/venueplatform/venue/internal/handlers"
	"github.com/venueplatform/venue/internal/httpx"
	"github.com/venueplatform/venue/internal/idempotency"
	"github.com/venueplatform/venue/internal/limits"
	"github.com/venueplatform/venue/internal/me"
	"github.com/venueplatform/venue/internal/ratelimit"
	"github.com/venueplatform/venue/internal/venuectx"
	"github.com/venueplatform/venue/internal/webhooks"
)

// Deps are what the service runs on.
type Deps struct {
	Pool   *pgxpool.Pool
	Client *ent.Client
	Log    *slog.Logger
	// MCP serves POST /api/mcp; nil answers 404.
	MCP http.Handler
	// Geo says which trusted proxy headers carry the caller's location; nil
	// takes handlers.DefaultGeoConfig.
	Geo *handlers.GeoConfig
	// TrustedProxies may set ClientIPHeader (default X-Forwarded-For) to
	// name the client address used by per-IP limits and idempotency.
	TrustedProxies []netip.Prefix
	ClientIPHeader string
	// Settings is the configuration the parts built here take their
	// settings from (sign-in, code e-mail, cursors, inquiries, webhooks,
	// embed origins); nil takes config.Default.
	Settings *config.Config
	// Accounts runs sign-in and sessions; nil builds one from
	// Settings.Tokens (accounts.ConfigFrom).
	Accounts *accounts.Service
	// Codes delivers the one-time codes of an Accounts built here; nil
	// builds one from Settings.SMTP and Settings.Mail over DataDir.
	Codes accounts.CodeSink
	// DataDir is the server's data folder: without an SMTP server, codes are
	// written into its "mail" folder (codemail.MailDir).
	DataDir string
	// EmbedOrigins may call GET /api/v1/me/minimal from a browser (CORS);
	// nil takes Settings.Embed.Origins (VENUE_EMBED_ORIGINS).
	EmbedOrigins []string
}

// idempotencyPolicies says which operations take an Idempotency-Key and in
// what format; mutations register here as they are added.
var idempotencyPolicies = idempotency.Registry{
	// POST /venues/{slug}/join: 1 to 200 characters (spec/api.yaml).
	"joinVenue": idempotency.Required(idempotency.Max200),
}

// rateStore and keyStore are the databases of the rate limit and of the
// idempotency keys (variables so a test can count what one request does).
var (
	rateStore = func(p *pgxpool.Pool) ratelimit.Querier { return p }
	keyStore  = func(p *pgxpool.Pool) idempotency.DB { return p }
)

// findRoute is the router lookup of httpx.FindOperation (a variable so a test
// can count the lookups of one request).
var findRoute = (*api.Server).FindPath

// New returns the service's root handler.
func New(d Deps) (http.Handler, error) {
	cfg := config.Default()
	if d.Settings != nil {
		cfg = *d.Settings
	}
	hooks, err := webhooks.FromConfig(cfg.Webhooks)
	if err != nil {
		return nil, err
	}
	box, err := sealingBox(cfg.Webhooks)
	if err != nil {
		return nil, err
	}
	authn := auth.New(d.Client)
	var rest *api.Server
	// The route is found once per request (httpx.FindOperation, outermost in
	// the REST chain); everything below reads the operation from the context.
	find := func(method string, u *url.URL) (string, bool) {
		rt, ok := findRoute(rest, method, u)
		return rt.OperationID(), ok
	}
	route := httpx.Operation
	clientIP := limits.NewClientIP(d.ClientIPHeader, d.TrustedProxies)
	lim, err := limits.New(rateStore(d.Pool), limits.Config{
		Operation:  route,
		ClientIP:   clientIP.String,
		Operations: operationLimits,
	}, d.Log)
	if err != nil {
		return nil, err
	}
	idem := idempotency.New(idempotency.NewStore(keyStore(d.Pool), 0, 0), route, idempotencyPolicies,
		idempotency.Options{ClientIP: clientIP.String, Log: d.Log})
	acct := d.Accounts
	if acct == nil {
		acfg, err := accounts.ConfigFrom(cfg.Tokens, d.Log)
		if err != nil {
			return nil, err
		}
		if acfg.Sink == nil {
			acfg.Sink = codeSink(d, cfg)
		}
		if acct, err = accounts.New(d.Client, acfg); err != nil {
			return nil, err
		}
	}
	pay := paymentsService(d, cfg)
	med := mediaService(d)
	h := handlers.New(d.Client, authn, d.Log).WithAccounts(acct).WithConfig(handlers.Settings{
		Cursors: cfg.Cursors, Inquiries: cfg.Inquiries, WebhookSender: hooks.Sender, SecretBox: box, Media: med}).WithPayments(pay)
	rest, err = handlers.NewServer(h,
		api.WithMiddleware(auth.CredentialGuard(), authn.KeyGuard(), lim.Hook(), venuectx.Guard(d.Client, mfaRequired(acct)), idem.Hook()))
	if err != nil {
		return nil, err
	}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /healthz", func(w http.ResponseWriter, _ *http.Request) {
		writeJSON(w, http.StatusOK, map[string]string{"status": "ok"})
	})
	mux.HandleFunc("GET /readyz", func(w http.ResponseWriter, r *http.Request) {
		ctx, cancel := context.WithTimeout(r.Context(), 2*time.Second)
		defer cancel()
		if err := d.Pool.Ping(ctx); err != nil {
			writeJSON(w, http.StatusServiceUnavailable, map[string]string{"status": "unavailable", "database": "unreachable"})
			return
		}
		writeJSON(w, http.StatusOK, map[string]string{"status": "ready"})
	})
	mux.HandleFunc("GET /api/v1/openapi.json", func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write(openapi.JSON)
	})
	mux.Handle("POST "+PaymentEventsPath, paymentEvents(pay, d.Log))
	mux.Handle("PUT "+media.UploadPrefix+"{token}", mediaUpload(med))
	mux.Handle("GET "+media.PublicPrefix+"{key...}", mediaFiles(med))
	if d.MCP != nil {
		mux.Handle("/api/mcp", httpx.StreamWrites(cfg.Timeouts.Write, d.MCP))
	}
	geo := handlers.DefaultGeoConfig()
	if d.Geo != nil {
		geo = *d.Geo
	}
	embed := d.EmbedOrigins
	if embed == nil {
		embed = cfg.Embed.Origins
	}
	// One REST request meets each concern once, in this order: the body cap
	// and the default version header (httpx.Middleware, below), the route
	// (FindOperation: the only router lookup besides the generated server's
	// own dispatch), the body's charset (UTF8Only, before anything reads
	// it), the version the request pins (APIVersion), the venue header, the
	// JWT-only gate, then the rate limit and idempotency, one component each
	// (TestChargedAndClaimedOncePerRequest counts their work).
	//
	// The rate limit is lim.Middleware: it holds the request's meter, which
	// decides the bucket in one place and charges once, when the caller is
	// known: here for a request without a credential header (per address,
	// before anything else answers); when the security handler calls
	// limits.Authenticated (per principal, before its scope and second-factor
	// refusals); or, for a credential the operation ignores, in lim.Hook as
	// the operation is about to run (per address, after auth.KeyGuard refused
	// a bad key uncharged). One moment for all three would reorder answers
	// against the limit (package limits says how), so the trigger is not one
	// point, the decision is.
	//
	// Idempotency is idem.Middleware: it hashes the request and records,
	// stores or replays the answer (only a net/http wrapper sees the bytes);
	// it claims the key once, in idem.Hook, because the claim needs the caller
	// and a request that decoded, both known only inside the generated server.
	mux.Handle("/api/v1/", responseFloor("/api/v1/auth/account-state", accounts.StateFloor, me.CORS("/api/v1/me/minimal", embed,
		httpx.FindOperation(find, httpx.UTF8Only(httpx.Gate(handlers.PathNotFound, httpx.APIVersion(venuectx.SlugAsID(d.Client)(auth.JWTOnlyGate(route,
			handlers.GeoMiddleware(geo, lim.Middleware(idem.Middleware(rest))))))))))))
	// The subtree pattern above would redirect /api/v1 to /api/v1/: answer it.
	mux.HandleFunc("/api/v1", func(w http.ResponseWriter, r *http.Request) {
		httpx.WriteError(w, r, apperr.NotFound("route"))
	})
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		httpx.WriteError(w, r, apperr.NotFound("route"))
	})
	// A non-canonical path is 404 before the mux can redirect it; a body gets
	// the body timeout (package httpx).
	return httpx.Middleware(d.Log, httpx.CanonicalPath(httpx.BodyDeadline(cfg.Timeouts.Body, mux))), nil
}

// mfaRequired refuses a staff call in a venue chosen by the venue header
// (venuectx.Guard) from a session past only the password of a user with a
// second factor: 403 MFA_REQUIRED, as the bearer security handler does for
// the active venue.
func mfaRequired(acct *accounts.Service) func(context.Context, uuid.UUID) error {
	return func(ctx context.Context, uid uuid.UUID) error {
		enabled, err := acct.MFAEnabled(ctx, uid)
		if err != nil {
			return err
		}
		if enabled {
			return accounts.ErrMFARequired
		}
		return nil
	}
}

// codeSink is d.Codes, or the sink the configuration asks for: e-mail over
// SMTP, else files in the mail folder of d.DataDir.
func codeSink(d Deps, cfg config.Config) accounts.CodeSink {
	if d.Codes != nil {
		return d.Codes
	}
	return codemail.FromConfig(cfg.SMTP, cfg.Mail, d.DataDir, d.Log)
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}
