package main

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/venueplatform/venue/internal/crashrig"
	"github.com/venueplatform/venue/internal/db"
	"github.com/venueplatform/venue/internal/payments/stripetest"
)

// waitSettled waits until no attempt is created, in flight or unknown.
func waitSettled(ctx context.Context, dbURL string, limit time.Duration) (time.Duration, error) {
	return crashrig.WaitZero(ctx, dbURL, `SELECT count(*) FROM payment_attempts WHERE state IN ('created', 'in_flight', 'unknown')`, "attempts", 200*time.Millisecond, limit)
}

// reconcile compares the database with the fake Stripe and the API's answers.
func reconcile(ctx context.Context, dbURL string, s *seeded, ld *load, fake *stripetest.Fake) error {
	pool, err := db.Open(ctx, dbURL)
	if err != nil {
		return err
	}
	defer pool.Close()
	var failures []string
	fail := func(format string, args ...any) { failures = append(failures, fmt.Sprintf(format, args...)) }

	// Stripe's side: intents by attempt, and the succeeded ones by checkout.
	perAttempt := map[string]int{}
	succeeded := map[string]string{} // checkout id -> intent id
	for _, id := range fake.Intents() {
		pi := fake.Intent(id)
		meta, _ := pi["metadata"].(map[string]string)
		perAttempt[meta["attempt_id"]]++
		if pi["status"] == "succeeded" {
			if prev, dup := succeeded[meta["checkout_id"]]; dup {
				fail("checkout %s charged twice: %s and %s", meta["checkout_id"], prev, id)
			}
			succeeded[meta["checkout_id"]] = id
		}
	}
	for at, n := range perAttempt {
		if n != 1 {
			fail("attempt %s created %d intents", at, n)
		}
	}

	// Our side: checkouts, their passes and payments.
	type row struct {
		status, intent, pass string
		passes, payments     int
	}
	checkouts := map[string]*row{}
	rows, err := pool.Query(ctx, `
		SELECT c.id::text, c.status, coalesce(c.payment_intent_id, ''), coalesce(c.pass_id::text, ''),
		       (SELECT count(*) FROM passes p WHERE p.id = c.pass_id AND p.status = 'active'),
		       (SELECT count(*) FROM payments y WHERE y.processor_payment_id = c.payment_intent_id AND y.status = 'succeeded')
		FROM checkouts c WHERE c.organization_id = $1`, s.org)
	if err != nil {
		return err
	}
	for rows.Next() {
		r := &row{}
		var id string
		if err := rows.Scan(&id, &r.status, &r.intent, &r.pass, &r.passes, &r.payments); err != nil {
			return err
		}
		checkouts[id] = r
	}
	if err := rows.Err(); err != nil {
		return err
	}
	for co, pi := range succeeded {
		r, ok := checkouts[co]
		switch {
		case !ok:
			fail("charge %s names no checkout", pi)
		case r.status != "paid" || r.intent != pi || r.passes != 1 || r.payments != 1:
			fail("checkout %s charged by %s: status %s, intent %q, %d active passes, %d payments", co, pi, r.status, r.intent, r.passes, r.payments)
		}
	}
	for co, r := range checkouts {
		if r.status == "paid" && succeeded[co] == "" {
			fail("checkout %s is paid without a succeeded charge", co)
		}
	}
	var passes, payments int
	if err := pool.QueryRow(ctx, `SELECT (SELECT count(*) FROM passes WHERE organization_id = $1), (SELECT count(*) FROM payments WHERE organization_id = $1)`,
		s.org).Scan(&passes, &payments); err != nil {
		return err
	}
	if passes != len(succeeded) || payments != len(succeeded) {
		fail("%d succeeded charges, but %d passes and %d payment rows", len(succeeded), passes, payments)
	}
	ld.mu.Lock()
	for co, st := range ld.acked {
		if st == "succeeded" && (checkouts[co] == nil || checkouts[co].status != "paid") {
			fail("the API answered checkout %s succeeded, but it is not paid", co)
		}
	}
	var answers []string
	for k, n := range ld.answers {
		answers = append(answers, fmt.Sprintf("%s: %d", k, n))
	}
	ld.mu.Unlock()
	sort.Strings(answers)
	var unknown, reconciled int
	if err := pool.QueryRow(ctx, `SELECT count(*) FILTER (WHERE number > 1), count(*) FROM payment_attempts WHERE organization_id = $1`, s.org).
		Scan(&unknown, &reconciled); err != nil {
		return err
	}
	fmt.Printf("answers: %s\n", strings.Join(answers, ", "))
	fmt.Printf("stripe: %d intents created, %d succeeded; database: %d checkouts, %d attempts (%d after a first), %d passes, %d payments\n",
		len(fake.Intents()), len(succeeded), len(checkouts), reconciled, unknown, passes, payments)
	if len(failures) > 0 {
		for _, f := range failures {
			fmt.Println("FAIL:", f)
		}
		return fmt.Errorf("%d checks failed", len(failures))
	}
	fmt.Println("ok: every succeeded charge has exactly one active pass and one payment, no pass without a charge, no attempt charged twice")
	return nil
}
