package server

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/riverqueue/river"

	"github.com/venueplatform/venue/ent"
	"github.com/venueplatform/venue/internal/codemail"
	"github.com/venueplatform/venue/internal/config"
	"github.com/venueplatform/venue/internal/db"
	"github.com/venueplatform/venue/internal/handlers"
	"github.com/venueplatform/venue/internal/idempotency"
	"github.com/venueplatform/venue/internal/jobs"
	"github.com/venueplatform/venue/internal/pglocal"
	"github.com/venueplatform/venue/internal/platform"
)

// ShutdownGrace is how long requests in flight may finish after a stop signal.
const ShutdownGrace = 15 * time.Second

// Config is the server's configuration (operations.md).
type Config struct {
	Addr        string
	DatabaseURL string
	DataDir     string
	Migrate     bool
	// Demo creates the demo venue when the database has no venue. Nil means
	// the default: on with the managed database, off otherwise.
	Demo *bool
	// EnsureDemo creates the demo venue when the database has none (see
	// package demo); it runs when Demo is on.
	EnsureDemo func(ctx context.Context, pool *pgxpool.Pool, client *ent.Client) (*DemoVenue, error)
	// MCP builds the MCP handler once the database is up; nil disables MCP.
	// A handler with a Close(context.Context) error method is closed on a
	// graceful shutdown, after requests in flight have finished.
	MCP func(d Deps) http.Handler
	// Ready, when set, receives the listening address once the server accepts
	// connections.
	Ready func(addr string)
	// RegisterWorkers adds further River workers (notifications, renewals) to the
	// server's job client, next to webhook delivery; nil adds none.
	RegisterWorkers func(d Deps, w *river.Workers) error
	// Settings are the rest of the configuration (sign-in, e-mail, proxies,
	// webhooks, ...), parsed at start (package config); nil takes
	// config.Default. Its installation secrets left empty are filled from
	// the database once it is reachable.
	Settings *config.Config
}

// DemoVenue is what the demo bootstrap reports: the venue's slug, the key it
// issued, and whether it created the venue now (the banner prints only then).
type DemoVenue struct {
	Slug    string
	Key     string
	Created bool
	// OwnerEmail is the demo owner's account (enrolled, no password yet).
	OwnerEmail string
}

