// Package crashrig is what the crash checks share: a work directory with the
// server binary built into it and a throwaway PostgreSQL, the server process
// that a check starts, SIGKILLs and restarts, and a wait until a count of
// unsettled rows reaches zero. Each check (internal/webhooks/crashtest,
// internal/payments/crashtest) brings its own load, seed and reconciliation.
package crashrig

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"syscall"
	"time"

	"github.com/venueplatform/venue/internal/db"
	"github.com/venueplatform/venue/internal/pglocal"
)

// Rig is a check's work directory, its server binary and its database.
type Rig struct {
	Dir, Bin, DatabaseURL string
	cluster               *pglocal.Cluster
	keep                  bool
}

// Prepare makes a work directory named after prefix, builds ./cmd/server of
// the module at root into it and starts a throwaway PostgreSQL there. With
// keep, Close leaves the directory behind.
func Prepare(ctx context.Context, prefix, root string, keep bool) (*Rig, error) {
	dir, err := os.MkdirTemp("", prefix)
	if err != nil {
		return nil, err
	}
	r := &Rig{Dir: dir, Bin: filepath.Join(dir, "server"), keep: keep}
	fmt.Println("work directory:", dir)
	build := exec.CommandContext(ctx, "go", "build", "-o", r.Bin, "./cmd/server")
	build.Dir = root
	build.Stdout, build.Stderr = os.Stdout, os.Stderr
	if err := build.Run(); err != nil {
		r.Close()
		return nil, fmt.Errorf("build server: %w", err)
	}
	r.cluster, err = pglocal.Start(ctx, pglocal.Options{DataDir: filepath.Join(dir, "pg"), Throwaway: true,
		Logger: slog.New(slog.DiscardHandler)})
	if err != nil {
		r.Close()
		return nil, fmt.Errorf("postgres: %w", err)
	}
	r.DatabaseURL = r.cluster.URL("venue")
	return r, nil
}

// Close stops the database and removes the work directory unless kept.
func (r *Rig) Close() {
	if r.cluster != nil {
		_ = r.cluster.Stop(context.Background())
	}
	if !r.keep {
		_ = os.RemoveAll(r.Dir)
	}
}

// Server returns the rig's server on a free loopback address, run with env
// (the whole environment: a command passes its own, with settings added) and
// the rig's database; it logs to server.log in the work directory.
func (r *Rig) Server(env []string) (*Server, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	addr := "127.0.0.1:" + strconv.Itoa(ln.Addr().(*net.TCPAddr).Port)
	ln.Close()
	return &Server{Addr: addr, bin: r.Bin, log: filepath.Join(r.Dir, "server.log"),
		env: append(env, "DATABASE_URL="+r.DatabaseURL)}, nil
}

// Server is the server process of a check.
type Server struct {
	Addr     string
	bin, log string
	env      []string
	cmd      *exec.Cmd
	starts   int
}

// Start runs the server and waits until /readyz answers 200.
func (s *Server) Start(ctx context.Context) error {
	f, err := os.OpenFile(s.log, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o644)
	if err != nil {
		return err
	}
	cmd := exec.Command(s.bin, "-addr", s.Addr)
	cmd.Env = s.env
	cmd.Stdout, cmd.Stderr = f, f
	if err := cmd.Start(); err != nil {
		f.Close()
		return err
	}
	s.cmd = cmd
	s.starts++
	go func() { _ = cmd.Wait(); f.Close() }()
	deadline := time.Now().Add(60 * time.Second)
	for time.Now().Before(deadline) && ctx.Err() == nil {
		res, err := http.Get("http://" + s.Addr + "/readyz")
		if err == nil {
			res.Body.Close()
			if res.StatusCode == http.StatusOK {
				return nil
			}
		}
		time.Sleep(50 * time.Millisecond)
	}
	return fmt.Errorf("server start %d: not ready in time (see %s)", s.starts, s.log)
}

// Kill SIGKILLs the server: no drain, no deferred work.
func (s *Server) Kill() error { return s.cmd.Process.Signal(syscall.SIGKILL) }

// Terminate sends SIGTERM and waits up to 20 s for the process to end.
func (s *Server) Terminate() error {
	if err := s.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		return err
	}
	for range 400 {
		if s.cmd.ProcessState != nil || errors.Is(s.cmd.Process.Signal(syscall.Signal(0)), os.ErrProcessDone) {
			return nil
		}
		time.Sleep(50 * time.Millisecond)
	}
	return errors.New("server did not stop within 20 s of SIGTERM")
}

// Stop kills the server if it still runs (for defer).
func (s *Server) Stop() {
	if s.cmd != nil && !errors.Is(s.cmd.Process.Signal(syscall.Signal(0)), os.ErrProcessDone) {
		_ = s.cmd.Process.Signal(syscall.SIGKILL)
	}
}

// WaitZero polls count (a SELECT count(*) ...) every interval until it is 0
// and returns how long that took; what names the rows in the error after limit.
func WaitZero(ctx context.Context, dbURL, count, what string, every, limit time.Duration) (time.Duration, error) {
	pool, err := db.Open(ctx, dbURL)
	if err != nil {
		return 0, err
	}
	defer pool.Close()
	start := time.Now()
	for time.Since(start) < limit {
		var open int
		if err := pool.QueryRow(ctx, count).Scan(&open); err != nil {
			return 0, err
		}
		if open == 0 {
			return time.Since(start), nil
		}
		time.Sleep(every)
	}
	return 0, fmt.Errorf("%s still open after %s", what, limit)
}
