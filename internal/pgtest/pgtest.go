package pgtest

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"log/slog"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/venueplatform/venue/internal/db"
	"github.com/venueplatform/venue/internal/pglocal"
)

const (
	// namePrefix starts the name of every database this package creates.
	namePrefix = "pgtest_"
	// tempDirPrefix starts the name of a local cluster's temporary directory.
	tempDirPrefix = "venue-pgtest-"
	// ownerFile in that directory holds the pid of the test binary that made it.
	ownerFile = "owner.pid"
	// staleAfter is the age after which databases of this package on a shared server
	// (TEST_DATABASE_URL) count as left behind by a crashed run.
	staleAfter = 24 * time.Hour
	// opTimeout bounds each setup step, database creation and drop.
	opTimeout = 2 * time.Minute
)

var (
	mainCalled atomic.Bool

	// env is the test server and the migrated template, set up on first use.
	env struct {
		once     sync.Once
		err      error
		admin    *pgxpool.Pool // connected to the maintenance database
		baseURL  string        // a URL of the server; urlFor replaces its database
		template string
		cluster  *pglocal.Cluster // nil with TEST_DATABASE_URL
		tempDir  string
	}

	// createMu serialises CREATE DATABASE ... TEMPLATE: PostgreSQL refuses to copy a
	// template that another session, such as a concurrent copy, is connected to.
	createMu sync.Mutex
)

// Main runs the tests of a package that uses the test database, then drops what it created,
// stops the cluster it started and exits with the tests' status. Call it from TestMain.
func Main(m *testing.M) {
	os.Exit(run(m))
}

func run(m *testing.M) int {
	mainCalled.Store(true)
	defer teardown() // also while a panic unwinds
	return m.Run()
}

// New returns the URL of a new database for this test, a copy of the migrated template that
// no other test sees, and drops it when the test ends.
func New(t testing.TB) string {
	t.Helper()
	return create(t, func(name string) string {
		return "CREATE DATABASE " + ident(name) + " TEMPLATE " + ident(env.template)
	}, true)
}

// NewEmpty returns the URL of a new, empty database without any migration applied, and drops
// it when the test ends: for tests of the migrations themselves.
func NewEmpty(t testing.TB) string {
	t.Helper()
	return create(t, func(name string) string {
		return "CREATE DATABASE " + ident(name) + " TEMPLATE template0"
	}, false)
}

// NewPool returns a pool (package db's settings) connected to a database from New; the pool
// is closed, and the database dropped, when the test ends.
func NewPool(t testing.TB) *pgxpool.Pool {
	t.Helper()
	u := New(t)
	ctx, cancel := context.WithTimeout(context.Background(), opTimeout)
	defer cancel()
	pool, err := db.Open(ctx, u)
	if err != nil {
		t.Fatalf("pgtest: %v", err)
	}
	t.Cleanup(pool.Close) // runs before the drop registered by New
	return pool
}

// ServerURL returns the URL of database dbname on the test server, for tests that create and
// drop databases themselves: ServerURL("postgres") reaches the maintenance database to run
// CREATE DATABASE and DROP DATABASE in. Such a test must drop what it creates (names starting
// with "pgtest_" are reserved for this package). ServerURL sets up the test server on first
// use and panics when that fails or when the package's TestMain does not call Main.
func ServerURL(dbname string) string {
	if err := setup(); err != nil {
		panic(err)
	}
	return urlFor(env.baseURL, dbname)
}

// create makes a database with the statement stmt(name) and registers its drop.
func create(t testing.TB, stmt func(name string) string, fromTemplate bool) string {
	t.Helper()
	if err := setup(); err != nil {
		t.Fatal(err)
	}
	name := newName(t.Name())
	ctx, cancel := context.WithTimeout(context.Background(), opTimeout)
	defer cancel()
	if fromTemplate {
		createMu.Lock()
	}
	_, err := env.admin.Exec(ctx, stmt(name))
	if fromTemplate {
		createMu.Unlock()
	}
	if err != nil {
		t.Fatalf("pgtest: create database %s: %v", name, err)
	}
	t.Cleanup(func() {
		if err := dropDatabase(name); err != nil {
			t.Errorf("pgtest: %v", err)
		}
	})
	return urlFor(env.baseURL, name)
}

