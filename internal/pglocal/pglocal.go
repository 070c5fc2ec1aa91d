package pglocal

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
)

const (
	// superuser is the name initdb gives the cluster's superuser.
	superuser = "venue"
	// defaultDatabase is the database Start makes sure exists.
	defaultDatabase = "venue"
	// maintenanceDatabase always exists in a cluster.
	maintenanceDatabase = "postgres"
	// port names the unix socket file (.s.PGSQL.<port>); nothing listens on TCP.
	port = 5432
	// maxSocketPath keeps <socket dir>/.s.PGSQL.<port>.lock below the kernel's limit for
	// unix socket paths (108 bytes on Linux, 104 on macOS).
	maxSocketPath = 100
	// logFileName is the server's log inside the data directory.
	logFileName = "postgres.log"
	// logRotateSize is the size above which Start moves the log aside before starting.
	logRotateSize = 10 << 20
	// ownerFileName records the pid of the process that started the server, so that a later
	// process can take over stopping it once that process is gone.
	ownerFileName = "venue.owner"
	// startTimeout bounds the wait for a server to accept connections (crash recovery
	// included).
	startTimeout = 5 * time.Minute
)

// ErrNoBinaries is returned (wrapped) by Start when no usable PostgreSQL server binaries are
// installed.
var ErrNoBinaries = errors.New("PostgreSQL server binaries (initdb, pg_ctl) not found on PATH " +
	"or under /usr/lib/postgresql/*/bin: install PostgreSQL 15 or newer " +
	"(for example `apt-get install postgresql`, or `brew install postgresql` on macOS) " +
	"or set DATABASE_URL to use an existing server")

// Options configures Start.
type Options struct {
	// DataDir is the cluster's data directory. Start creates it and the cluster in it when
	// it does not exist or is empty. Required.
	DataDir string
	// Logger receives progress messages; nil discards them.
	Logger *slog.Logger
	// Throwaway marks a cluster whose data may be lost, such as a test database: initdb
	// skips syncing to disk; the server runs with fsync, synchronous_commit and
	// full_page_writes off and minimal WAL; and the server is this process's child and
	// ends with it (on Linux even when the process dies without calling Stop), instead of
	// being started with pg_ctl to outlive it.
	Throwaway bool
}

// Cluster is a running PostgreSQL cluster reached over a private unix socket.
type Cluster struct {
	dataDir   string
	socketDir string
	port      int
	logger    *slog.Logger
	bins      binaries
	cred      *credential // nil: PostgreSQL runs as this process's user

	// owned reports whether Stop stops the server: false when another process runs it.
	owned bool
	// tempSocketDir is a socket directory outside the data directory that Stop removes.
	tempSocketDir bool
	// childMode: the postmaster is this process's child (throwaway clusters), not started
	// by pg_ctl; child is that process once started.
	childMode bool
	child     *childProcess

	mu      sync.Mutex
	stopped bool
}

// childProcess is a postmaster started as a child of this process.
type childProcess struct {
	cmd  *exec.Cmd
	done chan struct{} // closed when the process has exited
	err  error         // the exit status, valid after done is closed
}

