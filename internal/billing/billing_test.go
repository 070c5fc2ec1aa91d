package billing_test

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"sync"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/stretchr/testify/require"

	"github.com/venueplatform/venue/ent"
	"github.com/venueplatform/venue/ent/passtype"
	"github.com/venueplatform/venue/internal/apperr"
	"github.com/venueplatform/venue/internal/billing"
	"github.com/venueplatform/venue/internal/billing/billingclock"
	"github.com/venueplatform/venue/internal/booking"
	"github.com/venueplatform/venue/internal/db"
	"github.com/venueplatform/venue/internal/jobs"
	"github.com/venueplatform/venue/internal/members"
	"github.com/venueplatform/venue/internal/payments"
	"github.com/venueplatform/venue/internal/payments/stripeport"
	"github.com/venueplatform/venue/internal/payments/stripetest"
	"github.com/venueplatform/venue/internal/pgtest"
	"github.com/venueplatform/venue/internal/venue"
	"github.com/venueplatform/venue/internal/viewer"
)

func TestMain(m *testing.M) { pgtest.Main(m) }

const secret = "whsec_billing"

// env is a venue on a fake Stripe with members holding monthly memberships
// whose renewals have started, and a billing clock.
type env struct {
	pool    *pgxpool.Pool
	client  *ent.Client
	fake    *stripetest.Fake
	pay     *payments.Service
	svc     *billing.Service
	clock   *billingclock.Clock
	op      context.Context
	org     uuid.UUID
	pt      *ent.PassType
	passes  []uuid.UUID
	members []uuid.UUID
	users   []uuid.UUID
	start   time.Time
}

func newEnv(t testing.TB, n int) *env {
	t.Helper()
	pool := pgtest.NewPool(t)
	_, err := jobs.Migrate(context.Background(), pool)
	require.NoError(t, err)
	client := db.NewClient(pool)
	v, err := venue.Create(context.Background(), client, venue.CreateParams{Name: "Renew", Slug: fmt.Sprintf("renew-%d", n)})
	require.NoError(t, err)
	e := &env{pool: pool, client: client, fake: stripetest.New(), org: v.ID,
		start: time.Date(2026, 1, 15, 0, 0, 0, 0, time.UTC)}
	t.Cleanup(e.fake.Close)
	e.fake.SetEventSecret(secret)
	e.clock = &billingclock.Clock{Fake: e.fake, Now: e.start}
	e.op = viewer.NewContext(context.Background(), viewer.Operator{Org: v.ID, Name: "test"})
	client.VenuePayments.Create().SetAccountID("acct_renew").SetChargesEnabled(true).SetVatRateBp(2500).SaveX(e.op)
	monthly := passtype.BillingIntervalMonth
	e.pt = client.PassType.Create().SetName("Monthly unlimited").SetSlug("monthly").SetCategory(passtype.CategoryMembership).
		SetPriceMinor(49900).SetCurrency("DKK").SetIsRecurring(true).SetBillingInterval(monthly).SetBillingIntervalCount(1).
		SetClips(8).SaveX(e.op)
	e.pay = payments.New(client, payments.Config{
		Port: stripeport.New(stripeport.Config{SecretKey: "sk_test_x", APIBase: e.fake.URL}),
		Now:  func() time.Time { return e.clock.Now }, WebhookSecrets: []string{secret}})
	e.clock.Pay = e.pay
	e.svc = billing.New(e.pay)
	for i := 0; i < n; i++ {
		en, err := members.Enroll(e.op, client, members.EnrollParams{Email: fmt.Sprintf("m%d@renew.example", i)})
		require.NoError(t, err)
		e.members = append(e.members, en.Member.ID)
		e.users = append(e.users, en.User.ID)
		p := client.Pass.Create().SetMemberID(en.Member.ID).SetPassTypeID(e.pt.ID).SetValidFrom(e.start.AddDate(0, -1, 0)).
			SetValidTo(e.start).SetClipsRemaining(0).SaveX(e.op)
		client.PaymentCustomer.Create().SetMemberID(en.Member.ID).SetAccountID("acct_renew").
			SetCustomerID(fmt.Sprintf("cus_m%d", i)).SetDefaultPaymentMethodID(fmt.Sprintf("pm_m%d", i)).SaveX(e.op)
		e.passes = append(e.passes, p.ID)
		_, err = e.svc.Start(e.op, p.ID)
		require.NoError(t, err)
	}
	return e
}