func dropDatabase(name string) error {
	ctx, cancel := context.WithTimeout(context.Background(), opTimeout)
	defer cancel()
	if _, err := env.admin.Exec(ctx, "DROP DATABASE IF EXISTS "+ident(name)+" WITH (FORCE)"); err != nil {
		return fmt.Errorf("drop database %s: %w", name, err)
	}
	return nil
}

// setup prepares the server and the template once.
func setup() error {
	if !mainCalled.Load() {
		return errors.New("pgtest: the package's TestMain must call pgtest.Main(m): func TestMain(m *testing.M) { pgtest.Main(m) }")
	}
	env.once.Do(func() {
		env.err = setupOnce()
		if env.err != nil {
			env.err = fmt.Errorf("pgtest: set up the test database: %w", env.err)
		}
	})
	return env.err
}

func setupOnce() error {
	ctx, cancel := context.WithTimeout(context.Background(), opTimeout)
	defer cancel()
	if u := os.Getenv("TEST_DATABASE_URL"); u != "" {
		env.baseURL = u
	} else {
		if err := startCluster(ctx); err != nil {
			return err
		}
	}
	admin, err := db.Open(ctx, env.baseURL)
	if err != nil {
		return err
	}
	env.admin = admin
	if env.cluster == nil {
		dropStaleDatabases(ctx)
	}

	env.template = newName("template")
	if _, err := admin.Exec(ctx, "CREATE DATABASE "+ident(env.template)+" TEMPLATE template0"); err != nil {
		return fmt.Errorf("create template database: %w", err)
	}
	pool, err := db.Open(ctx, urlFor(env.baseURL, env.template))
	if err != nil {
		return err
	}
	defer pool.Close() // a template must have no connections
	if _, err := db.Migrate(ctx, pool); err != nil {
		return err
	}
	return nil
}

// startCluster starts a throwaway cluster in a new temporary directory.
func startCluster(ctx context.Context) error {
	dir, err := os.MkdirTemp("", tempDirPrefix)
	if err != nil {
		return err
	}
	env.tempDir = dir
	// Traversable, so that the unprivileged user PostgreSQL runs as under root reaches the
	// data directory inside.
	if err := os.Chmod(dir, 0o711); err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(dir, ownerFile), []byte(strconv.Itoa(os.Getpid())), 0o600); err != nil {
		return err
	}
	logger := slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))
	cluster, err := pglocal.Start(ctx, pglocal.Options{
		DataDir:   filepath.Join(dir, "data"),
		Logger:    logger,
		Throwaway: true,
	})
	if err != nil {
		return err
	}
	env.cluster = cluster
	env.baseURL = cluster.URL("postgres")
	removeStaleTempDirs(dir)
	return nil
}

// teardown drops the template and stops the cluster; what tests left behind goes with the
// cluster (a cluster of our own) or was dropped by their cleanups.
func teardown() {
	if env.admin != nil {
		if env.cluster == nil && env.template != "" {
			if err := dropDatabase(env.template); err != nil {
				fmt.Fprintf(os.Stderr, "pgtest: %v\n", err)
			}
		}
		env.admin.Close()
	}
	if env.cluster != nil {
		ctx, cancel := context.WithTimeout(context.Background(), opTimeout)
		defer cancel()
		if err := env.cluster.Stop(ctx); err != nil {
			fmt.Fprintf(os.Stderr, "pgtest: %v\n", err)
		}
	}
	if env.tempDir != "" {
		if err := os.RemoveAll(env.tempDir); err != nil {
			fmt.Fprintf(os.Stderr, "pgtest: remove %s: %v\n", env.tempDir, err)
		}
	}
}