// Start starts the cluster in opts.DataDir, creating it first if needed, and returns once it
// accepts connections and has a database named "venue". When a server already runs in that
// data directory, Start reuses it; Stop then leaves it running. Start serialises with other
// processes that start the same data directory.
func Start(ctx context.Context, opts Options) (*Cluster, error) {
	if err := supported(); err != nil {
		return nil, err
	}
	if opts.DataDir == "" {
		return nil, errors.New("pglocal: Options.DataDir is empty")
	}
	logger := opts.Logger
	if logger == nil {
		logger = slog.New(slog.DiscardHandler)
	}
	dataDir, err := filepath.Abs(opts.DataDir)
	if err != nil {
		return nil, fmt.Errorf("pglocal: data directory: %w", err)
	}
	if err := os.MkdirAll(dataDir, 0o700); err != nil {
		return nil, fmt.Errorf("pglocal: create data directory: %w", err)
	}
	if dataDir, err = filepath.EvalSymlinks(dataDir); err != nil {
		return nil, fmt.Errorf("pglocal: data directory: %w", err)
	}

	unlock, err := lockDir(ctx, dataDir, logger)
	if err != nil {
		return nil, fmt.Errorf("pglocal: lock data directory: %w", err)
	}
	defer unlock()

	c := &Cluster{dataDir: dataDir, port: port, logger: logger.With("data_dir", dataDir)}

	initialized, major, err := clusterVersion(dataDir)
	if err != nil {
		return nil, err
	}
	if c.bins, err = findBinaries(ctx, major); err != nil {
		return nil, err
	}
	if c.cred, err = runAsUser(dataDir, initialized); err != nil {
		return nil, err
	}

	reused, err := c.reuseRunning(ctx)
	if err != nil {
		return nil, err
	}
	if !reused {
		if err := c.prepareDirs(initialized); err != nil {
			return nil, err
		}
		if !initialized {
			if err := c.initdb(ctx, opts.Throwaway); err != nil {
				return nil, err
			}
		}
		if err := c.start(ctx, opts.Throwaway); err != nil {
			return nil, err
		}
	}
	if err := c.ensureDatabase(ctx); err != nil {
		if c.owned {
			_ = c.Stop(context.WithoutCancel(ctx))
		}
		return nil, err
	}
	return c, nil
}

// URL returns a pgx connection URL for database dbname of the cluster, connecting as the
// superuser over the unix socket.
func (c *Cluster) URL(dbname string) string {
	return fmt.Sprintf("postgres://%s@/%s?host=%s&port=%d&sslmode=disable",
		superuser, url.PathEscape(dbname), queryEscapePath(c.socketDir), c.port)
}

// DataDir returns the cluster's absolute data directory.
func (c *Cluster) DataDir() string { return c.dataDir }

// Stop stops the server with a fast shutdown (open transactions roll back) and waits until
// it has exited. It does nothing when Start reused a server that another process runs, and
// nothing on a second call.
func (c *Cluster) Stop(ctx context.Context) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.stopped {
		return nil
	}
	c.stopped = true
	if !c.owned {
		return nil
	}
	var err error
	switch {
	case c.child != nil:
		err = c.stopChild(ctx)
	case !c.childMode:
		err = c.stopPgCtl(ctx)
	}
	c.removeOwnerFile()
	if c.tempSocketDir {
		_ = os.RemoveAll(c.socketDir)
	}
	if err != nil {
		return fmt.Errorf("pglocal: stop: %w", err)
	}
	c.logger.Info("PostgreSQL stopped")
	return nil
}

// clusterVersion reports whether dataDir holds a cluster and of which major version.
func clusterVersion(dataDir string) (initialized bool, major int, err error) {
	b, err := os.ReadFile(filepath.Join(dataDir, "PG_VERSION"))
	if errors.Is(err, os.ErrNotExist) {
		entries, err := os.ReadDir(dataDir)
		if err != nil {
			return false, 0, fmt.Errorf("pglocal: read data directory: %w", err)
		}
		if len(entries) > 0 {
			return false, 0, fmt.Errorf("pglocal: %s is neither empty nor a PostgreSQL data directory", dataDir)
		}
		return false, 0, nil
	}
	if err != nil {
		return false, 0, fmt.Errorf("pglocal: read cluster version: %w", err)
	}
	major, err = strconv.Atoi(strings.TrimSpace(string(b)))
	if err != nil {
		return false, 0, fmt.Errorf("pglocal: %s/PG_VERSION: unexpected content %q", dataDir, b)
	}
	return true, major, nil
}

// prepareDirs gives the data directory to the user PostgreSQL runs as and makes the way to it
// traversable.
func (c *Cluster) prepareDirs(initialized bool) error {
	if c.cred == nil {
		return nil
	}
	if err := ensureTraversable(c.dataDir, c.cred, c.logger); err != nil {
		return err
	}
	owner, err := fileOwner(c.dataDir)
	if err != nil {
		return err
	}
	if owner == c.cred.uid {
		return nil
	}
	if initialized {
		c.logger.Warn("giving the data directory to the PostgreSQL user", "user", c.cred.name)
		return chownTree(c.dataDir, c.cred)
	}
	if err := chown(c.dataDir, c.cred); err != nil {
		return err
	}
	return os.Chmod(c.dataDir, 0o700)
}