// Run starts the service and blocks until ctx is cancelled, then drains
// requests in flight (up to ShutdownGrace) and releases the database. The
// demo banner goes to out; logs go to log.
func Run(ctx context.Context, cfg Config, out io.Writer, log *slog.Logger) (err error) {
	settings := config.Default()
	if cfg.Settings != nil {
		settings = *cfg.Settings
	}
	url := cfg.DatabaseURL
	demoOn := cfg.DatabaseURL == ""
	if cfg.Demo != nil {
		demoOn = *cfg.Demo
	}
	if url == "" {
		log.Info("starting the managed local PostgreSQL", "data_dir", cfg.DataDir)
		cluster, err := pglocal.Start(ctx, pglocal.Options{DataDir: cfg.DataDir, Logger: log})
		if err != nil {
			return fmt.Errorf("managed database: %w", err)
		}
		defer func() {
			stopCtx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()
			if serr := cluster.Stop(stopCtx); serr != nil {
				log.Error("stop managed database", "error", serr)
			}
		}()
		url = cluster.URL("venue")
	}
	pool, err := db.Open(ctx, url)
	if err != nil {
		return fmt.Errorf("database: %w", err)
	}
	defer pool.Close()
	if cfg.Migrate {
		applied, err := db.Migrate(ctx, pool)
		if err != nil {
			return fmt.Errorf("migrate: %w", err)
		}
		log.Info("migrations applied", "applied", applied)
		riverApplied, err := jobs.Migrate(ctx, pool)
		if err != nil {
			return fmt.Errorf("migrate: %w", err)
		}
		log.Info("job queue migrations applied", "applied", riverApplied)
	}
	client := db.NewClient(pool)
	// Secrets the flags and environment leave unset come from the database
	// (generated on the first start), so every instance and restart shares them.
	filled, err := settings.FillSecrets(func(s config.Setting) (string, error) {
		return platform.EnsureSecret(ctx, client, platform.SecretSpec{Env: s.Env, Bytes: s.InstallBytes})
	})
	if err != nil {
		return err
	}
	if len(filled) > 0 {
		log.Info("installation secrets taken from the database", "variables", filled)
	}
	// One-time codes (sign-in, password reset): e-mail sends run in the background,
	// so they get the shutdown grace to finish once requests have drained.
	codes := codemail.FromConfig(settings.SMTP, settings.Mail, cfg.DataDir, log)
	defer func() {
		waitCtx, cancel := context.WithTimeout(context.Background(), ShutdownGrace)
		defer cancel()
		if werr := codes.Close(waitCtx); werr != nil {
			log.Warn("code e-mails unsent at shutdown", "error", werr)
		}
	}()
	deps := Deps{Pool: pool, Client: client, Log: log, Codes: codes, DataDir: cfg.DataDir, Settings: &settings}
	proxyConfig(&deps, settings.Proxy)
	cfg.RegisterWorkers = withNotifyWorker(settings.SMTP, cfg.RegisterWorkers) // notification delivery (notify.go)
	cfg.RegisterWorkers = withPaymentsWorker(settings, cfg.RegisterWorkers)    // payment events and reconcile (payments.go)
	stopJobs, err := startJobs(ctx, cfg, settings, deps)
	if err != nil {
		return err
	}
	// Jobs stop after the HTTP server has drained (a request may still enqueue) and
	// before the database goes.
	defer stopJobs()
	runNotifyRelay(ctx, deps)
	runInquiryRedelivery(ctx, settings.Inquiries, deps) // undelivered booking inquiries (inquiries.go)
	// Attempts a dead server left in flight go to reconcile (payments.go).
	go every(ctx, log, time.Minute, "stale payment attempts", paymentsService(deps, settings).SweepStale)
	// Holds that lapsed unpaid give back what they held (holds.go).
	runLapsedHoldSweep(ctx, deps, settings)
	runLateFeeSweep(ctx, deps, settings) // renewals unpaid past the grace days get their late fee (billing_late_fees.go)
	// Expired idempotency keys are swept hourly by every instance (cheap and idempotent).
	keys := idempotency.NewStore(pool, 0, 0)
	go every(ctx, log, time.Hour, "expired idempotency keys", func(ctx context.Context) (int, error) {
		n, err := keys.Sweep(ctx)
		return int(n), err
	})
	// Staged uploads never finalized (media.go).
	go every(ctx, log, 10*time.Minute, "staged uploads", mediaService(deps).SweepStaged)
	runServiceImageSweep(ctx, deps, log) // published service images no service names any more (media.go)
	if cfg.MCP != nil {
		deps.MCP = cfg.MCP(deps)
		// The MCP endpoint queues the audit entries of read-only tool calls;
		// they are written once the HTTP server has drained (defers run after
		// srv.Shutdown below) and before the jobs and the database go.
		if c, ok := deps.MCP.(interface{ Close(context.Context) error }); ok {
			defer func() {
				closeCtx, cancel := context.WithTimeout(context.Background(), ShutdownGrace)
				defer cancel()
				if cerr := c.Close(closeCtx); cerr != nil {
					log.Error("MCP audit entries unwritten at shutdown", "error", cerr)
				}
			}()
		}
	}
	handler, err := New(deps)
	if err != nil {
		return err
	}
	ln, err := net.Listen("tcp", cfg.Addr)
	if err != nil {
		return fmt.Errorf("listen: %w", err)
	}
	base := "http://" + ln.Addr().String()
	if demoOn && cfg.EnsureDemo != nil {
		res, err := cfg.EnsureDemo(ctx, pool, client)
		if err != nil {
			ln.Close()
			return fmt.Errorf("demo venue: %w", err)
		}
		if res.Created {
			printBanner(out, base, res, codes.Dir())
		}
	}
	srv := NewHTTPServer(handler, settings.Timeouts, log)
	serveErr := make(chan error, 1)
	go func() { serveErr <- srv.Serve(ln) }()
	log.Info("listening", "addr", ln.Addr().String(), "rest", base+"/api/v1", "mcp", base+"/api/mcp")
	if cfg.Ready != nil {
		cfg.Ready(ln.Addr().String())
	}
	select {
	case err := <-serveErr:
		return fmt.Errorf("serve: %w", err)
	case <-ctx.Done():
	}
	log.Info("shutting down", "grace", ShutdownGrace.String())
	shutCtx, cancel := context.WithTimeout(context.Background(), ShutdownGrace)
	defer cancel()
	if err := srv.Shutdown(shutCtx); err != nil && !errors.Is(err, http.ErrServerClosed) {
		return fmt.Errorf("shutdown: %w", err)
	}
	log.Info("stopped")
	return nil
}