// member is the context of member i acting in the venue.
func (e *env) member(t testing.TB, i int) context.Context {
	t.Helper()
	ctx, _, err := booking.AsMember(viewer.NewContext(context.Background(), viewer.User{UserID: e.users[i]}), e.client, e.org)
	require.NoError(t, err)
	return ctx
}

func code(t testing.TB, err error) string {
	t.Helper()
	var ae *apperr.Error
	require.True(t, errors.As(err, &ae), "an apperr, got %v", err)
	return ae.Code
}

// ledger is what the database holds of the renewals.
type ledger struct {
	invoices, paid, open, overdue int
	paidTotal, paymentTotal       int64
	succeeded, failed             int
	perInvoicePayments            map[uuid.UUID]int
	gaps                          []string
}

func (e *env) ledger(t testing.TB) ledger {
	t.Helper()
	ctx := context.Background()
	l := ledger{perInvoicePayments: map[uuid.UUID]int{}}
	row := e.pool.QueryRow(ctx, `SELECT count(*), count(*) FILTER (WHERE status = 'paid'), count(*) FILTER (WHERE status <> 'paid'),
		count(*) FILTER (WHERE status = 'overdue'), coalesce(sum(total_minor) FILTER (WHERE status = 'paid' AND settlement = 'card'), 0)
		FROM invoices WHERE organization_id = $1`, e.org)
	require.NoError(t, row.Scan(&l.invoices, &l.paid, &l.open, &l.overdue, &l.paidTotal))
	row = e.pool.QueryRow(ctx, `SELECT count(*) FILTER (WHERE status = 'succeeded'), count(*) FILTER (WHERE status = 'failed'),
		coalesce(sum(amount_minor) FILTER (WHERE status = 'succeeded'), 0) FROM payments WHERE organization_id = $1 AND kind = 'renewal'`, e.org)
	require.NoError(t, row.Scan(&l.succeeded, &l.failed, &l.paymentTotal))
	rows, err := e.pool.Query(ctx, `SELECT i.id, count(p.id) FROM invoices i LEFT JOIN payments p ON p.id = i.payment_id
		WHERE i.organization_id = $1 AND i.status = 'paid' GROUP BY i.id`, e.org)
	require.NoError(t, err)
	for rows.Next() {
		var id uuid.UUID
		var n int
		require.NoError(t, rows.Scan(&id, &n))
		l.perInvoicePayments[id] = n
	}
	require.NoError(t, rows.Err())
	rows, err = e.pool.Query(ctx, `SELECT year, count(*), min(sequence), max(sequence) FROM invoices WHERE organization_id = $1 GROUP BY year`, e.org)
	require.NoError(t, err)
	for rows.Next() {
		var year, n, lo, hi int
		require.NoError(t, rows.Scan(&year, &n, &lo, &hi))
		if lo != 1 || hi != n {
			l.gaps = append(l.gaps, fmt.Sprintf("%d: %d invoices numbered %d..%d", year, n, lo, hi))
		}
	}
	require.NoError(t, rows.Err())
	return l
}

// declineSome declines the first attempt of about one invoice in ten, and
// the second attempt too of one in a hundred (those stay overdue).
func declineSome(sub string, invoice, attempt int) string {
	h := 0
	for _, c := range sub {
		h = h*31 + int(c)
	}
	h = (h + invoice*7919) % 100
	if h < 0 {
		h = -h
	}
	switch {
	case attempt == 1 && h < 10:
		return "insufficient_funds"
	case attempt == 2 && h < 1:
		return "card_declined"
	}
	return ""
}

// runYear advances the clock month by month for a year (each month's
// renewals, then the retries three days later) and returns the renewals
// handled.
func runYear(t testing.TB, e *env) {
	t.Helper()
	ctx := context.Background()
	e.fake.DeclineRenewals(declineSome)
	for m := 0; m <= 12; m++ {
		day := e.start.AddDate(0, m, 0)
		_, err := e.clock.Advance(ctx, day.Add(time.Hour))
		require.NoError(t, err)
		_, err = e.clock.Advance(ctx, day.Add(stripetest.RetryAfter+time.Hour))
		require.NoError(t, err)
	}
}

