package main

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/venueplatform/venue/internal/crashrig"
	"github.com/venueplatform/venue/internal/db"
)

// waitSettled waits until no delivery is pending or retrying and returns how long it took.
func waitSettled(ctx context.Context, dbURL string, limit time.Duration) (time.Duration, error) {
	return crashrig.WaitZero(ctx, dbURL, `SELECT count(*) FROM webhook_deliveries WHERE status IN ('pending', 'retrying')`, "deliveries", 100*time.Millisecond, limit)
}

// reconcile compares the database with what the API answered and the receiver got.
func reconcile(ctx context.Context, dbURL string, s *seeded, ld *load, rcv *receiver) error {
	pool, err := db.Open(ctx, dbURL)
	if err != nil {
		return err
	}
	defer pool.Close()
	var failures []string
	fail := func(format string, args ...any) { failures = append(failures, fmt.Sprintf(format, args...)) }

	bookings := map[string]string{}
	rows, _ := pool.Query(ctx, `SELECT id::text, status FROM bookings WHERE organization_id = $1`, s.org)
	for rows.Next() {
		var id, st string
		if err := rows.Scan(&id, &st); err != nil {
			return err
		}
		bookings[id] = st
	}
	if err := rows.Err(); err != nil {
		return err
	}

	type ev struct {
		id, typ, booking, msg, status string
		created                       time.Time
	}
	evByBooking := map[string][]ev{}
	evByMsg := map[string]ev{}
	rows, _ = pool.Query(ctx, `
		SELECT e.id::text, e.type, coalesce(e.payload->>'booking_id', ''), coalesce(d.message_id, ''), coalesce(d.status, ''), e.created_at
		FROM events e LEFT JOIN webhook_deliveries d ON d.event_id = e.id
		WHERE e.organization_id = $1 AND e.type IN ('booking.created', 'booking.waitlisted')`, s.org)
	deliveriesPerEvent := map[string]int{}
	for rows.Next() {
		var e ev
		if err := rows.Scan(&e.id, &e.typ, &e.booking, &e.msg, &e.status, &e.created); err != nil {
			return err
		}
		deliveriesPerEvent[e.id]++
		if deliveriesPerEvent[e.id] == 1 {
			evByBooking[e.booking] = append(evByBooking[e.booking], e)
		}
		evByMsg[e.msg] = e
	}
	if err := rows.Err(); err != nil {
		return err
	}

	received := map[string]int{}  // webhook-id -> 2xx receipts
	var latencies []time.Duration // event recorded -> first 2xx receipt
	unverified, requests, non2xx := 0, 0, 0
	for _, r := range rcv.receipts() {
		requests++
		if !r.verified {
			unverified++
		}
		if r.status != 200 {
			non2xx++
			continue
		}
		received[r.id]++
		if e, ok := evByMsg[r.id]; ok && received[r.id] == 1 {
			latencies = append(latencies, r.at.Sub(e.created))
		}
		if _, ok := bookings[r.bookingID]; !ok {
			fail("received %s for booking %s, which does not exist", r.id, r.bookingID)
		}
		if _, ok := evByMsg[r.id]; !ok {
			fail("received webhook-id %s that no committed event has", r.id)
		}
	}
	if unverified > 0 {
		fail("%d requests failed signature verification", unverified)
	}

	duplicates := 0
	for id, st := range bookings {
		evs := evByBooking[id]
		if len(evs) != 1 {
			fail("booking %s (%s) has %d booking events, want 1", id, st, len(evs))
			continue
		}
		e := evs[0]
		if n := deliveriesPerEvent[e.id]; n != 1 {
			fail("event %s has %d deliveries, want 1", e.id, n)
		}
		if e.status != "delivered" {
			fail("event %s delivery is %q", e.id, e.status)
		}
		switch n := received[e.msg]; {
		case n == 0:
			fail("event %s (%s) was never received", e.id, e.typ)
		case n > 1:
			duplicates += n - 1
		}
	}
	for id := range ld.acked {
		if _, ok := bookings[id]; !ok {
			fail("the API acknowledged booking %s, which is not in the database", id)
		}
	}
	if len(evByBooking[""]) > 0 {
		fail("%d booking events name no booking", len(evByBooking[""]))
	}

	// Attempt histories: numbered 1..n in start order, only the last one delivered.
	var badHistories, maxAttempts, multi, gaps int
	rows, _ = pool.Query(ctx, `
		SELECT d.id::text, array_agg(a.number ORDER BY a.started_at, a.number), array_agg(a.outcome ORDER BY a.started_at, a.number)
		FROM webhook_deliveries d JOIN webhook_attempts a ON a.delivery_id = d.id
		WHERE d.organization_id = $1 GROUP BY d.id`, s.org)
	for rows.Next() {
		var id string
		var nums []int32
		var outcomes []string
		if err := rows.Scan(&id, &nums, &outcomes); err != nil {
			return err
		}
		maxAttempts = max(maxAttempts, len(nums))
		if len(nums) > 1 {
			multi++
		}
		ordered := outcomes[len(outcomes)-1] == "delivered"
		for i := range nums {
			if i > 0 && nums[i] <= nums[i-1] || i < len(nums)-1 && outcomes[i] == "delivered" {
				ordered = false
			}
		}
		if !ordered {
			badHistories++
		}
		// Numbers follow the recorded attempts: a job run a kill cut short leaves no gap.
		for i, n := range nums {
			if int(n) != i+1 {
				gaps++
			}
		}
	}
	if err := rows.Err(); err != nil {
		return err
	}
	if badHistories > 0 {
		fail("%d deliveries have attempt histories out of order", badHistories)
	}
	if gaps > 0 {
		fail("%d attempt numbers are not consecutive (1..n per delivery)", gaps)
	}

	// Every River job of a delivery names a committed delivery, and every delivery has its job.
	var orphanJobs, jobless int
	if err := pool.QueryRow(ctx, `
		SELECT
			(SELECT count(*) FROM river_job j WHERE j.kind = 'webhook_delivery'
				AND NOT EXISTS (SELECT 1 FROM webhook_deliveries d WHERE d.id::text = j.args->>'delivery_id')),
			(SELECT count(*) FROM webhook_deliveries d WHERE d.organization_id = $1
				AND NOT EXISTS (SELECT 1 FROM river_job j WHERE j.kind = 'webhook_delivery' AND j.args->>'delivery_id' = d.id::text))`,
		s.org).Scan(&orphanJobs, &jobless); err != nil {
		return err
	}
	if orphanJobs > 0 || jobless > 0 {
		fail("%d jobs without a delivery, %d deliveries without a job", orphanJobs, jobless)
	}

	byStatus := map[string]int{}
	for _, st := range bookings {
		byStatus[st]++
	}
	var refusals []string
	for k, v := range ld.refusals {
		refusals = append(refusals, fmt.Sprintf("%s: %d", k, v))
	}
	sort.Strings(refusals)
	fmt.Printf("bookings committed: %d %v; acknowledged by the API: %d; refusals: [%s]\n",
		len(bookings), byStatus, len(ld.acked), strings.Join(refusals, ", "))
	fmt.Printf("events: %d, each with one delivery; receiver: %d requests (%d non-2xx while down), %d distinct webhook-ids delivered, %d redeliveries of an already delivered id, %d unverified\n",
		len(evByMsg), requests, non2xx, len(received), duplicates, unverified)
	if len(latencies) > 0 {
		sort.Slice(latencies, func(i, j int) bool { return latencies[i] < latencies[j] })
		q := func(p float64) time.Duration {
			return latencies[int(p*float64(len(latencies)-1))].Round(time.Millisecond)
		}
		fmt.Printf("event recorded -> first 2xx at the receiver: p50 %s, p95 %s, p99 %s, max %s (includes downtime and retries)\n",
			q(0.5), q(0.95), q(0.99), q(1))
	}
	fmt.Printf("river jobs: every one names a committed delivery, every delivery has one (%d orphans, %d missing)\n", orphanJobs, jobless)
	fmt.Printf("attempt histories: in order; %d deliveries needed more than one attempt, at most %d attempts, %d attempt numbers not consecutive\n", multi, maxAttempts, gaps)
	if len(failures) > 0 {
		for i, f := range failures {
			if i == 20 {
				fmt.Printf("... and %d more\n", len(failures)-20)
				break
			}
			fmt.Println("FAIL:", f)
		}
		return fmt.Errorf("%d checks failed", len(failures))
	}
	fmt.Println("OK: every committed booking has exactly one event and one delivery, delivered and verified; nothing was delivered for an uncommitted booking")
	return nil
}