// initdb creates the cluster in the (empty) data directory.
func (c *Cluster) initdb(ctx context.Context, throwaway bool) error {
	c.logger.Info("creating PostgreSQL cluster", "initdb", c.bins.initdb, "run_as", c.cred.String())
	started := time.Now()
	run := func(locale string) ([]byte, error) {
		args := []string{"-D", c.dataDir, "-U", superuser, "--auth=trust", "--encoding=UTF8", "--locale=" + locale}
		if throwaway {
			args = append(args, "--no-sync")
		}
		cmd := exec.CommandContext(ctx, c.bins.initdb, args...)
		c.prepareCmd(cmd, false)
		return cmd.CombinedOutput()
	}
	// C.UTF-8 sorts like C (by code point) but classifies non-ASCII letters as letters,
	// which lower(), ILIKE and trigram matching need for names such as "Søren".
	out, err := run("C.UTF-8")
	if err != nil && bytes.Contains(bytes.ToLower(out), []byte("locale")) {
		c.logger.Info("locale C.UTF-8 unavailable, using C")
		out, err = run("C")
	}
	if err != nil {
		return fmt.Errorf("pglocal: initdb: %w\n%s", err, bytes.TrimSpace(out))
	}
	conf := "\n# Added by venue (internal/pglocal): a private cluster reached over a unix socket only.\n" +
		"listen_addresses = ''\n"
	f, err := os.OpenFile(filepath.Join(c.dataDir, "postgresql.conf"), os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		return fmt.Errorf("pglocal: configure cluster: %w", err)
	}
	_, err = f.WriteString(conf)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("pglocal: configure cluster: %w", err)
	}
	c.logger.Info("created PostgreSQL cluster", "duration", time.Since(started).Round(time.Millisecond))
	return nil
}

// prepareCmd runs cmd as the PostgreSQL user, without PG* variables of this process that
// could redirect it, and in its own process group so that a terminal's Ctrl-C reaches only
// this process, which then stops the server itself.
func (c *Cluster) prepareCmd(cmd *exec.Cmd, tieToParent bool) {
	env := make([]string, 0, len(os.Environ()))
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "PG") {
			env = append(env, kv)
		}
	}
	cmd.Env = env
	cmd.Dir = "/"
	setProcAttr(cmd, c.cred, tieToParent)
}

// serverArgs are the postgres command-line options of every start.
func (c *Cluster) serverArgs(throwaway bool) []string {
	args := []string{
		"-p", strconv.Itoa(c.port),
		"-k", c.socketDir,
		"-c", "listen_addresses=",
		"-c", "logging_collector=off",
	}
	if throwaway {
		args = append(args,
			"-c", "fsync=off",
			"-c", "synchronous_commit=off",
			"-c", "full_page_writes=off",
			// Minimal WAL makes CREATE DATABASE about four times faster (no replica
			// can follow a throwaway cluster anyway).
			"-c", "wal_level=minimal",
			"-c", "max_wal_senders=0",
		)
	}
	return args
}