// TestYearOfRenewals: a year of monthly renewals with declines and
// recoveries through the billing clock: every invoice paid exactly once or
// open and overdue, gapless numbers per year, the paid totals equal to the
// payment rows, declines recorded once each, and the passes where their
// invoices say.
func TestYearOfRenewals(t *testing.T) {
	e := newEnv(t, 30)
	runYear(t, e)
	l := e.ledger(t)
	require.Equal(t, 30*13, l.invoices, "13 renewals each (Jan 15 2026 to Jan 15 2027)")
	require.Empty(t, l.gaps)
	require.Equal(t, l.paid, l.succeeded, "one payment row per paid invoice")
	for id, n := range l.perInvoicePayments {
		require.Equal(t, 1, n, "invoice %s", id)
	}
	require.Equal(t, l.paidTotal, l.paymentTotal, "paid totals reconcile with the payment rows")
	require.Equal(t, l.invoices, l.paid+l.open)
	require.Equal(t, l.open, l.overdue, "an unpaid renewal is overdue")
	require.Equal(t, e.fake.InvoiceCharges()-l.paid, l.failed, "every declined charge recorded once")
	require.Positive(t, l.failed, "the script declines some")

	var years int
	require.NoError(t, e.pool.QueryRow(context.Background(), `SELECT count(DISTINCT year) FROM invoices WHERE organization_id = $1`, e.org).Scan(&years))
	require.Equal(t, 2, years, "numbers restart with the new year")
	// Each pass: active to the end of its last paid period, clips reset, or
	// past due while an invoice is open.
	for _, id := range e.passes {
		p := e.client.Pass.GetX(e.op, id)
		var open int
		require.NoError(t, e.pool.QueryRow(context.Background(), `SELECT count(*) FROM invoices WHERE pass_id = $1 AND status <> 'paid'`, id).Scan(&open))
		if open > 0 {
			require.Equal(t, "past_due", string(p.Status))
		} else {
			require.Equal(t, "active", string(p.Status))
			require.Equal(t, e.start.AddDate(0, 13, 0), p.ValidTo.UTC())
			require.Equal(t, 8, *p.ClipsRemaining)
		}
	}
	var renewed, failedEv int
	require.NoError(t, e.pool.QueryRow(context.Background(), `SELECT count(*) FILTER (WHERE type = 'membership.renewed'),
		count(*) FILTER (WHERE type = 'membership.renewal_failed') FROM events WHERE organization_id = $1`, e.org).Scan(&renewed, &failedEv))
	require.Equal(t, l.paid, renewed)
	require.Equal(t, l.failed, failedEv)
}

// TestEventsInAnyOrder: the same year delivered with every event twice, in a
// random order within each step, ends in the same ledger.
func TestEventsInAnyOrder(t *testing.T) {
	e := newEnv(t, 12)
	e.clock.Shuffle = rand.New(rand.NewPCG(1, 2))
	runYear(t, e)
	l := e.ledger(t)
	require.Equal(t, 12*13, l.invoices)
	require.Empty(t, l.gaps)
	require.Equal(t, l.paid, l.succeeded)
	require.Equal(t, l.paidTotal, l.paymentTotal)
	require.Equal(t, e.fake.InvoiceCharges()-l.paid, l.failed, "every declined charge recorded once")
}

// TestDeclineAfterPaid: the events of a recovered renewal delivered
// backwards (the retry's invoice.paid first, then invoice.created and the
// first charge's payment_failed): the invoice stays paid, the pass active,
// the declined charge is recorded once.
func TestDeclineAfterPaid(t *testing.T) {
	e := newEnv(t, 1)
	e.fake.DeclineRenewals(func(_ string, _, attempt int) string {
		if attempt == 1 {
			return "insufficient_funds"
		}
		return ""
	})
	first := e.fake.Advance(e.start.Add(time.Hour))
	second := e.fake.Advance(e.start.Add(stripetest.RetryAfter + time.Hour))
	ctx := context.Background()
	e.clock.Now = e.start.Add(stripetest.RetryAfter + time.Hour)
	_, err := e.clock.Post(ctx, second)
	require.NoError(t, err)
	_, err = e.clock.Post(ctx, first)
	require.NoError(t, err)
	inv := e.client.Invoice.Query().OnlyX(e.op)
	require.Equal(t, "paid", string(inv.Status))
	require.Equal(t, "2026-000001", inv.Number)
	require.Equal(t, "active", string(e.client.Pass.GetX(e.op, e.passes[0]).Status))
	require.Equal(t, 1, e.failedCount(t))
	require.Equal(t, 1, lateFailures(t, e))
	require.Equal(t, 1, e.client.Payment.Query().CountX(e.op)-e.failedCount(t))
}

