package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/venueplatform/venue/ent"
	"github.com/venueplatform/venue/internal/config"
	"github.com/venueplatform/venue/internal/db"
	"github.com/venueplatform/venue/internal/pglocal"
	"github.com/venueplatform/venue/internal/system"
	"github.com/venueplatform/venue/internal/venue"
	"github.com/venueplatform/venue/internal/viewer"
)

// operatorName names venuectl in viewers and audit entries.
const operatorName = "venuectl"

// app is what every command shares: the global flags, the output streams and
// the database, opened on first use.
type app struct {
	databaseURL string
	dataDir     string
	jsonOut     bool

	stdout, stderr io.Writer
	// interactive reports whether stderr is a terminal (progress bars).
	interactive bool

	cluster *pglocal.Cluster
	pool    *pgxpool.Pool
	client  *ent.Client

	// lookup reads the environment (commands that need more settings than
	// the global flags, such as payments, parse them with it).
	lookup config.LookupFunc
}

// open connects to the database: the --database-url one, or else the
// managed local cluster in the data folder (started unless it already runs).
// It applies pending migrations when migrate is set.
func (a *app) open(ctx context.Context, migrate bool) error {
	if a.pool != nil {
		return nil
	}
	url := a.databaseURL
	if url == "" {
		logger := slog.New(slog.NewTextHandler(a.stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))
		c, err := pglocal.Start(ctx, pglocal.Options{DataDir: a.dataDir, Logger: logger})
		if err != nil {
			return err
		}
		a.cluster = c
		url = c.URL("venue")
	}
	pool, err := db.Open(ctx, url)
	if err != nil {
		return err
	}
	a.pool = pool
	a.client = db.NewClient(pool)
	if migrate {
		if _, err := db.Migrate(ctx, pool); err != nil {
			return err
		}
	}
	return nil
}

// close releases the database and stops the managed cluster if this process
// started it.
func (a *app) close() error {
	if a.client != nil {
		_ = a.client.Close()
		a.client = nil
	}
	if a.pool != nil {
		a.pool.Close()
		a.pool = nil
	}
	if a.cluster != nil {
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		err := a.cluster.Stop(ctx)
		a.cluster = nil
		return err
	}
	return nil
}

// venueContext resolves a venue slug and returns a context in which
// venuectl acts as an operator of that venue.
func (a *app) venueContext(ctx context.Context, slug string) (context.Context, *venue.Venue, error) {
	if slug == "" {
		return nil, nil, errors.New("--venue is required")
	}
	v, err := venue.BySlug(ctx, a.client, slug)
	if ent.IsNotFound(err) {
		return nil, nil, fmt.Errorf("venue %q not found", slug)
	}
	if err != nil {
		return nil, nil, err
	}
	return system.Elevate(ctx, "venuectl.operator", viewer.Operator{Org: v.ID, Name: operatorName}), v, nil
}

// output writes v as one JSON document with --json, else calls human.
func (a *app) output(v any, human func(w io.Writer)) error {
	if a.jsonOut {
		enc := json.NewEncoder(a.stdout)
		enc.SetEscapeHTML(false)
		return enc.Encode(v)
	}
	human(a.stdout)
	return nil
}

// timeOrNil renders an optional time in UTC for JSON.
func timeOrNil(t *time.Time) *string {
	if t == nil {
		return nil
	}
	s := t.UTC().Format(time.RFC3339)
	return &s
}