// start starts a server in the initialised data directory and waits until it accepts
// connections.
func (c *Cluster) start(ctx context.Context, throwaway bool) error {
	if err := c.chooseSocketDir(); err != nil {
		return err
	}
	removeStaleLock(filepath.Join(c.socketDir, fmt.Sprintf(".s.PGSQL.%d.lock", c.port)), c.logger)
	logPath, err := c.openLog()
	if err != nil {
		return err
	}
	c.logger.Info("starting PostgreSQL", "version", c.bins.major, "socket_dir", c.socketDir,
		"run_as", c.cred.String(), "log", logPath)
	started := time.Now()
	c.owned = true
	if err := c.writeOwnerFile(); err != nil {
		return err
	}

	fail := func(err error) error {
		// The server may have come up after all: make sure it does not outlive the failure.
		_ = c.Stop(context.WithoutCancel(ctx))
		return fmt.Errorf("pglocal: start PostgreSQL: %w%s", err, logTail(logPath))
	}
	c.childMode = throwaway
	if throwaway {
		err = c.startChild(logPath, throwaway)
	} else {
		err = c.startPgCtl(ctx, logPath, throwaway)
	}
	if err != nil {
		return fail(err)
	}
	if err := c.waitReady(ctx); err != nil {
		return fail(err)
	}
	c.logger.Info("PostgreSQL ready", "duration", time.Since(started).Round(time.Millisecond))
	return nil
}

// chooseSocketDir puts the socket in the data directory when the path is short enough, and
// otherwise in a new private directory under the temporary directory.
func (c *Cluster) chooseSocketDir() error {
	lockName := fmt.Sprintf("/.s.PGSQL.%d.lock", c.port)
	if len(c.dataDir)+len(lockName) < maxSocketPath {
		c.socketDir = c.dataDir
		return nil
	}
	base := os.TempDir()
	if len(base)+len("/venue-pg-0123456789")+len(lockName) >= maxSocketPath {
		base = "/tmp"
	}
	dir, err := os.MkdirTemp(base, "venue-pg-")
	if err != nil {
		return fmt.Errorf("pglocal: socket directory: %w", err)
	}
	c.socketDir, c.tempSocketDir = dir, true
	if c.cred != nil {
		if err := ensureTraversable(dir, c.cred, c.logger); err != nil {
			return err
		}
		if err := chown(dir, c.cred); err != nil {
			return err
		}
	}
	return nil
}

// openLog creates the log file, owned by the PostgreSQL user, moving a large one aside.
func (c *Cluster) openLog() (string, error) {
	path := filepath.Join(c.dataDir, logFileName)
	if fi, err := os.Stat(path); err == nil && fi.Size() > logRotateSize {
		_ = os.Rename(path, path+".1")
	}
	f, err := os.OpenFile(path, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o600)
	if err != nil {
		return "", fmt.Errorf("pglocal: log file: %w", err)
	}
	_ = f.Close()
	if c.cred != nil {
		if err := chown(path, c.cred); err != nil {
			return "", err
		}
	}
	return path, nil
}

// startPgCtl starts a server that outlives this process, the way an operator would.
func (c *Cluster) startPgCtl(ctx context.Context, logPath string, throwaway bool) error {
	quoted := make([]string, 0, 16)
	for _, a := range c.serverArgs(throwaway) {
		quoted = append(quoted, shellQuote(a))
	}
	cmd := exec.CommandContext(ctx, c.bins.pgCtl, "start", "--wait", "--timeout", strconv.Itoa(int(startTimeout.Seconds())),
		"--silent", "-D", c.dataDir, "-l", logPath, "-o", strings.Join(quoted, " "))
	c.prepareCmd(cmd, false)
	if out, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("pg_ctl start: %w: %s", err, bytes.TrimSpace(out))
	}
	return nil
}

// startChild starts the postmaster as a child of this process that receives SIGQUIT
// (immediate shutdown) when this process ends, however it ends.
func (c *Cluster) startChild(logPath string, throwaway bool) error {
	logFile, err := os.OpenFile(logPath, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		return err
	}
	defer logFile.Close()
	args := append([]string{"-D", c.dataDir}, c.serverArgs(throwaway)...)
	cmd := exec.Command(c.bins.postgres, args...)
	cmd.Stdout, cmd.Stderr = logFile, logFile
	c.prepareCmd(cmd, true)
	if err := startTied(cmd); err != nil {
		return err
	}
	child := &childProcess{cmd: cmd, done: make(chan struct{})}
	go func() {
		child.err = cmd.Wait()
		close(child.done)
	}()
	c.child = child
	return nil
}