// lateFailures counts declines whose event arrived after their invoice was
// paid (shuffled delivery): the invoice stays paid.
func lateFailures(t testing.TB, e *env) int {
	t.Helper()
	var n int
	require.NoError(t, e.pool.QueryRow(context.Background(),
		`SELECT count(*) FROM processor_events WHERE outcome = 'invoice_failure_ignored'`).Scan(&n))
	return n
}

// TestConcurrentRetriesChargeOnce: 25 retries of one overdue invoice, the
// member's and staff's together, make one charge; the others are refused
// with PAYMENT_PENDING or find it ALREADY_PAID, and the invoice has one
// payment row.
func TestConcurrentRetriesChargeOnce(t *testing.T) {
	e := newEnv(t, 1)
	e.fake.DeclineRenewals(func(_ string, _, attempt int) string {
		if attempt == 1 {
			return "insufficient_funds"
		}
		return ""
	})
	ctx := context.Background()
	_, err := e.clock.Advance(ctx, e.start.Add(time.Hour))
	require.NoError(t, err)
	inv := e.client.Invoice.Query().OnlyX(e.op)
	require.Equal(t, "overdue", string(inv.Status))
	charges := e.fake.InvoiceCharges()

	member := e.member(t, 0)
	var wg sync.WaitGroup
	results := make([]error, 25)
	statuses := make([]string, 25)
	for i := 0; i < 25; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			p := billing.RetryParams{InvoiceID: inv.ID}
			c := e.op
			if i%2 == 0 {
				p.MemberID, c = &e.members[0], member
			}
			r, err := e.svc.Retry(c, p)
			results[i] = err
			if r != nil {
				statuses[i] = r.Status
			}
		}(i)
	}
	wg.Wait()
	ok := 0
	for i, err := range results {
		if err == nil {
			ok++
			require.Equal(t, billing.RetrySucceeded, statuses[i])
			continue
		}
		require.Contains(t, []string{payments.CodePending, payments.CodeAlreadyPaid}, code(t, err))
	}
	require.Equal(t, 1, ok)
	require.Equal(t, charges+1, e.fake.InvoiceCharges(), "one charge")
	inv = e.client.Invoice.GetX(e.op, inv.ID)
	require.Equal(t, "paid", string(inv.Status))
	require.Equal(t, 1, e.client.Payment.Query().CountX(e.op)-e.failedCount(t))
	// Stripe's own invoice.paid event, arriving after, changes nothing.
	_, err = e.clock.Deliver(ctx)
	require.NoError(t, err)
	require.Equal(t, 1, e.client.Payment.Query().CountX(e.op)-e.failedCount(t))
}

func (e *env) failedCount(t testing.TB) int {
	var n int
	require.NoError(t, e.pool.QueryRow(context.Background(), `SELECT count(*) FROM payments WHERE organization_id = $1 AND status = 'failed'`, e.org).Scan(&n))
	return n
}

