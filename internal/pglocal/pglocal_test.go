//go:build linux || darwin

package pglocal

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func testContext(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	t.Cleanup(cancel)
	return ctx
}

// start starts a cluster that the test stops at the end in any case.
func start(t *testing.T, opts Options) *Cluster {
	t.Helper()
	c, err := Start(testContext(t), opts)
	require.NoError(t, err)
	t.Cleanup(func() { _ = c.Stop(context.Background()) })
	return c
}

func queryInt(t *testing.T, c *Cluster, dbname, sql string) int {
	t.Helper()
	ctx := testContext(t)
	conn, err := pgx.Connect(ctx, c.URL(dbname))
	require.NoError(t, err)
	defer conn.Close(ctx)
	var n int
	require.NoError(t, conn.QueryRow(ctx, sql).Scan(&n))
	return n
}

func execSQL(t *testing.T, c *Cluster, dbname, sql string) {
	t.Helper()
	ctx := testContext(t)
	conn, err := pgx.Connect(ctx, c.URL(dbname))
	require.NoError(t, err)
	defer conn.Close(ctx)
	_, err = conn.Exec(ctx, sql)
	require.NoError(t, err)
}

func running(dataDir string) bool {
	pf, err := readPidFile(filepath.Join(dataDir, "postmaster.pid"))
	return err == nil && pf != nil && isPostgresProcess(pf.pid)
}

// TestRestartKeepsDataAndReuse covers the server's lifecycle: create, stop, start again on
// the same data, and a second Start while the cluster runs.
func TestRestartKeepsDataAndReuse(t *testing.T) {
	t.Parallel()
	dataDir := filepath.Join(t.TempDir(), "data")

	c := start(t, Options{DataDir: dataDir})
	assert.True(t, strings.HasPrefix(c.URL("venue"), "postgres://venue@/venue?host=/"), c.URL("venue"))
	assert.Equal(t, 1, queryInt(t, c, "venue", "SELECT 1"))
	assert.Equal(t, "", queryString(t, c, "SHOW listen_addresses"), "no TCP listener")
	execSQL(t, c, "venue", "CREATE TABLE kept (n int); INSERT INTO kept VALUES (42)")
	require.NoError(t, c.Stop(testContext(t)))
	assert.False(t, running(dataDir))
	assert.FileExists(t, filepath.Join(dataDir, logFileName))
	require.NoError(t, c.Stop(testContext(t)), "a second Stop is a no-op")

	c = start(t, Options{DataDir: dataDir})
	assert.Equal(t, 42, queryInt(t, c, "venue", "SELECT n FROM kept"))

	// Another Start on the running cluster reuses it and leaves it running on Stop.
	other := start(t, Options{DataDir: dataDir})
	assert.False(t, other.owned)
	assert.Equal(t, c.URL("venue"), other.URL("venue"))
	require.NoError(t, other.Stop(testContext(t)))
	assert.Equal(t, 42, queryInt(t, c, "venue", "SELECT n FROM kept"))

	require.NoError(t, c.Stop(testContext(t)))
	assert.False(t, running(dataDir))
}

func queryString(t *testing.T, c *Cluster, sql string) string {
	t.Helper()
	ctx := testContext(t)
	conn, err := pgx.Connect(ctx, c.URL("venue"))
	require.NoError(t, err)
	defer conn.Close(ctx)
	var s string
	require.NoError(t, conn.QueryRow(ctx, sql).Scan(&s))
	return s
}

// TestCrashRecovery kills the server the hard way and starts again: the stale postmaster.pid
// must not stop it, and a server whose starting process is gone is taken over.
func TestCrashRecovery(t *testing.T) {
	t.Parallel()
	dataDir := filepath.Join(t.TempDir(), "data")
	c := start(t, Options{DataDir: dataDir})
	execSQL(t, c, "venue", "CREATE TABLE kept (n int); INSERT INTO kept VALUES (7)")
	pf, err := readPidFile(filepath.Join(dataDir, "postmaster.pid"))
	require.NoError(t, err)
	require.NoError(t, syscall.Kill(pf.pid, syscall.SIGKILL))
	require.Eventually(t, func() bool { return !isPostgresProcess(pf.pid) }, 10*time.Second, 10*time.Millisecond)
	c.stopped = true // it is gone

	// A pid file naming a live process that is not PostgreSQL, as after a crash in a
	// container where pids are reused.
	require.NoError(t, os.WriteFile(filepath.Join(dataDir, "postmaster.pid"),
		[]byte(strconv.Itoa(os.Getpid())+"\n"+dataDir+"\n"), 0o600))

	c = start(t, Options{DataDir: dataDir})
	assert.Equal(t, 7, queryInt(t, c, "venue", "SELECT n FROM kept"))

	// The process that started this server "died": a new Start reuses and adopts it.
	require.NoError(t, os.WriteFile(filepath.Join(dataDir, ownerFileName), []byte("999999999\n"), 0o600))
	adopted := start(t, Options{DataDir: dataDir})
	assert.True(t, adopted.owned)
	require.NoError(t, adopted.Stop(testContext(t)))
	assert.False(t, running(dataDir))
}

// TestThrowawayLongPath covers the test database's configuration and a data directory too
// long for a unix socket path.
func TestThrowawayLongPath(t *testing.T) {
	t.Parallel()
	dataDir := filepath.Join(t.TempDir(), strings.Repeat("long-directory-name-", 6), "data")
	c := start(t, Options{DataDir: dataDir, Throwaway: true})
	assert.True(t, c.tempSocketDir)
	assert.NotEqual(t, c.dataDir, c.socketDir)
	assert.Less(t, len(c.socketDir), 80)
	assert.Equal(t, "off", queryString(t, c, "SHOW fsync"))
	assert.Equal(t, "off", queryString(t, c, "SHOW full_page_writes"))
	assert.Equal(t, 1, queryInt(t, c, "venue", "SELECT 1"))
	require.NoError(t, c.Stop(testContext(t)))
	assert.False(t, running(c.dataDir))
	assert.NoDirExists(t, c.socketDir)
}

func TestNoBinaries(t *testing.T) {
	t.Setenv("PATH", t.TempDir())
	old := searchGlob
	searchGlob = filepath.Join(t.TempDir(), "*", "bin")
	t.Cleanup(func() { searchGlob = old })

	_, err := Start(testContext(t), Options{DataDir: filepath.Join(t.TempDir(), "data")})
	require.Error(t, err)
	assert.True(t, errors.Is(err, ErrNoBinaries))
	assert.Contains(t, err.Error(), "apt-get install postgresql")
	assert.Contains(t, err.Error(), "DATABASE_URL")
}

func TestDataDirNotEmpty(t *testing.T) {
	t.Parallel()
	dataDir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dataDir, "notes.txt"), []byte("x"), 0o600))
	_, err := Start(testContext(t), Options{DataDir: dataDir})
	require.Error(t, err)
	assert.Contains(t, err.Error(), "neither empty nor a PostgreSQL data directory")
}
