package main

import (
	"context"
	"crypto/rand"
	"encoding/base64"
	"flag"
	"fmt"
	"os"
	"time"

	"github.com/venueplatform/venue/internal/crashrig"
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
	rig, err := crashrig.Prepare(ctx, "venue-crashtest-", c.root, c.keep)
	if err != nil {
		return err
	}
	defer rig.Close()
	dbURL := rig.DatabaseURL

	rcv, err := startReceiver(c.down)
	if err != nil {
		return err
	}
	defer rcv.Close()

	sealKey := make([]byte, 32)
	if _, err := rand.Read(sealKey); err != nil {
		return err
	}
	srv, err := rig.Server(append(os.Environ(),
		"VENUE_DEMO=false",
		"VENUE_WEBHOOK_ALLOW_PRIVATE=true", "VENUE_WEBHOOK_ALLOW_HTTP=true",
		"VENUE_JOBS_RESCUE_AFTER=15s",
		"VENUE_WEBHOOK_SECRET_KEY="+base64.StdEncoding.EncodeToString(sealKey),
		"VENUE_WEBHOOK_RETRY_DELAYS=500ms,1s,2s,2s,2s,2s,2s,2s,2s,2s,2s,2s,2s,2s,2s,2s",
	))
	if err != nil {
		return err
	}
	addr := srv.Addr
	if err := srv.Start(ctx); err != nil {
		return err
	}
	defer srv.Stop()

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
		if err := srv.Kill(); err != nil {
			return err
		}
		kills++
		fmt.Printf("SIGKILL %d after %d answered, %d requests in flight\n", kills, target, inFlight)
		time.Sleep(300 * time.Millisecond) // requests meanwhile fail and are retried
		if err := srv.Start(ctx); err != nil {
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
	if err := srv.Terminate(); err != nil {
		return err
	}
	fmt.Printf("graceful stop (SIGTERM) took %s\n", time.Since(stopStart).Round(time.Millisecond))
	return reconcile(ctx, dbURL, seed, ld, rcv)
}
