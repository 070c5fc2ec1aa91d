// Command crashtest checks that renewals are booked exactly once through
// server crashes, with the real server binary receiving the fake Stripe's
// events over HTTP:
//
//	go run ./internal/billing/crashtest -members 200 -months 12 -kills 2
//
// It starts a throwaway PostgreSQL and the server (package crashrig), seeds a
// venue with monthly memberships whose renewals it starts on the fake Stripe
// (package stripetest), then moves the billing clock month by month (renewals,
// then the retries three days later, about one charge in ten declined) and
// posts every event Stripe would send to the server's event endpoint, as
// Stripe does: again until it is answered 2xx. The server is SIGKILLed -kills
// times in the middle of a month's events and restarted. Once every recorded
// event is processed (the event jobs resume after the restart) it compares
// the books with the fake Stripe: as many paid invoices, the same paid total,
// one payment row per paid invoice summing to it, one failed payment row per
// declined charge, gapless invoice numbers. It exits non-zero when any check
// fails.
//
// TestCrashDuringRenewals runs it at a small scale with the test suite.
package main

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/base64"
	"errors"
	"flag"
	"fmt"
	"net/http"
	"os"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/venueplatform/venue/ent/passtype"
	"github.com/venueplatform/venue/internal/billing"
	"github.com/venueplatform/venue/internal/crashrig"
	"github.com/venueplatform/venue/internal/db"
	"github.com/venueplatform/venue/internal/payments"
	"github.com/venueplatform/venue/internal/payments/stripeport"
	"github.com/venueplatform/venue/internal/payments/stripetest"
	"github.com/venueplatform/venue/internal/venue"
	"github.com/venueplatform/venue/internal/viewer"
)

const (
	account = "acct_renewcrash"
	secret  = "whsec_renewcrash"
)

type config struct {
	members, months, kills int
	keep                   bool
	root                   string
}

func main() {
	var c config
	flag.IntVar(&c.members, "members", 200, "monthly memberships")
	flag.IntVar(&c.months, "months", 12, "months of renewals")
	flag.IntVar(&c.kills, "kills", 2, "SIGKILLs of the server during the run")
	flag.BoolVar(&c.keep, "keep", false, "keep the work directory")
	flag.Parse()
	c.root = "."
	if err := run(c); err != nil {
		fmt.Fprintln(os.Stderr, "crashtest:", err)
		os.Exit(1)
	}
}

// decline declines the first charge of about one invoice in ten.
func decline(sub string, invoice, attempt int) string {
	h := 0
	for _, ch := range sub {
		h = h*31 + int(ch)
	}
	h = (h + invoice*7919) % 10
	if h < 0 {
		h = -h
	}
	if attempt == 1 && h == 0 {
		return "insufficient_funds"
	}
	return ""
}

