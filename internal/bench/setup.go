package bench

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"os"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/venueplatform/venue/internal/apikey"
	"github.com/venueplatform/venue/internal/auth"
	"github.com/venueplatform/venue/internal/db"
	"github.com/venueplatform/venue/internal/mcp"
	"github.com/venueplatform/venue/internal/pglocal"
	"github.com/venueplatform/venue/internal/ratelimit"
	"github.com/venueplatform/venue/internal/server"
	"github.com/venueplatform/venue/internal/viewer"
)

// databases hands out the URL of each data set's database: the given
// --database-url (or the managed cluster's "venue" database) for the main
// set, and sibling databases, created on first use, for the geo sets.
type databases struct {
	mainURL string
	cluster *pglocal.Cluster
	tempDir string
}

// openDatabases starts the managed cluster when cfg has no database URL.
func openDatabases(ctx context.Context, cfg *Config, d *Display) (*databases, error) {
	if cfg.DatabaseURL != "" {
		return &databases{mainURL: cfg.DatabaseURL}, nil
	}
	dbs := &databases{}
	dir := cfg.DataDir
	if dir == "" {
		tmp, err := os.MkdirTemp("", "venue-bench-")
		if err != nil {
			return nil, fmt.Errorf("data directory: %w", err)
		}
		dbs.tempDir, dir = tmp, tmp
	}
	d.Live("starting the managed PostgreSQL in " + dir)
	c, err := pglocal.Start(ctx, pglocal.Options{DataDir: dir, Throwaway: true})
	if err != nil {
		dbs.close()
		return nil, fmt.Errorf("managed database: %w", err)
	}
	dbs.cluster = c
	dbs.mainURL = c.URL("venue")
	return dbs, nil
}

// url returns the URL of the database named suffix next to the main one
// ("" is the main database), creating it when missing.
func (dbs *databases) url(ctx context.Context, suffix string) (string, error) {
	if suffix == "" {
		return dbs.mainURL, nil
	}
	var name, u string
	if dbs.cluster != nil {
		name = "bench_" + suffix
		u = dbs.cluster.URL(name)
	} else {
		cfg, err := pgx.ParseConfig(dbs.mainURL)
		if err != nil {
			return "", errors.New("invalid database URL (not shown: it may contain a password)")
		}
		name = cfg.Database + "_bench_" + suffix
		u = withDatabase(dbs.mainURL, name)
	}
	conn, err := pgx.Connect(ctx, dbs.mainURL)
	if err != nil {
		return "", fmt.Errorf("connect: %w", err)
	}
	defer conn.Close(context.WithoutCancel(ctx))
	_, err = conn.Exec(ctx, "CREATE DATABASE "+pgx.Identifier{name}.Sanitize())
	var pgErr *pgconn.PgError
	if err != nil && !(errors.As(err, &pgErr) && pgErr.Code == "42P04") { // duplicate_database
		return "", fmt.Errorf("create database %s: %w", name, err)
	}
	return u, nil
}

// withDatabase returns u (a URL or a key=value string) naming database name.
func withDatabase(u, name string) string {
	if strings.HasPrefix(u, "postgres://") || strings.HasPrefix(u, "postgresql://") {
		p, err := url.Parse(u)
		if err == nil {
			p.Path = "/" + name
			p.RawPath = ""
			return p.String()
		}
	}
	return u + " dbname=" + name // later settings win
}

// close stops the managed cluster and removes its temporary directory.
func (dbs *databases) close() {
	if dbs.cluster != nil {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		_ = dbs.cluster.Stop(ctx)
	}
	if dbs.tempDir != "" {
		_ = os.RemoveAll(dbs.tempDir)
	}
}