// NewHTTPServer returns the http.Server of handler with the connection
// timeouts t (package config, VENUE_*_TIMEOUT). The body timeout is not
// here: it is per request (httpx.BodyDeadline, in New), since
// http.Server.ReadTimeout would also cut answers that run long after a quick
// body. WriteTimeout counts from the end of the request headers; routes that
// stream lift it for a per-write limit (httpx.StreamWrites).
// "OPTIONS *" reaches handler (which answers it 404 in the error envelope)
// instead of net/http's bare 200.
func NewHTTPServer(handler http.Handler, t config.Timeouts, log *slog.Logger) *http.Server {
	return &http.Server{
		Handler:                      handler,
		ReadHeaderTimeout:            t.ReadHeader,
		WriteTimeout:                 t.Write,
		IdleTimeout:                  t.Idle,
		DisableGeneralOptionsHandler: true,
		ErrorLog:                     slog.NewLogLogger(log.Handler(), slog.LevelWarn),
	}
}

// proxyConfig applies the trusted-proxy settings: VENUE_TRUSTED_PROXIES
// (CIDRs, default loopback), VENUE_CLIENT_IP_HEADER (default
// X-Forwarded-For), VENUE_GEO_COUNTRY_HEADER and VENUE_GEO_CITY_HEADER.
func proxyConfig(d *Deps, p config.Proxy) {
	geo := handlers.DefaultGeoConfig()
	d.TrustedProxies = p.TrustedProxies
	geo.TrustedProxies = p.TrustedProxies
	d.ClientIPHeader = p.ClientIPHeader
	if p.GeoCountryHeader != "" {
		geo.CountryHeader = p.GeoCountryHeader
	}
	if p.GeoCityHeader != "" {
		geo.CityHeader = p.GeoCityHeader
	}
	d.Geo = &geo
}

func printBanner(out io.Writer, base string, res *DemoVenue, mailDir string) {
	date := time.Now().UTC().AddDate(0, 0, 1).Format(time.DateOnly)
	fmt.Fprintf(out, `
Demo venue created: %[2]s
API key (every read scope; shown once, keep it): %[3]s

Try:
  curl -s '%[1]s/api/v1/venues/%[2]s/schedule' -H 'X-API-Key: %[3]s'
  curl -s '%[1]s/api/v1/venues/%[2]s/pricing'
  curl -s '%[1]s/api/mcp' -H 'Content-Type: application/json' -H 'X-API-Key: %[3]s' \
    -d '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"search_schedule","arguments":{"date":"%[4]s"}}}'
  curl -s '%[1]s/api/mcp' -H 'Content-Type: application/json' -H 'X-API-Key: %[3]s' \
    -d '{"jsonrpc":"2.0","id":2,"method":"resources/read","params":{"uri":"venue://alerts"}}'

`, base, res.Slug, res.Key, date)
	if res.OwnerEmail != "" && mailDir != "" {
		fmt.Fprintf(out, `Sign in as the venue's owner: ask for a code, read it in the newest file of %[3]s, set a password:
  curl -s '%[1]s/api/v1/auth/password/forgot' -H 'Content-Type: application/json' -d '{"email":"%[2]s"}'
  curl -s '%[1]s/api/v1/auth/password/reset' -H 'Content-Type: application/json' \
    -d '{"email":"%[2]s","code":"<code>","new_password":"<new password>"}'
  curl -s '%[1]s/api/v1/auth/login' -H 'Content-Type: application/json' \
    -d '{"email":"%[2]s","password":"<new password>"}'

`, base, res.OwnerEmail, mailDir)
	}
}
