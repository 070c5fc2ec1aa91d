package payments_test

import (
	"context"
	"errors"
	"log/slog"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/riverqueue/river"
	"github.com/riverqueue/river/riverdriver/riverpgxv5"
	"github.com/stretchr/testify/require"

	"github.com/venueplatform/venue/ent"
	"github.com/venueplatform/venue/ent/passtype"
	"github.com/venueplatform/venue/ent/paymentattempt"
	"github.com/venueplatform/venue/internal/apperr"
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

func TestVATShare(t *testing.T) {
	for _, c := range []struct {
		total int64
		rate  int
		want  int64
	}{
		{120000, 2500, 24000}, // DKK 1200.00 at 25 %: 240.00
		{100, 2500, 20},
		{1, 2500, 0},  // 0.2 rounds down
		{3, 2500, 1},  // 0.6 rounds up
		{5, 10000, 3}, // 2.5 rounds half up
		{1000, 0, 0},  // no VAT
		{1100, 1000, 100},
		{12345, 800, 914}, // JPY 12345 at 8 %: 914.4
	} {
		require.Equal(t, c.want, payments.VATShare(c.total, c.rate), "%d at %d bp", c.total, c.rate)
	}
	require.Equal(t, int64(1200), payments.FeeShare(120000, 100))
	require.Equal(t, "v1:checkout_charge:a1:create", payments.IdempotencyKey("checkout_charge", "a1", "create"))
}

// env is a venue on a fake Stripe with a member acting in it.
type env struct {
	pool   *pgxpool.Pool
	client *ent.Client
	fake   *stripetest.Fake
	svc    *payments.Service
	op     context.Context
	member context.Context
	org    uuid.UUID
	user   uuid.UUID
	mid    uuid.UUID
	now    time.Time
}

func newEnv(t *testing.T, currency string, price int64) *env {
	t.Helper()
	pool := pgtest.NewPool(t)
	_, err := jobs.Migrate(context.Background(), pool)
	require.NoError(t, err)
	client := db.NewClient(pool)
	v, err := venue.Create(context.Background(), client, venue.CreateParams{Name: "Pay", Slug: "pay"})
	require.NoError(t, err)
	e := &env{pool: pool, client: client, fake: stripetest.New(), org: v.ID, now: time.Now()}
	t.Cleanup(e.fake.Close)
	e.op = viewer.NewContext(context.Background(), viewer.Operator{Org: v.ID, Name: "test"})
	client.VenuePayments.Create().SetAccountID("acct_pay").SetChargesEnabled(true).SaveX(e.op)
	client.PassType.Create().SetName("Drop-in").SetSlug("drop").SetCategory(passtype.CategoryDropIn).
		SetPriceMinor(price).SetCurrency(currency).SetClips(1).SaveX(e.op)
	en, err := members.Enroll(e.op, client, members.EnrollParams{Email: "m@pay.example"})
	require.NoError(t, err)
	e.user, e.mid = en.User.ID, en.Member.ID
	e.member, _, err = booking.AsMember(viewer.NewContext(context.Background(), viewer.User{UserID: en.User.ID}), client, v.ID)
	require.NoError(t, err)
	e.svc = payments.New(client, payments.Config{
		Port: stripeport.New(stripeport.Config{SecretKey: "sk_test_x", APIBase: e.fake.URL}),
		Now:  func() time.Time { return e.now }, WebhookSecrets: []string{"whsec_x"}})
	return e
}

func code(t *testing.T, err error) string {
	t.Helper()
	var ae *apperr.Error
	require.True(t, errors.As(err, &ae), "an apperr, got %v", err)
	return ae.Code
}

// TestQuoteIsFrozen: the quote expires after five minutes; the amount
// charged is the quote's, in the currency's minor units, whatever the
// exponent.
func TestQuoteIsFrozen(t *testing.T) {
	for _, c := range []struct {
		currency string
		price    int64
	}{{"DKK", 12000}, {"JPY", 1500}, {"KWD", 12350}} {
		t.Run(c.currency, func(t *testing.T) {
			e := newEnv(t, c.currency, c.price)
			pv, err := e.svc.Preview(e.member, e.org, e.user, payments.PreviewParams{PassTypeSlug: "drop"})
			require.NoError(t, err)
			require.Equal(t, c.price, pv.Quote.PayableMinor)

			e.now = e.now.Add(payments.QuoteTTL)
			_, err = e.svc.Purchase(e.member, e.org, e.user, e.mid, payments.PurchaseParams{Quote: pv.Quote, PaymentMethodID: "pm_card_visa"})
			require.Equal(t, payments.CodeQuoteStale, code(t, err))
			require.Empty(t, e.fake.Intents())

			e.now = e.now.Add(-time.Second)
			res, err := e.svc.Purchase(e.member, e.org, e.user, e.mid, payments.PurchaseParams{Quote: pv.Quote, PaymentMethodID: "pm_card_visa"})
			require.NoError(t, err)
			require.Equal(t, payments.StatusPaid, res.Status)
			pi := e.fake.Intent(res.IntentID)
			require.EqualValues(t, c.price, pi["amount"])
			require.Equal(t, res.Checkout.Currency, c.currency)
		})
	}
}

// TestJobsRunOnRiver: the inbound event and reconcile jobs, queued in the
// transactions that record them, run on River's workers as the server
// registers them: one settles a processing charge, the other an unknown one.
func TestJobsRunOnRiver(t *testing.T) {
	e := newEnv(t, "DKK", 12000)
	e.fake.Script(stripetest.Outcome{Status: "processing"}, stripetest.Outcome{Drop: 10})
	buy := func() (*payments.PurchaseResult, error) {
		pv, err := e.svc.Preview(e.member, e.org, e.user, payments.PreviewParams{PassTypeSlug: "drop"})
		require.NoError(t, err)
		return e.svc.Purchase(e.member, e.org, e.user, e.mid, payments.PurchaseParams{Quote: pv.Quote, PaymentMethodID: "pm_card_visa"})
	}
	res, err := buy()
	require.NoError(t, err)
	require.Equal(t, payments.StatusProcessing, res.Status)
	body, sig := stripetest.Event("evt_ok", "payment_intent.succeeded", "acct_pay", e.fake.SetStatus(res.IntentID, "succeeded"), "whsec_x")
	fresh, err := e.svc.Receive(context.Background(), body, sig)
	require.NoError(t, err)
	require.True(t, fresh)

	e.now = e.now.Add(time.Second) // a new quote
	_, err = buy()
	require.Equal(t, "UNKNOWN_WRITE_OUTCOME", code(t, err))

	workers := river.NewWorkers()
	require.NoError(t, e.svc.Register(workers))
	rc, err := river.NewClient(riverpgxv5.New(e.pool), &river.Config{
		Queues:            map[string]river.QueueConfig{river.QueueDefault: {MaxWorkers: 4}},
		Workers:           workers,
		FetchPollInterval: 50 * time.Millisecond, FetchCooldown: 10 * time.Millisecond,
		Logger: slog.New(slog.DiscardHandler),
	})
	require.NoError(t, err)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	require.NoError(t, rc.Start(ctx))
	defer func() { _ = rc.Stop(context.Background()) }()

	require.Eventually(t, func() bool {
		n, err := e.client.Pass.Query().Count(e.op)
		return err == nil && n == 2
	}, 30*time.Second, 50*time.Millisecond, "both purchases activated by the jobs")
	require.Equal(t, 2, e.client.Payment.Query().CountX(e.op))
	require.Len(t, e.fake.Intents(), 2, "no charge made twice")
}

// TestSweepAndReconcileAbsentCharge: an attempt a dead server left in flight
// is swept to unknown with its reconcile job; Stripe has no intent for it,
// so once search can be trusted the attempt is canceled (never charged) and
// the member may buy the quote again.
func TestSweepAndReconcileAbsentCharge(t *testing.T) {
	e := newEnv(t, "DKK", 12000)
	pv, err := e.svc.Preview(e.member, e.org, e.user, payments.PreviewParams{PassTypeSlug: "drop"})
	require.NoError(t, err)
	co := e.client.Checkout.Create().SetMemberID(e.mid).SetPassTypeID(pv.PassType.ID).SetAmountMinor(12000).
		SetCurrency("DKK").SetVatMinor(2400).SetVatRateBp(2500).SetQuoteFingerprint(pv.Quote.Fingerprint).
		SetQuoteIssuedAt(pv.Quote.IssuedAt).SaveX(e.op)
	at := e.client.PaymentAttempt.Create().SetPurpose(paymentattempt.PurposeCheckoutCharge).SetSubjectID(co.ID).
		SetNumber(1).SetState(paymentattempt.StateInFlight).SetLiveSubjectID(co.ID).SaveX(e.op)

	n, err := e.svc.SweepStale(context.Background())
	require.NoError(t, err)
	require.Zero(t, n, "a fresh attempt may still be in its call")
	e.now = e.now.Add(payments.StaleAfter + time.Second)
	n, err = e.svc.SweepStale(context.Background())
	require.NoError(t, err)
	require.Equal(t, 1, n)
	require.Equal(t, paymentattempt.StateUnknown, e.client.PaymentAttempt.GetX(e.op, at.ID).State)
	var jobs int
	require.NoError(t, e.pool.QueryRow(context.Background(), `SELECT count(*) FROM river_job WHERE kind = 'payments.reconcile'`).Scan(&jobs))
	require.Equal(t, 1, jobs)

	e.now = time.Now()
	require.Error(t, e.svc.Reconcile(e.op, at.ID), "search may lag: ask again later")
	require.Equal(t, paymentattempt.StateUnknown, e.client.PaymentAttempt.GetX(e.op, at.ID).State)
	e.now = e.now.Add(payments.SearchLag + time.Second)
	require.NoError(t, e.svc.Reconcile(e.op, at.ID))
	require.Equal(t, paymentattempt.StateCanceled, e.client.PaymentAttempt.GetX(e.op, at.ID).State)
	for _, r := range e.fake.Requests() {
		require.NotEqual(t, "POST", r.Method, "reconcile only reads")
	}

	e.now = time.Now()
	res, err := e.svc.Purchase(e.member, e.org, e.user, e.mid, payments.PurchaseParams{Quote: pv.Quote, PaymentMethodID: "pm_card_visa"})
	require.NoError(t, err)
	require.Equal(t, payments.StatusPaid, res.Status)
	require.Equal(t, 2, e.client.PaymentAttempt.Query().CountX(e.op))
}