// newName returns a unique database name that carries its creation time (for
// dropStaleDatabases) and, for reading pg_database, the test name.
func newName(label string) string {
	var b [4]byte
	_, _ = rand.Read(b[:])
	var s strings.Builder
	for _, r := range strings.ToLower(label) {
		if (r >= 'a' && r <= 'z') || (r >= '0' && r <= '9') {
			s.WriteRune(r)
		} else {
			s.WriteByte('_')
		}
	}
	name := fmt.Sprintf("%s%d_%s_%s", namePrefix, time.Now().Unix(), hex.EncodeToString(b[:]), s.String())
	if len(name) > 63 { // PostgreSQL's identifier limit
		name = name[:63]
	}
	return name
}

var staleNameRE = regexp.MustCompile(`^` + namePrefix + `(\d+)_[0-9a-f]{8}_`)

// dropStaleDatabases drops this package's databases on a shared server that are older than
// staleAfter: left behind by test binaries that crashed.
func dropStaleDatabases(ctx context.Context) {
	rows, err := env.admin.Query(ctx, "SELECT datname FROM pg_database WHERE datname LIKE 'pgtest\\_%'")
	if err != nil {
		return
	}
	names, err := pgx.CollectRows(rows, pgx.RowTo[string])
	if err != nil {
		return
	}
	for _, name := range names {
		m := staleNameRE.FindStringSubmatch(name)
		if m == nil {
			continue
		}
		created, _ := strconv.ParseInt(m[1], 10, 64)
		if time.Since(time.Unix(created, 0)) > staleAfter {
			_, _ = env.admin.Exec(ctx, "DROP DATABASE IF EXISTS "+ident(name)+" WITH (FORCE)")
		}
	}
}

// removeStaleTempDirs removes the temporary directories of test binaries that are gone
// (whose clusters ended with them), except keep.
func removeStaleTempDirs(keep string) {
	dirs, _ := filepath.Glob(filepath.Join(os.TempDir(), tempDirPrefix+"*"))
	for _, dir := range dirs {
		if dir == keep {
			continue
		}
		b, err := os.ReadFile(filepath.Join(dir, ownerFile))
		if err != nil {
			// Not written yet by a test binary starting right now, or from elsewhere.
			if fi, serr := os.Stat(dir); serr != nil || time.Since(fi.ModTime()) < time.Hour {
				continue
			}
		} else if pid, _ := strconv.Atoi(strings.TrimSpace(string(b))); processAlive(pid) {
			continue
		}
		if postmasterAlive(filepath.Join(dir, "data", "postmaster.pid")) {
			continue
		}
		_ = os.RemoveAll(dir)
	}
}

func postmasterAlive(pidFile string) bool {
	b, err := os.ReadFile(pidFile)
	if err != nil {
		return false
	}
	pid, _ := strconv.Atoi(strings.TrimSpace(strings.SplitN(string(b), "\n", 2)[0]))
	return processAlive(pid)
}

func processAlive(pid int) bool {
	if pid <= 0 {
		return false
	}
	p, err := os.FindProcess(pid)
	if err != nil {
		return false
	}
	defer p.Release()
	err = p.Signal(syscall.Signal(0))
	return err == nil || errors.Is(err, syscall.EPERM)
}

func ident(name string) string { return pgx.Identifier{name}.Sanitize() }

var dbnameRE = regexp.MustCompile(`(^|\s)dbname\s*=\s*('(?:[^'\\]|\\.)*'|\S+)`)

// urlFor returns base with its database replaced by dbname. base is a postgres:// URL or a
// key=value connection string.
func urlFor(base, dbname string) string {
	if strings.HasPrefix(base, "postgres://") || strings.HasPrefix(base, "postgresql://") {
		u, err := url.Parse(base)
		if err == nil {
			u.Path, u.RawPath = "/"+dbname, ""
			q := u.Query()
			if q.Has("dbname") {
				q.Set("dbname", dbname)
				u.RawQuery = q.Encode()
			}
			return u.String()
		}
	}
	quoted := "'" + strings.NewReplacer(`\`, `\\`, `'`, `\'`).Replace(dbname) + "'"
	if dbnameRE.MatchString(base) {
		return dbnameRE.ReplaceAllLiteralString(base, " dbname="+quoted)
	}
	return strings.TrimSpace(base + " dbname=" + quoted)
}