func run(c config) error {
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Minute)
	defer cancel()
	rig, err := crashrig.Prepare(ctx, "venue-renewcrash-", c.root, c.keep)
	if err != nil {
		return err
	}
	defer rig.Close()
	fake := stripetest.New()
	defer fake.Close()
	fake.AddAccount(account, true)
	fake.SetEventSecret(secret)
	fake.DeclineRenewals(decline)

	key := make([]byte, 32)
	if _, err := rand.Read(key); err != nil {
		return err
	}
	srv, err := rig.Server(append(os.Environ(),
		"VENUE_DEMO=false", "VENUE_JOBS_RESCUE_AFTER=15s",
		"VENUE_JWT_SIGNING_KEY="+base64.StdEncoding.EncodeToString(key),
		"VENUE_STRIPE_SECRET_KEY=sk_test_crash", "VENUE_STRIPE_API_BASE="+fake.URL,
		"VENUE_STRIPE_WEBHOOK_SECRET="+secret, "VENUE_STRIPE_TIMEOUT=10s",
	))
	if err != nil {
		return err
	}
	if err := srv.Start(ctx); err != nil {
		return err
	}
	defer srv.Stop()

	pool, err := db.Open(ctx, rig.DatabaseURL)
	if err != nil {
		return err
	}
	defer pool.Close()
	start, err := seed(ctx, pool, fake, c)
	if err != nil {
		return fmt.Errorf("seed: %w", err)
	}

	url := "http://" + srv.Addr + "/api/v1/payments/stripe/events"
	hc := &http.Client{Timeout: 30 * time.Second}
	began := time.Now()
	posted, retried, kills := 0, 0, 0
	steps := 2 * (c.months + 1)
	for step := 0; step < steps; step++ {
		day := start.AddDate(0, step/2, 0).Add(time.Hour)
		if step%2 == 1 {
			day = day.Add(stripetest.RetryAfter)
		}
		evs := fake.Advance(day)
		killAt := -1
		if kills < c.kills && step == (kills+1)*steps/(c.kills+1) {
			killAt = len(evs) / 2
		}
		for i, ev := range evs {
			if i == killAt {
				if err := srv.Kill(); err != nil {
					return err
				}
				kills++
				fmt.Printf("SIGKILL %d at step %d after %d of %d events\n", kills, step, i, len(evs))
				go func() {
					time.Sleep(300 * time.Millisecond)
					if err := srv.Start(ctx); err != nil {
						fmt.Fprintln(os.Stderr, "restart:", err)
					}
				}()
			}
			n, err := post(ctx, hc, url, ev)
			if err != nil {
				return err
			}
			posted++
			retried += n
		}
	}
	fmt.Printf("posted %d events in %s (%d retries while the server was down), %d kills\n",
		posted, time.Since(began).Round(time.Millisecond), retried, kills)
	waited, err := crashrig.WaitZero(ctx, rig.DatabaseURL, `SELECT count(*) FROM processor_events WHERE processed_at IS NULL`,
		"unprocessed events", 200*time.Millisecond, 5*time.Minute)
	if err != nil {
		return err
	}
	fmt.Printf("every event processed %s after the last post\n", waited.Round(time.Millisecond))
	return reconcile(ctx, pool, fake)
}

