package db

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/venueplatform/venue/migrations"
)

// migrationsTable records the applied migrations, one row per version.
const migrationsTable = "venue_schema_migrations"

// migrateLockKey is the pg_advisory_lock key that serialises migration runs of all
// processes on one database ("venuemig" in ASCII).
const migrateLockKey int64 = 0x76656e75656d6967

// migration is one SQL file.
type migration struct {
	version string // the file name without .sql
	sql     string
	noTx    bool // -- atlas:txmode none
}

// Migrate applies the pending migrations of package migrations in lexical order of their
// file names, each in a transaction of its own together with its row in
// venue_schema_migrations, and returns the versions it applied: an empty, non-nil slice when
// the database was up to date. Concurrent calls, from any process, run one after another,
// so each migration is applied once. On error, the migrations applied before the failing one
// stay applied and are returned.
func Migrate(ctx context.Context, pool *pgxpool.Pool) (applied []string, err error) {
	return migrate(ctx, pool, migrations.FS)
}

// Pending returns the versions of package migrations that Migrate would apply, in order;
// an empty, non-nil slice when there are none.
func Pending(ctx context.Context, pool *pgxpool.Pool) ([]string, error) {
	return pending(ctx, pool, migrations.FS)
}

func migrate(ctx context.Context, pool *pgxpool.Pool, fsys fs.FS) (applied []string, err error) {
	files, err := readMigrations(fsys)
	if err != nil {
		return nil, err
	}
	conn, err := pool.Acquire(ctx)
	if err != nil {
		return nil, fmt.Errorf("db: migrate: %w", err)
	}
	defer conn.Release()
	if _, err := conn.Exec(ctx, "SELECT pg_advisory_lock($1)", migrateLockKey); err != nil {
		return nil, fmt.Errorf("db: migrate: wait for other migrations: %w", err)
	}
	defer func() {
		uctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 10*time.Second)
		defer cancel()
		if _, err := conn.Exec(uctx, "SELECT pg_advisory_unlock($1)", migrateLockKey); err != nil {
			// Closing the session releases the lock; the pool then drops the connection.
			_ = conn.Conn().Close(uctx)
		}
	}()

	if _, err := conn.Exec(ctx, `CREATE TABLE IF NOT EXISTS `+migrationsTable+` (
	version text PRIMARY KEY,
	applied_at timestamptz NOT NULL DEFAULT now()
)`); err != nil {
		return nil, fmt.Errorf("db: migrate: create %s: %w", migrationsTable, err)
	}
	done, err := appliedVersions(ctx, conn.Conn())
	if err != nil {
		return nil, err
	}
	applied = []string{}
	for _, m := range files {
		if done[m.version] {
			continue
		}
		if err := apply(ctx, conn.Conn(), m); err != nil {
			return applied, fmt.Errorf("db: migration %s: %w", m.version, err)
		}
		applied = append(applied, m.version)
	}
	return applied, nil
}

// apply runs one migration and records it, in one transaction unless the file opts out.
func apply(ctx context.Context, conn *pgx.Conn, m migration) error {
	const record = "INSERT INTO " + migrationsTable + " (version, applied_at) VALUES ($1, now())"
	if m.noTx {
		// Without a transaction the file can hold one statement that refuses transactions
		// (CREATE INDEX CONCURRENTLY); PostgreSQL runs several as one implicit transaction.
		if _, err := conn.Exec(ctx, m.sql); err != nil {
			return err
		}
		_, err := conn.Exec(ctx, record, m.version)
		return err
	}
	return pgx.BeginFunc(ctx, conn, func(tx pgx.Tx) error {
		// Without arguments, pgx sends the whole file through the simple query protocol,
		// which runs every statement in it.
		if _, err := tx.Exec(ctx, m.sql); err != nil {
			return err
		}
		_, err := tx.Exec(ctx, record, m.version)
		return err
	})
}

func pending(ctx context.Context, pool *pgxpool.Pool, fsys fs.FS) ([]string, error) {
	files, err := readMigrations(fsys)
	if err != nil {
		return nil, err
	}
	conn, err := pool.Acquire(ctx)
	if err != nil {
		return nil, fmt.Errorf("db: pending migrations: %w", err)
	}
	defer conn.Release()
	var exists bool
	if err := conn.QueryRow(ctx, "SELECT to_regclass($1) IS NOT NULL", migrationsTable).Scan(&exists); err != nil {
		return nil, fmt.Errorf("db: pending migrations: %w", err)
	}
	done := map[string]bool{}
	if exists {
		if done, err = appliedVersions(ctx, conn.Conn()); err != nil {
			return nil, err
		}
	}
	out := []string{}
	for _, m := range files {
		if !done[m.version] {
			out = append(out, m.version)
		}
	}
	return out, nil
}

func appliedVersions(ctx context.Context, conn *pgx.Conn) (map[string]bool, error) {
	rows, err := conn.Query(ctx, "SELECT version FROM "+migrationsTable)
	if err != nil {
		return nil, fmt.Errorf("db: read %s: %w", migrationsTable, err)
	}
	versions, err := pgx.CollectRows(rows, pgx.RowTo[string])
	if err != nil {
		return nil, fmt.Errorf("db: read %s: %w", migrationsTable, err)
	}
	done := make(map[string]bool, len(versions))
	for _, v := range versions {
		done[v] = true
	}
	return done, nil
}

// readMigrations returns the *.sql files at the root of fsys in lexical order, ignoring
// everything else (atlas.sum).
func readMigrations(fsys fs.FS) ([]migration, error) {
	entries, err := fs.ReadDir(fsys, ".")
	if err != nil {
		return nil, fmt.Errorf("db: read migrations: %w", err)
	}
	var out []migration // fs.ReadDir sorts by name
	for _, e := range entries {
		name := e.Name()
		if e.IsDir() || path.Ext(name) != ".sql" {
			continue
		}
		b, err := fs.ReadFile(fsys, name)
		if err != nil {
			return nil, fmt.Errorf("db: read migration: %w", err)
		}
		m := migration{version: strings.TrimSuffix(name, ".sql"), sql: string(b)}
		if m.noTx, err = txModeNone(m.sql); err != nil {
			return nil, fmt.Errorf("db: migration %s: %w", m.version, err)
		}
		out = append(out, m)
	}
	return out, nil
}

// txModeNone reads Atlas's file directive "-- atlas:txmode none" among the comment lines that
// open the file. The modes "file" (the default) and "all" both run here as one transaction
// per file.
func txModeNone(sql string) (bool, error) {
	sc := bufio.NewScanner(strings.NewReader(sql))
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == "" {
			continue
		}
		if !strings.HasPrefix(line, "--") {
			return false, nil
		}
		directive, ok := strings.CutPrefix(strings.TrimSpace(strings.TrimPrefix(line, "--")), "atlas:txmode")
		if !ok {
			continue
		}
		switch mode := strings.TrimSpace(directive); mode {
		case "none":
			return true, nil
		case "file", "all":
			return false, nil
		default:
			return false, errors.New("unknown atlas:txmode " + mode)
		}
	}
	return false, nil
}