// waitReady waits until the server accepts connections.
func (c *Cluster) waitReady(ctx context.Context) error {
	ctx, cancel := context.WithTimeout(ctx, startTimeout)
	defer cancel()
	for {
		if c.child != nil {
			select {
			case <-c.child.done:
				return fmt.Errorf("postgres exited: %v", c.child.err)
			default:
			}
		}
		err := c.ping(ctx)
		if err == nil {
			return nil
		}
		if !retryable(err) {
			return err
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("server did not accept connections: %w (last error: %v)", ctx.Err(), err)
		case <-time.After(20 * time.Millisecond):
		}
	}
}

// ping opens and closes one connection to the maintenance database.
func (c *Cluster) ping(ctx context.Context) error {
	ctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	conn, err := pgconn.Connect(ctx, c.URL(maintenanceDatabase))
	if err != nil {
		return err
	}
	return conn.Close(ctx)
}

// retryable reports whether a connection error may go away while a server starts: no
// socket yet, or a server that answers it is starting up.
func retryable(err error) bool {
	var pgErr *pgconn.PgError
	if errors.As(err, &pgErr) {
		return pgErr.Code == "57P03" // cannot_connect_now
	}
	return true
}

// ensureDatabase creates the default database when it is missing.
func (c *Cluster) ensureDatabase(ctx context.Context) error {
	conn, err := pgx.Connect(ctx, c.URL(maintenanceDatabase))
	if err != nil {
		return fmt.Errorf("pglocal: connect: %w", err)
	}
	defer conn.Close(context.WithoutCancel(ctx))
	var exists bool
	if err := conn.QueryRow(ctx, "SELECT EXISTS (SELECT 1 FROM pg_database WHERE datname = $1)", defaultDatabase).Scan(&exists); err != nil {
		return fmt.Errorf("pglocal: look up database %q: %w", defaultDatabase, err)
	}
	if exists {
		return nil
	}
	_, err = conn.Exec(ctx, "CREATE DATABASE "+pgx.Identifier{defaultDatabase}.Sanitize())
	var pgErr *pgconn.PgError
	if err != nil && !(errors.As(err, &pgErr) && pgErr.Code == "42P04") { // duplicate_database
		return fmt.Errorf("pglocal: create database %q: %w", defaultDatabase, err)
	}
	c.logger.Info("created database", "database", defaultDatabase)
	return nil
}

// reuseRunning looks for a server already running in the data directory. It reports true
// with the cluster set up to reach it, false when none runs (removing what a crashed server
// left behind), or an error when one runs but does not become reachable.
func (c *Cluster) reuseRunning(ctx context.Context) (bool, error) {
	pidPath := filepath.Join(c.dataDir, "postmaster.pid")
	deadline := time.Now().Add(startTimeout)
	for {
		pf, err := readPidFile(pidPath)
		if err != nil {
			return false, err
		}
		if pf == nil {
			return false, nil
		}
		if !isPostgresProcess(pf.pid) {
			c.logger.Warn("removing stale postmaster.pid left by a server that is gone", "pid", pf.pid)
			if err := os.Remove(pidPath); err != nil && !errors.Is(err, os.ErrNotExist) {
				return false, fmt.Errorf("pglocal: remove stale postmaster.pid: %w", err)
			}
			return false, nil
		}
		if pf.socketDir != "" && pf.port != 0 {
			c.socketDir, c.port = pf.socketDir, pf.port
			err := c.ping(ctx)
			if err == nil {
				c.adoptIfOrphaned()
				c.logger.Info("reusing running PostgreSQL", "pid", pf.pid, "socket_dir", c.socketDir, "stop_on_exit", c.owned)
				return true, nil
			}
			if !retryable(err) {
				return false, fmt.Errorf("pglocal: PostgreSQL (pid %d) runs in %s but refuses connections: %w", pf.pid, c.dataDir, err)
			}
		}
		if time.Now().After(deadline) {
			return false, fmt.Errorf("pglocal: PostgreSQL (pid %d) runs in %s but does not accept connections on a unix socket", pf.pid, c.dataDir)
		}
		select {
		case <-ctx.Done():
			return false, ctx.Err()
		case <-time.After(50 * time.Millisecond):
		}
	}
}

