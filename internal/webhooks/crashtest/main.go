package main

import (
	"context"
	"crypto/rand"
	"encoding/base64"
	"errors"
	"flag"
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

	"github.com/venueplatform/venue/internal/pglocal"
)

type config struct {
	bookings, workers, kills, classes int
	down                              time.Duration
	keep                              bool
	// root is the module's directory, where the server is built from.
	root string
}

func main() {
	var c config
	flag.IntVar(&c.bookings, "bookings", 600, "booking requests to make (one per member and class)")
	flag.IntVar(&c.workers, "workers", 16, "concurrent clients")
	flag.IntVar(&c.kills, "kills", 2, "SIGKILLs of the server during the load")
	flag.IntVar(&c.classes, "classes", 20, "classes to book (capacity 25 each: the rest waitlist)")
	flag.DurationVar(&c.down, "down", 0, "the receiver answers 503 for this long from the start of the load")
	flag.BoolVar(&c.keep, "keep", false, "keep the work directory")
	flag.Parse()
	if err := run(c); err != nil {
		fmt.Fprintln(os.Stderr, "crashtest:", err)
		os.Exit(1)
	}
}

func run(c config) error {
	ctx, cancel := context.WithTimeout(context.Background(), 15*time.Minute)
	defer cancel()
	dir, err := os.MkdirTemp("", "venue-crashtest-")
	if err != nil {
		return err
	}
	if !c.keep {
		defer os.RemoveAll(dir)
	}
	fmt.Println("work directory:", dir)

	bin := filepath.Join(dir, "server")
	build := exec.CommandContext(ctx, "go", "build", "-o", bin, "./cmd/server")
	build.Dir = c.root
	build.Stdout, build.Stderr = os.Stdout, os.Stderr
	if err := build.Run(); err != nil {
		return fmt.Errorf("build server: %w", err)
	}
	cluster, err := pglocal.Start(ctx, pglocal.Options{DataDir: filepath.Join(dir, "pg"), Throwaway: true,
		Logger: slog.New(slog.DiscardHandler)})
	if err != nil {
		return fmt.Errorf("postgres: %w", err)
	}
	defer cluster.Stop(context.Background())
	dbURL := cluster.URL("venue")

	rcv, err := startReceiver(c.down)
	if err != nil {
		return err
	}
	defer rcv.Close()

	sealKey := make([]byte, 32)
	if _, err := rand.Read(sealKey); err != nil {
		return err
	}
	addr, err := freeAddr()
	if err != nil {
		return err
	}
	srv := &server{bin: bin, addr: addr, log: filepath.Join(dir, "server.log"), env: []string{
		"DATABASE_URL=" + dbURL, "VENUE_DEMO=false",
		"VENUE_WEBHOOK_ALLOW_PRIVATE=true", "VENUE_WEBHOOK_ALLOW_HTTP=true",
		"VENUE_JOBS_RESCUE_AFTER=15s",
		"VENUE_WEBHOOK_SECRET_KEY=" + base64.StdEncoding.EncodeToString(sealKey),
		"VENUE_WEBHOOK_RETRY_DELAYS=500ms,1s,2s,2s,2s,2s,2s,2s,2s,2s,2s,2s,2s,2s,2s,2s",
	}}
	if err := srv.start(ctx); err != nil {
		return err
	}
	defer srv.stop()

	seed, err := seedVenue(ctx, dbURL, c, rcv, sealKey)
	if err != nil {
		return fmt.Errorf("seed: %w", err)
	}
	rcv.secret.Store(&seed.secret)
	rcv.begin()

	loadStart := time.Now()
	ld := newLoad(c, seed, "http://"+addr)
	done := make(chan struct{})
	go func() { ld.run(ctx); close(done) }()
	kills := 0
	for kills < c.kills {
		// Kill once a further share of the requests has been answered.
		target := int64((kills + 1) * c.bookings / (c.kills + 1))
		for ld.answered.Load() < target {
			time.Sleep(5 * time.Millisecond)
		}
		inFlight := ld.inFlight.Load()
		if err := srv.kill(); err != nil {
			return err
		}
		kills++
		fmt.Printf("SIGKILL %d after %d answered, %d requests in flight\n", kills, target, inFlight)
		time.Sleep(300 * time.Millisecond) // requests meanwhile fail and are retried
		if err := srv.start(ctx); err != nil {
			return err
		}
	}
	<-done
	loadTime := time.Since(loadStart)
	fmt.Printf("load: %d requests in %s, %d answered 201, %d refused (4xx), %d retries (server down, 429, key still in use)\n",
		c.bookings, loadTime.Round(time.Millisecond), ld.created.Load(), ld.refused.Load(), ld.retried.Load())

	settled, err := waitSettled(ctx, dbURL, 3*time.Minute)
	if err != nil {
		return err
	}
	fmt.Printf("all deliveries settled %s after the load\n", settled.Round(time.Millisecond))
	// A graceful stop: River and HTTP drain.
	stopStart := time.Now()
	if err := srv.terminate(); err != nil {
		return err
	}
	fmt.Printf("graceful stop (SIGTERM) took %s\n", time.Since(stopStart).Round(time.Millisecond))
	return reconcile(ctx, dbURL, seed, ld, rcv)
}

// server runs the server binary; start waits for /readyz.
type server struct {
	bin, addr, log string
	env            []string
	cmd            *exec.Cmd
	starts         int
}

func (s *server) start(ctx context.Context) error {
	f, err := os.OpenFile(s.log, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o644)
	if err != nil {
		return err
	}
	cmd := exec.Command(s.bin, "-addr", s.addr)
	cmd.Env = append(os.Environ(), s.env...)
	cmd.Stdout, cmd.Stderr = f, f
	if err := cmd.Start(); err != nil {
		return err
	}
	s.cmd = cmd
	s.starts++
	go func() { _ = cmd.Wait(); f.Close() }()
	deadline := time.Now().Add(60 * time.Second)
	for time.Now().Before(deadline) {
		res, err := http.Get("http://" + s.addr + "/readyz")
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

func (s *server) kill() error {
	return s.cmd.Process.Signal(syscall.SIGKILL)
}

func (s *server) terminate() error {
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

func (s *server) stop() {
	if s.cmd != nil {
		_ = s.cmd.Process.Signal(syscall.SIGKILL)
	}
}

func freeAddr() (string, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", err
	}
	defer ln.Close()
	return "127.0.0.1:" + strconv.Itoa(ln.Addr().(*net.TCPAddr).Port), nil
}