// post sends one event until the server answers 2xx, as Stripe would; it
// returns how many tries failed.
func post(ctx context.Context, hc *http.Client, url string, ev stripetest.SignedEvent) (int, error) {
	for failed := 0; ; failed++ {
		req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, bytes.NewReader(ev.Body))
		if err != nil {
			return failed, err
		}
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Stripe-Signature", ev.Signature)
		res, err := hc.Do(req)
		if err == nil {
			res.Body.Close()
			if res.StatusCode/100 == 2 {
				return failed, nil
			}
			if res.StatusCode < 500 {
				return failed, fmt.Errorf("event %s answered %d", ev.ID, res.StatusCode)
			}
		}
		if ctx.Err() != nil {
			return failed, ctx.Err()
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// seed makes the venue, its memberships and their subscriptions at the fake
// Stripe; it returns the day the first renewals fall.
func seed(ctx context.Context, pool *pgxpool.Pool, fake *stripetest.Fake, c config) (time.Time, error) {
	client := db.NewClient(pool)
	v, err := venue.Create(ctx, client, venue.CreateParams{Name: "Renew Crash", Slug: "renew-crash"})
	if err != nil {
		return time.Time{}, err
	}
	op := viewer.NewContext(ctx, viewer.Operator{Org: v.ID, Name: "crashtest"})
	client.VenuePayments.Create().SetAccountID(account).SetChargesEnabled(true).SaveX(op)
	monthly := passtype.BillingIntervalMonth
	pt := client.PassType.Create().SetName("Monthly").SetSlug("monthly").SetCategory(passtype.CategoryMembership).
		SetPriceMinor(49900).SetCurrency("DKK").SetIsRecurring(true).SetBillingInterval(monthly).SetBillingIntervalCount(1).
		SetClips(8).SaveX(op)
	pay := payments.New(client, payments.Config{Port: stripeport.New(stripeport.Config{SecretKey: "sk_test_crash", APIBase: fake.URL})})
	svc := billing.New(pay)
	start := time.Now().UTC().Truncate(24 * time.Hour)
	for i := range c.members {
		en, err := enroll(op, client, i)
		if err != nil {
			return time.Time{}, err
		}
		p := client.Pass.Create().SetMemberID(en).SetPassTypeID(pt.ID).SetValidFrom(start.AddDate(0, -1, 0)).SetValidTo(start).SaveX(op)
		client.PaymentCustomer.Create().SetMemberID(en).SetAccountID(account).SetCustomerID(fmt.Sprintf("cus_c%d", i)).
			SetDefaultPaymentMethodID(fmt.Sprintf("pm_c%d", i)).SaveX(op)
		if _, err := svc.Start(op, p.ID); err != nil {
			return time.Time{}, err
		}
	}
	return start, nil
}

// reconcile compares the books with the fake Stripe.
func reconcile(ctx context.Context, pool *pgxpool.Pool, fake *stripetest.Fake) error {
	var invoices, paid, gaps, failed, succeeded, doubled int
	var paidTotal, paymentTotal int64
	if err := pool.QueryRow(ctx, `SELECT count(*), count(*) FILTER (WHERE status = 'paid'),
		coalesce(sum(total_minor) FILTER (WHERE status = 'paid'), 0) FROM invoices`).Scan(&invoices, &paid, &paidTotal); err != nil {
		return err
	}
	if err := pool.QueryRow(ctx, `SELECT count(*) FROM (SELECT organization_id, year FROM invoices GROUP BY 1, 2
		HAVING min(sequence) <> 1 OR max(sequence) <> count(*)) g`).Scan(&gaps); err != nil {
		return err
	}
	if err := pool.QueryRow(ctx, `SELECT count(*) FILTER (WHERE status = 'succeeded'), count(*) FILTER (WHERE status = 'failed'),
		coalesce(sum(amount_minor) FILTER (WHERE status = 'succeeded'), 0) FROM payments WHERE kind = 'renewal'`).Scan(&succeeded, &failed, &paymentTotal); err != nil {
		return err
	}
	if err := pool.QueryRow(ctx, `SELECT count(*) FROM (SELECT processor_payment_id FROM payments WHERE kind = 'renewal'
		GROUP BY processor_payment_id, status HAVING count(*) > 1) d`).Scan(&doubled); err != nil {
		return err
	}
	fakePaid, fakeTotal := fake.PaidInvoices()
	fmt.Printf("books: %d invoices (%d at Stripe), %d paid totalling %d (Stripe: %d, %d), %d payment rows totalling %d, %d declines recorded (Stripe charged %d times)\n",
		invoices, fake.Invoices(), paid, paidTotal, fakePaid, fakeTotal, succeeded, paymentTotal, failed, fake.InvoiceCharges())
	var errs []error
	check := func(ok bool, format string, args ...any) {
		if !ok {
			errs = append(errs, fmt.Errorf(format, args...))
		}
	}
	check(invoices == fake.Invoices(), "%d invoices, Stripe made %d", invoices, fake.Invoices())
	check(paid == fakePaid && paidTotal == fakeTotal, "paid %d (%d), Stripe %d (%d)", paid, paidTotal, fakePaid, fakeTotal)
	check(succeeded == paid && paymentTotal == paidTotal, "%d payment rows (%d) for %d paid invoices (%d)", succeeded, paymentTotal, paid, paidTotal)
	check(failed == fake.InvoiceCharges()-fakePaid, "%d declines recorded, Stripe declined %d", failed, fake.InvoiceCharges()-fakePaid)
	check(gaps == 0, "%d venue-years with gaps in their numbers", gaps)
	check(doubled == 0, "%d charges with two payment rows", doubled)
	if len(errs) == 0 {
		fmt.Println("mismatches: 0")
	}
	return errors.Join(errs...)
}