// TestRetryOrderOfChecks: each refusal in the contract's order, with
// details.next_step, charging nothing.
func TestRetryOrderOfChecks(t *testing.T) {
	e := newEnv(t, 2)
	e.fake.DeclineRenewals(func(string, int, int) string { return "insufficient_funds" })
	ctx := context.Background()
	_, err := e.clock.Advance(ctx, e.start.Add(time.Hour))
	require.NoError(t, err)
	invs := e.client.Invoice.Query().AllX(e.op)
	require.Len(t, invs, 2)
	mine := invs[0]
	if mine.MemberID != e.members[0] {
		mine = invs[1]
	}
	other := invs[0]
	if other.ID == mine.ID {
		other = invs[1]
	}
	member := e.member(t, 0)
	charges := e.fake.InvoiceCharges()
	check := func(p billing.RetryParams, want string) {
		t.Helper()
		_, err := e.svc.Retry(member, p)
		require.Equal(t, want, code(t, err))
		var ae *apperr.Error
		require.True(t, errors.As(err, &ae))
		require.Contains(t, ae.Details, "next_step")
		require.Equal(t, charges, e.fake.InvoiceCharges(), "nothing charged")
	}
	m0 := e.members[0]
	check(billing.RetryParams{InvoiceID: uuid.New(), MemberID: &m0}, apperr.CodeNotFound)
	check(billing.RetryParams{InvoiceID: other.ID, MemberID: &m0}, apperr.CodeNotFound)
	wrong := billing.Balance(mine) - 1
	check(billing.RetryParams{InvoiceID: mine.ID, MemberID: &m0, Expected: &wrong}, billing.CodeBalanceChanged)
	e.client.PaymentCustomer.Update().ClearDefaultPaymentMethodID().ExecX(e.op)
	e.client.Subscription.Update().ClearPaymentMethodID().ExecX(e.op)
	check(billing.RetryParams{InvoiceID: mine.ID, MemberID: &m0}, billing.CodeNoPaymentMethod)
	e.client.VenuePayments.Update().SetChargesEnabled(false).ExecX(e.op)
	check(billing.RetryParams{InvoiceID: mine.ID, MemberID: &m0}, payments.CodeUnavailable)
	e.client.VenuePayments.Update().SetChargesEnabled(true).ExecX(e.op)
	e.client.PaymentCustomer.Update().SetDefaultPaymentMethodID("pm_again").ExecX(e.op)

	// A decline answers failed with its codes and next_step.
	r, err := e.svc.Retry(member, billing.RetryParams{InvoiceID: mine.ID, MemberID: &m0})
	require.NoError(t, err)
	require.Equal(t, billing.RetryFailed, r.Status)
	require.Equal(t, "update_card", r.NextStep)
	require.Equal(t, charges+1, e.fake.InvoiceCharges())
	charges = e.fake.InvoiceCharges()

	// Comped by staff: the member's retry is ALREADY_PAID.
	_, err = e.svc.Comp(e.op, mine.ID, "goodwill")
	require.NoError(t, err)
	check(billing.RetryParams{InvoiceID: mine.ID, MemberID: &m0}, payments.CodeAlreadyPaid)
}

// TestSettleExternally: staff record a declined renewal paid in cash: one
// payment row, the invoice paid, the pass active again, the audit entry,
// Stripe told (paid out of band, so it charges nothing more); bad amounts
// and dates change nothing.
func TestSettleExternally(t *testing.T) {
	e := newEnv(t, 1)
	e.fake.DeclineRenewals(func(string, int, int) string { return "insufficient_funds" })
	ctx := context.Background()
	_, err := e.clock.Advance(ctx, e.start.Add(time.Hour))
	require.NoError(t, err)
	inv := e.client.Invoice.Query().OnlyX(e.op)
	require.Equal(t, "past_due", string(e.client.Pass.GetX(e.op, e.passes[0]).Status))

	for _, p := range []billing.SettleParams{
		{InvoiceID: inv.ID, Method: "cash", AmountMinor: 0},
		{InvoiceID: inv.ID, Method: "cash", AmountMinor: -5},
		{InvoiceID: inv.ID, Method: "cash", AmountMinor: inv.TotalMinor + 1},
		{InvoiceID: inv.ID, Method: "cash", AmountMinor: inv.TotalMinor, PaidAt: e.clock.Now.Add(48 * time.Hour)},
	} {
		_, err := e.svc.SettleExternally(e.op, p)
		require.Equal(t, apperr.CodeValidation, code(t, err))
	}
	_, err = e.svc.SettleExternally(e.op, billing.SettleParams{InvoiceID: uuid.New(), Method: "cash", AmountMinor: 1})
	require.Equal(t, apperr.CodeNotFound, code(t, err))
	require.Equal(t, "overdue", string(e.client.Invoice.GetX(e.op, inv.ID).Status))

	got, err := e.svc.SettleExternally(e.op, billing.SettleParams{InvoiceID: inv.ID, Method: "cash", AmountMinor: inv.TotalMinor, Note: "paid at the desk"})
	require.NoError(t, err)
	require.Equal(t, "paid", string(got.Status))
	require.Equal(t, "external", string(*got.Settlement))
	require.Equal(t, "active", string(e.client.Pass.GetX(e.op, e.passes[0]).Status))
	var audits int
	require.NoError(t, e.pool.QueryRow(ctx, `SELECT count(*) FROM audit_logs WHERE action = 'payment.settled_externally' AND organization_id = $1`, e.org).Scan(&audits))
	require.Equal(t, 1, audits)
	// Stripe's paid event and its retry three days later charge nothing.
	charges := e.fake.InvoiceCharges()
	_, err = e.clock.Advance(ctx, e.start.Add(stripetest.RetryAfter+time.Hour))
	require.NoError(t, err)
	require.Equal(t, charges, e.fake.InvoiceCharges())
	require.Equal(t, 1, e.client.Payment.Query().CountX(e.op)-e.failedCount(t))
}
