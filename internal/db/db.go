package db

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
)

// Open connects to the database at url (a postgres:// URL or a key=value connection string)
// and returns a pool once the database answers. Pool settings given in the URL
// (pool_max_conns, pool_max_conn_lifetime, ...) win over the defaults: at least 8 and up to
// twice the CPU count connections, recycled after an hour (less when idle for 5 minutes), a
// 10-second connect timeout, and sessions in UTC so that time values rendered by SQL do not
// depend on the server's configuration.
func Open(ctx context.Context, url string) (*pgxpool.Pool, error) {
	cfg, err := pgxpool.ParseConfig(url)
	if err != nil {
		// The parse error quotes the URL, whose password pgx masks only on a best-effort basis.
		return nil, errors.New("db: invalid database URL (not shown: it may contain a password)")
	}
	if !strings.Contains(url, "pool_max_conns") {
		cfg.MaxConns = int32(max(8, 2*runtime.NumCPU()))
	}
	if !strings.Contains(url, "pool_max_conn_idle_time") {
		cfg.MaxConnIdleTime = 5 * time.Minute
	}
	if !strings.Contains(url, "pool_max_conn_lifetime_jitter") {
		cfg.MaxConnLifetimeJitter = 5 * time.Minute
	}
	if cfg.ConnConfig.ConnectTimeout == 0 {
		cfg.ConnConfig.ConnectTimeout = 10 * time.Second
	}
	params := cfg.ConnConfig.RuntimeParams
	if _, ok := params["timezone"]; !ok {
		params["timezone"] = "UTC"
	}
	if _, ok := params["application_name"]; !ok {
		params["application_name"] = filepath.Base(os.Args[0])
	}
	pool, err := pgxpool.NewWithConfig(ctx, cfg)
	if err != nil {
		return nil, fmt.Errorf("db: %w", err)
	}
	if err := pool.Ping(ctx); err != nil {
		pool.Close()
		return nil, fmt.Errorf("db: connect to %s: %w", describe(cfg), err)
	}
	return pool, nil
}

// describe names the server and database of cfg without credentials.
func describe(cfg *pgxpool.Config) string {
	c := cfg.ConnConfig
	return fmt.Sprintf("database %q on %s port %d", c.Database, c.Host, c.Port)
}