// prepareSet opens, migrates and seeds a data set's database.
func prepareSet(ctx context.Context, dbs *databases, ds *DataSet, suffix string, d *Display) error {
	u, err := dbs.url(ctx, suffix)
	if err != nil {
		return err
	}
	pool, err := db.Open(ctx, u)
	if err != nil {
		return err
	}
	ds.Pool = pool
	if _, err := db.Migrate(ctx, pool); err != nil {
		return fmt.Errorf("migrate %s: %w", ds.Name, err)
	}
	if err := seedSet(ctx, ds, d.Seeding(ds.Name)); err != nil {
		return fmt.Errorf("seed %s: %w", ds.Name, err)
	}
	how := "reused"
	if ds.Seeded {
		how = "seeded in " + ds.SeedTime.Round(100*time.Millisecond).String()
	}
	d.Printf("data set %s: %d venues, %d members, %d classes (%s)", ds.Name, len(ds.Venues), ds.Members, ds.Classes, how)
	return nil
}

// listener is an in-process HTTP server on a loopback port.
type listener struct {
	srv *http.Server
	url string
}

// serve starts h on 127.0.0.1 with the server's timeouts.
func serve(h http.Handler) (*listener, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	srv := &http.Server{
		Handler:           h,
		ReadHeaderTimeout: 10 * time.Second,
		IdleTimeout:       2 * time.Minute,
		ErrorLog:          nil,
	}
	go func() { _ = srv.Serve(ln) }()
	return &listener{srv: srv, url: "http://" + ln.Addr().String()}, nil
}

func (l *listener) close() {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	_ = l.srv.Shutdown(ctx)
}

// serviceLog is the in-process service's logger: the real JSON access log,
// encoded as in production, written nowhere (the terminal shows progress).
func serviceLog() *slog.Logger {
	return slog.New(slog.NewJSONHandler(io.Discard, nil))
}

// loopback are the proxies the in-process service trusts: the load
// generator, which names a simulated client in X-Forwarded-For.
var loopback = []netip.Prefix{netip.MustParsePrefix("127.0.0.0/8"), netip.MustParsePrefix("::1/128")}

// startService serves the whole service (server.New) on ds's database,
// trusting the load generator's X-Forwarded-For like the server trusts a
// proxy on loopback by default.
func startService(ds *DataSet) (*listener, error) {
	h, err := serviceHandler(ds.Pool)
	if err != nil {
		return nil, err
	}
	return serve(h)
}

// serviceHandler returns the whole service on pool, as the tool runs it.
func serviceHandler(pool *pgxpool.Pool) (http.Handler, error) {
	client := db.NewClient(pool)
	log := serviceLog()
	h, err := server.New(server.Deps{
		Pool: pool, Client: client, Log: log,
		TrustedProxies: loopback, ClientIPHeader: "X-Forwarded-For",
		// Card payments through the fake Stripe, for the checkout ops.
		Settings: serviceSettings(),
		// MCP as cmd/server serves it, for the members-search op.
		MCP: mcp.NewHandler(client, auth.New(client), ratelimit.New(pool, 0, 0), log),
	})
	if err != nil {
		return nil, fmt.Errorf("service: %w", err)
	}
	return h, nil
}

// KeysPerRun is how many API keys a run issues, spread over the venues (at
// least one each): the per-key rate limit (100 a minute) is meant for one
// integration, not for a load test, so the load is spread over many keys as
// it would be over many integrations.
const KeysPerRun = 256

// issueKeys gives every venue of ds its share of KeysPerRun API keys with
// scopes.
func issueKeys(ctx context.Context, ds *DataSet, scopes []string) error {
	client := db.NewClient(ds.Pool)
	per := max(1, KeysPerRun/len(ds.Venues))
	for i := range ds.Venues {
		v := &ds.Venues[i]
		vctx := viewer.NewContext(ctx, viewer.Operator{Org: v.ID, Name: "bench"})
		for len(v.Keys) < per {
			k, err := apikey.Create(vctx, client, apikey.CreateParams{Name: "bench", Scopes: scopes})
			if err != nil {
				return fmt.Errorf("api key for %s: %w", v.Slug, err)
			}
			v.Keys = append(v.Keys, k.Secret)
		}
	}
	return nil
}
