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

	"github.com/venueplatform/venue/internal/payments/stripetest"
	"github.com/venueplatform/venue/internal/pglocal"
)

type config struct {
	purchases, workers, kills int
	delay                     time.Duration
	keep                      bool
	// root is the module's directory, where the server is built from.
	root string
}

func main() {
	var c config
	flag.IntVar(&c.purchases, "purchases", 200, "members buying at once (one purchase each)")
	flag.IntVar(&c.workers, "workers", 200, "concurrent clients")
	flag.IntVar(&c.kills, "kills", 2, "SIGKILLs of the server during the load")
	flag.DurationVar(&c.delay, "delay", 300*time.Millisecond, "how long the fake Stripe takes to answer")
	flag.BoolVar(&c.keep, "keep", false, "keep the work directory")
	flag.Parse()
	c.root = "."
	if err := run(c); err != nil {
		fmt.Fprintln(os.Stderr, "crashtest:", err)
		os.Exit(1)
	}
}

func run(c config) error {
	ctx, cancel := context.WithTimeout(context.Background(), 15*time.Minute)
	defer cancel()
	dir, err := os.MkdirTemp("", "venue-paycrash-")
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

	fake := stripetest.New()
	defer fake.Close()
	fake.Default = stripetest.Outcome{Delay: c.delay}
	fake.AddAccount(account, true)

	seedKey := make([]byte, 32)
	if _, err := rand.Read(seedKey); err != nil {
		return err
	}
	signing := base64.StdEncoding.EncodeToString(seedKey)
	addr, err := freeAddr()
	if err != nil {
		return err
	}
	srv := &server{bin: bin, addr: addr, log: filepath.Join(dir, "server.log"), env: []string{
		"DATABASE_URL=" + dbURL, "VENUE_DEMO=false", "VENUE_JOBS_RESCUE_AFTER=15s",
		"VENUE_JWT_SIGNING_KEY=" + signing,
		"VENUE_STRIPE_SECRET_KEY=sk_test_crash", "VENUE_STRIPE_API_BASE=" + fake.URL,
		"VENUE_STRIPE_WEBHOOK_SECRET=whsec_crash", "VENUE_STRIPE_TIMEOUT=10s",
	}}
	if err := srv.start(ctx); err != nil {
		return err
	}
	defer srv.stop()

	seed, err := seedVenue(ctx, dbURL, c, signing)
	if err != nil {
		return fmt.Errorf("seed: %w", err)
	}

	loadStart := time.Now()
	ld := newLoad(c, seed, "http://"+addr)
	done := make(chan struct{})
	go func() { ld.run(ctx); close(done) }()
	kills := 0
	for kills < c.kills {
		// Kill once a further share of the charges has reached Stripe.
		target := (kills + 1) * c.purchases / (c.kills + 1)
		for len(fake.Intents()) < target && ctx.Err() == nil {
			time.Sleep(5 * time.Millisecond)
		}
		inFlight := ld.inFlight.Load()
		if err := srv.kill(); err != nil {
			return err
		}
		kills++
		fmt.Printf("SIGKILL %d after %d charges reached Stripe, %d requests in flight\n", kills, target, inFlight)
		time.Sleep(300 * time.Millisecond) // requests meanwhile fail and are retried
		if err := srv.start(ctx); err != nil {
			return err
		}
	}
	<-done
	fmt.Printf("load: %d purchases in %s, %d answered succeeded, %d answered otherwise, %d retries (server down, key still held)\n",
		c.purchases, time.Since(loadStart).Round(time.Millisecond), ld.succeeded.Load(), ld.other.Load(), ld.retried.Load())

	settled, err := waitSettled(ctx, dbURL, 5*time.Minute)
	if err != nil {
		return err
	}
	fmt.Printf("every attempt settled %s after the load\n", settled.Round(time.Millisecond))
	return reconcile(ctx, dbURL, seed, ld, fake)
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
	for time.Now().Before(deadline) && ctx.Err() == nil {
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

func (s *server) kill() error { return s.cmd.Process.Signal(syscall.SIGKILL) }

func (s *server) stop() {
	if s.cmd != nil && !errors.Is(s.cmd.Process.Signal(syscall.Signal(0)), os.ErrProcessDone) {
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