// stopPgCtl stops a server with pg_ctl: fast shutdown, then immediate if that fails.
func (c *Cluster) stopPgCtl(ctx context.Context) error {
	run := func(ctx context.Context, mode string) error {
		cmd := exec.CommandContext(ctx, c.bins.pgCtl, "stop", "--wait", "--silent", "-D", c.dataDir, "-m", mode)
		c.prepareCmd(cmd, false)
		out, err := cmd.CombinedOutput()
		if err != nil {
			if pf, _ := readPidFile(filepath.Join(c.dataDir, "postmaster.pid")); pf == nil {
				return nil // not running (any more)
			}
			return fmt.Errorf("pg_ctl stop -m %s: %w: %s", mode, err, bytes.TrimSpace(out))
		}
		return nil
	}
	err := run(ctx, "fast")
	if err != nil {
		c.logger.Warn("fast shutdown failed, shutting down immediately", "error", err)
		ictx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 30*time.Second)
		defer cancel()
		if ierr := run(ictx, "immediate"); ierr == nil {
			return nil
		}
	}
	return err
}

// stopChild stops a postmaster child: SIGINT (fast shutdown), then SIGQUIT (immediate) when
// ctx ends first, then SIGKILL.
func (c *Cluster) stopChild(ctx context.Context) error {
	p := c.child
	select {
	case <-p.done:
		return nil
	default:
	}
	_ = p.cmd.Process.Signal(os.Interrupt)
	select {
	case <-p.done:
		return nil
	case <-ctx.Done():
	}
	_ = p.cmd.Process.Signal(syscall.SIGQUIT)
	select {
	case <-p.done:
		return nil
	case <-time.After(5 * time.Second):
	}
	_ = p.cmd.Process.Kill()
	<-p.done
	return errors.New("postgres did not shut down in time and was killed")
}

// adoptIfOrphaned makes this Cluster stop a reused server whose starting process is gone.
func (c *Cluster) adoptIfOrphaned() {
	b, err := os.ReadFile(filepath.Join(c.dataDir, ownerFileName))
	if err != nil {
		return // started by hand, or by something else: leave it alone
	}
	pid, err := strconv.Atoi(strings.TrimSpace(string(b)))
	if err != nil || pid == os.Getpid() || processAlive(pid) {
		return
	}
	if err := c.writeOwnerFile(); err != nil {
		return
	}
	c.owned = true
	c.tempSocketDir = c.socketDir != c.dataDir && strings.HasPrefix(filepath.Base(c.socketDir), "venue-pg-")
	c.logger.Info("taking over a server whose starting process is gone", "previous_owner_pid", pid)
}

func (c *Cluster) writeOwnerFile() error {
	path := filepath.Join(c.dataDir, ownerFileName)
	if err := os.WriteFile(path, []byte(strconv.Itoa(os.Getpid())+"\n"), 0o600); err != nil {
		return fmt.Errorf("pglocal: %w", err)
	}
	return nil
}

func (c *Cluster) removeOwnerFile() {
	path := filepath.Join(c.dataDir, ownerFileName)
	if b, err := os.ReadFile(path); err == nil && strings.TrimSpace(string(b)) == strconv.Itoa(os.Getpid()) {
		_ = os.Remove(path)
	}
}

// queryEscapePath escapes a directory for a URL query, keeping slashes readable.
func queryEscapePath(s string) string {
	return strings.ReplaceAll(url.QueryEscape(s), "%2F", "/")
}

// shellQuote quotes s for /bin/sh, which pg_ctl hands the server options to.
func shellQuote(s string) string {
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// logTail returns the end of the server log for an error message.
func logTail(path string) string {
	b, err := os.ReadFile(path)
	if err != nil || len(b) == 0 {
		return ""
	}
	const max = 2000
	if len(b) > max {
		b = b[len(b)-max:]
	}
	return "\nserver log " + path + " ends with:\n" + string(bytes.TrimSpace(b))
}
