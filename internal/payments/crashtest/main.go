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
	"github.com/venueplatform/venue/internal/payments/stripetest"
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
	rig, err := crashrig.Prepare(ctx, "venue-paycrash-", c.root, c.keep)
	if err != nil {
		return err
	}
	defer rig.Close()
	dbURL := rig.DatabaseURL

	fake := stripetest.New()
	defer fake.Close()
	fake.Default = stripetest.Outcome{Delay: c.delay}
	fake.AddAccount(account, true)

	seedKey := make([]byte, 32)
	if _, err := rand.Read(seedKey); err != nil {
		return err
	}
	signing := base64.StdEncoding.EncodeToString(seedKey)
	srv, err := rig.Server(append(os.Environ(),
		"VENUE_DEMO=false", "VENUE_JOBS_RESCUE_AFTER=15s",
		"VENUE_JWT_SIGNING_KEY="+signing,
		"VENUE_STRIPE_SECRET_KEY=sk_test_crash", "VENUE_STRIPE_API_BASE="+fake.URL,
		"VENUE_STRIPE_WEBHOOK_SECRET=whsec_crash", "VENUE_STRIPE_TIMEOUT=10s",
	))
	if err != nil {
		return err
	}
	addr := srv.Addr
	if err := srv.Start(ctx); err != nil {
		return err
	}
	defer srv.Stop()

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
		if err := srv.Kill(); err != nil {
			return err
		}
		kills++
		fmt.Printf("SIGKILL %d after %d charges reached Stripe, %d requests in flight\n", kills, target, inFlight)
		time.Sleep(300 * time.Millisecond) // requests meanwhile fail and are retried
		if err := srv.Start(ctx); err != nil {
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
