package store_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/venueplatform/venue/ent"
	"github.com/venueplatform/venue/ent/webhookattempt"
	"github.com/venueplatform/venue/ent/webhookdelivery"
	"github.com/venueplatform/venue/internal/db"
	"github.com/venueplatform/venue/internal/events"
	"github.com/venueplatform/venue/internal/jobs"
	"github.com/venueplatform/venue/internal/pgtest"
	"github.com/venueplatform/venue/internal/secretbox"
	"github.com/venueplatform/venue/internal/venue"
	"github.com/venueplatform/venue/internal/viewer"
	"github.com/venueplatform/venue/internal/webhooks/deliver"
	"github.com/venueplatform/venue/internal/webhooks/dispatch"
	"github.com/venueplatform/venue/internal/webhooks/retry"
	"github.com/venueplatform/venue/internal/webhooks/signature"
	"github.com/venueplatform/venue/internal/webhooks/store"
)

func TestMain(m *testing.M) { pgtest.Main(m) }

// env is a migrated database (River's tables too) with two venues.
type env struct {
	pool   *pgxpool.Pool
	client *ent.Client
	a, b   context.Context // operator viewers of venues A and B
}

func newEnv(t *testing.T) *env {
	t.Helper()
	ctx := context.Background()
	pool := pgtest.NewPool(t)
	_, err := jobs.Migrate(ctx, pool)
	require.NoError(t, err)
	client := db.NewClient(pool)
	va, err := venue.Create(ctx, client, venue.CreateParams{Name: "A", Slug: "a"})
	require.NoError(t, err)
	vb, err := venue.Create(ctx, client, venue.CreateParams{Name: "B", Slug: "b"})
	require.NoError(t, err)
	return &env{pool: pool, client: client,
		a: viewer.NewContext(ctx, viewer.Operator{Org: va.ID, Name: "test"}),
		b: viewer.NewContext(ctx, viewer.Operator{Org: vb.ID, Name: "test"})}
}

func (e *env) subscribe(t *testing.T, ctx context.Context, url string, types ...string) *ent.WebhookSubscription {
	t.Helper()
	secret, err := signature.NewSecret()
	require.NoError(t, err)
	return e.client.WebhookSubscription.Create().SetURL(url).SetEventTypes(types).SetSecret(secret).SaveX(ctx)
}

// record commits one event of typ in its own transaction, as a change would.
func (e *env) record(t *testing.T, ctx context.Context, typ string, data map[string]any) *ent.Event {
	t.Helper()
	var ev *ent.Event
	require.NoError(t, events.WithTx(ctx, e.client, func(ctx context.Context, tx *ent.Tx) error {
		var err error
		ev, err = events.Record(ctx, tx.Client(), typ, data)
		return err
	}))
	return ev
}

func (e *env) jobCount(t *testing.T) int {
	var n int
	require.NoError(t, e.pool.QueryRow(context.Background(),
		`SELECT count(*) FROM river_job WHERE kind = $1`, dispatch.Kind).Scan(&n))
	return n
}

// start runs River with the store over the env's database until the test ends.
func (e *env) start(t *testing.T, schedule retry.Schedule) {
	e.startWith(t, schedule, store.New(e.client))
}

func (e *env) startWith(t *testing.T, schedule retry.Schedule, st *store.Store) {
	t.Helper()
	c, err := jobs.NewClient(e.pool, jobs.Config{
		Webhooks: dispatch.Config{
			Store:    st,
			Sender:   deliver.New(deliver.Options{AllowPrivate: true, AllowHTTP: true, Timeout: 2 * time.Second}),
			Schedule: schedule,
		},
		Logger:            slog.New(slog.DiscardHandler),
		FetchPollInterval: 20 * time.Millisecond,
		FetchCooldown:     5 * time.Millisecond,
	})
	require.NoError(t, err)
	require.NoError(t, c.Start(context.Background()))
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		require.NoError(t, c.Stop(ctx))
	})
}

// hit is one request a receiver got.
type hit struct {
	id, correlation string
	status          int
	verified        bool
	body            []byte
}

// receiver answers 503 while down, 200 otherwise, and verifies every signature.
type receiver struct {
	*httptest.Server
	down   atomic.Bool
	secret string
	mu     sync.Mutex
	hits   []hit
}

func newReceiver(t *testing.T) *receiver {
	r := &receiver{}
	r.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		body, _ := io.ReadAll(req.Body)
		status := http.StatusOK
		if r.down.Load() {
			status = http.StatusServiceUnavailable
		}
		r.mu.Lock()
		r.hits = append(r.hits, hit{id: req.Header.Get(signature.HeaderID),
			correlation: req.Header.Get(deliver.HeaderCorrelationID), status: status,
			verified: signature.Verify(req.Header, body, r.secret) == nil, body: body})
		r.mu.Unlock()
		w.WriteHeader(status)
	}))
	t.Cleanup(r.Close)
	return r
}

func (r *receiver) got() []hit {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]hit(nil), r.hits...)
}

func TestRecordEnqueuesInTheChangesTransaction(t *testing.T) {
	e := newEnv(t)
	rcv := newReceiver(t)
	sub := e.subscribe(t, e.a, rcv.URL+"/hook", events.MemberCreated, events.BookingCreated)
	rcv.secret = sub.Secret
	e.subscribe(t, e.a, rcv.URL+"/other", events.BookingCancelled)   // another type
	e.subscribe(t, e.b, rcv.URL+"/b", events.MemberCreated)          // another venue
	off := e.subscribe(t, e.a, rcv.URL+"/off", events.MemberCreated) // disabled
	e.client.WebhookSubscription.UpdateOne(off).SetEnabled(false).ExecX(e.a)

	// A rolled-back change: no event, no delivery, no job.
	err := events.WithTx(e.a, e.client, func(ctx context.Context, tx *ent.Tx) error {
		if _, err := events.Record(ctx, tx.Client(), events.MemberCreated, map[string]any{"member_id": "gone"}); err != nil {
			return err
		}
		return errors.New("the change failed")
	})
	require.EqualError(t, err, "the change failed")
	require.Zero(t, e.client.WebhookDelivery.Query().CountX(e.a))
	require.Zero(t, e.jobCount(t))

	// A committed one: one delivery (the matching, enabled subscription of A) and one job.
	ev := e.record(t, e.a, events.MemberCreated, map[string]any{"member_id": "m1"})
	ds := e.client.WebhookDelivery.Query().AllX(e.a)
	require.Len(t, ds, 1)
	require.Equal(t, sub.ID, ds[0].SubscriptionID)
	require.Equal(t, "evt_"+ev.ID.String(), ds[0].MessageID)
	require.Equal(t, webhookdelivery.StatusPending, ds[0].Status)
	require.Zero(t, e.client.WebhookDelivery.Query().CountX(e.b))
	require.Equal(t, 1, e.jobCount(t))

	e.start(t, retry.Schedule{Delays: []time.Duration{50 * time.Millisecond}})
	require.Eventually(t, func() bool {
		return e.client.WebhookDelivery.GetX(e.a, ds[0].ID).Status == webhookdelivery.StatusDelivered
	}, 20*time.Second, 20*time.Millisecond)

	hits := rcv.got()
	require.Len(t, hits, 1)
	require.True(t, hits[0].verified, "signed with the subscription's secret")
	require.Equal(t, ds[0].MessageID, hits[0].id)
	var env store.Envelope
	require.NoError(t, json.Unmarshal(hits[0].body, &env))
	require.Equal(t, ds[0].MessageID, env.ID)
	require.Equal(t, events.MemberCreated, env.Type)
	require.Equal(t, ev.OrganizationID.String(), env.OrganizationID)
	require.Equal(t, "m1", env.Data["member_id"])
	_, err = time.Parse(time.RFC3339, env.CreatedAt)
	require.NoError(t, err)

	at := e.client.WebhookAttempt.Query().Where(webhookattempt.DeliveryID(ds[0].ID)).OnlyX(e.a)
	require.Equal(t, 1, at.Number)
	require.Equal(t, 200, *at.StatusCode)
	require.Equal(t, hits[0].correlation, at.CorrelationID)
	require.Equal(t, "delivered", at.Outcome)
	d := e.client.WebhookDelivery.GetX(e.a, ds[0].ID)
	require.Equal(t, 1, d.Attempts)
	require.NotNil(t, d.DeliveredAt)
	require.Equal(t, 200, *d.LastStatusCode)
}

// TestReceiverDownThenBack: events recorded while the receiver answers 503 are retried on a
// shortened schedule and all delivered once it is back; the attempt history of each is in
// order (503s, then one 200) and every request verifies with the secret.
func TestReceiverDownThenBack(t *testing.T) {
	e := newEnv(t)
	rcv := newReceiver(t)
	rcv.down.Store(true)
	sub := e.subscribe(t, e.a, rcv.URL+"/hook", events.MemberCreated)
	rcv.secret = sub.Secret
	e.start(t, retry.Schedule{Delays: []time.Duration{100 * time.Millisecond, 200 * time.Millisecond,
		400 * time.Millisecond, 400 * time.Millisecond, 400 * time.Millisecond, 400 * time.Millisecond,
		400 * time.Millisecond, 400 * time.Millisecond, 400 * time.Millisecond, 400 * time.Millisecond}})

	const n = 10
	for i := range n {
		e.record(t, e.a, events.MemberCreated, map[string]any{"member_id": uuid.NewString(), "n": i})
	}
	// Down until every delivery has failed at least twice.
	require.Eventually(t, func() bool {
		return e.client.WebhookDelivery.Query().Where(webhookdelivery.AttemptsGTE(2)).CountX(e.a) == n
	}, 30*time.Second, 20*time.Millisecond)
	rcv.down.Store(false)
	require.Eventually(t, func() bool {
		return e.client.WebhookDelivery.Query().Where(webhookdelivery.StatusEQ(webhookdelivery.StatusDelivered)).CountX(e.a) == n
	}, 30*time.Second, 20*time.Millisecond)

	delivered := map[string]int{}
	for _, h := range rcv.got() {
		require.True(t, h.verified, "every request verifies")
		if h.status == http.StatusOK {
			delivered[h.id]++
		}
	}
	require.Len(t, delivered, n)
	for id, c := range delivered {
		require.Equal(t, 1, c, "one accepted request per event %s", id)
	}
	for _, d := range e.client.WebhookDelivery.Query().AllX(e.a) {
		atts := e.client.WebhookAttempt.Query().Where(webhookattempt.DeliveryID(d.ID)).
			Order(ent.Asc(webhookattempt.FieldNumber)).AllX(e.a)
		require.Len(t, atts, d.Attempts)
		for i, a := range atts {
			require.Equal(t, i+1, a.Number, "attempts numbered in order")
			if i > 0 {
				require.False(t, a.StartedAt.Before(atts[i-1].StartedAt), "attempts recorded in order")
			}
			if i < len(atts)-1 {
				require.Equal(t, 503, *a.StatusCode)
				require.Equal(t, "retrying", a.Outcome)
			}
		}
		last := atts[len(atts)-1]
		require.Equal(t, 200, *last.StatusCode)
		require.Equal(t, "delivered", last.Outcome)
	}
}

// A 410 disables the subscription and its waiting deliveries.
func TestGoneDisables(t *testing.T) {
	e := newEnv(t)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { w.WriteHeader(http.StatusGone) }))
	t.Cleanup(srv.Close)
	sub := e.subscribe(t, e.a, srv.URL, events.MemberCreated)
	e.record(t, e.a, events.MemberCreated, nil)
	e.start(t, retry.Schedule{Delays: []time.Duration{50 * time.Millisecond}})
	require.Eventually(t, func() bool {
		return !e.client.WebhookSubscription.GetX(e.a, sub.ID).Enabled
	}, 20*time.Second, 20*time.Millisecond)
	s := e.client.WebhookSubscription.GetX(e.a, sub.ID)
	require.Equal(t, "receiver answered 410 Gone", *s.DisabledReason)
	require.NotNil(t, s.DisabledAt)
	d := e.client.WebhookDelivery.Query().OnlyX(e.a)
	require.Equal(t, webhookdelivery.StatusDisabled, d.Status)
	// Later events are not enqueued for it.
	e.record(t, e.a, events.MemberCreated, nil)
	require.Equal(t, 1, e.client.WebhookDelivery.Query().CountX(e.a))
}

func TestSecretsDuringOverlap(t *testing.T) {
	now := time.Now()
	prev, later := "whsec_b2xk", now.Add(time.Hour)
	sub := &ent.WebhookSubscription{Secret: "whsec_bmV3", PreviousSecret: &prev, PreviousSecretExpiresAt: &later}
	got, err := store.Secrets(nil, sub, now)
	require.NoError(t, err)
	require.Equal(t, []string{"whsec_bmV3", prev}, got)
	got, err = store.Secrets(nil, sub, later.Add(time.Second))
	require.NoError(t, err)
	require.Equal(t, []string{"whsec_bmV3"}, got)
}

// A secret sealed at rest opens for signing with the configured key.
func TestSealedSecretSigns(t *testing.T) {
	e := newEnv(t)
	rcv := newReceiver(t)
	box, err := secretbox.New(secretbox.FormatWebhook, bytes.Repeat([]byte{7}, secretbox.KeySize))
	require.NoError(t, err)
	secret, err := signature.NewSecret()
	require.NoError(t, err)
	id := uuid.New()
	sealed, err := box.Seal(secret, id.String())
	require.NoError(t, err)
	e.client.WebhookSubscription.Create().SetID(id).SetURL(rcv.URL).SetEventTypes([]string{events.MemberCreated}).
		SetSecret(sealed).ExecX(e.a)
	rcv.secret = secret
	e.record(t, e.a, events.MemberCreated, nil)
	e.startWith(t, retry.Schedule{Delays: []time.Duration{50 * time.Millisecond}}, store.New(e.client).WithBox(box))
	require.Eventually(t, func() bool {
		return e.client.WebhookDelivery.Query().Where(webhookdelivery.StatusEQ(webhookdelivery.StatusDelivered)).CountX(e.a) == 1
	}, 20*time.Second, 20*time.Millisecond)
	hits := rcv.got()
	require.Len(t, hits, 1)
	require.True(t, hits[0].verified)
}

// TestAttemptNumbersConsecutive: runs of a delivery's job cut short by a crash are counted by
// River but record nothing; the history numbers the recorded attempts 1, 2, 3 ... anyway, and
// the delivery's attempt count follows them.
func TestAttemptNumbersConsecutive(t *testing.T) {
	e := newEnv(t)
	e.subscribe(t, e.a, "https://hooks.example.com/in", events.MemberCreated)
	e.record(t, e.a, events.MemberCreated, nil)
	d := e.client.WebhookDelivery.Query().OnlyX(e.a)
	st := store.New(e.client)
	ctx := context.Background()
	// Job runs 1, 3, 4 and 7 got as far as recording (2, 5 and 6 died with the server).
	for i, run := range []int{1, 3, 4, 7} {
		outcome, status := dispatch.OutcomeRetrying, 503
		if i == 3 {
			outcome, status = dispatch.OutcomeDelivered, 200
		}
		require.NoError(t, st.RecordAttempt(ctx, d.ID, dispatch.Attempt{Number: run, Outcome: outcome,
			Result:        deliver.Attempt{StartedAt: time.Now(), Status: status, CorrelationID: fmt.Sprintf("req_%d", run)},
			NextAttemptAt: time.Now().Add(time.Minute)}))
	}
	atts := e.client.WebhookAttempt.Query().Where(webhookattempt.DeliveryID(d.ID)).
		Order(ent.Asc(webhookattempt.FieldNumber)).AllX(e.a)
	require.Len(t, atts, 4)
	for i, a := range atts {
		require.Equal(t, i+1, a.Number)
	}
	require.Equal(t, "req_7", atts[3].CorrelationID, "the last recorded run is attempt 4")
	got := e.client.WebhookDelivery.GetX(e.a, d.ID)
	require.Equal(t, 4, got.Attempts)
	require.Equal(t, webhookdelivery.StatusDelivered, got.Status)

	// Concurrent duplicate runs (at least once) still take distinct numbers.
	e.record(t, e.a, events.MemberCreated, nil)
	d2 := e.client.WebhookDelivery.Query().Where(webhookdelivery.IDNEQ(d.ID)).OnlyX(e.a)
	var wg sync.WaitGroup
	for range 6 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			assert.NoError(t, st.RecordAttempt(ctx, d2.ID, dispatch.Attempt{Number: 1, Outcome: dispatch.OutcomeRetrying,
				Result: deliver.Attempt{StartedAt: time.Now(), Status: 503}, NextAttemptAt: time.Now().Add(time.Minute)}))
		}()
	}
	wg.Wait()
	var nums []int
	for _, a := range e.client.WebhookAttempt.Query().Where(webhookattempt.DeliveryID(d2.ID)).
		Order(ent.Asc(webhookattempt.FieldNumber)).AllX(e.a) {
		nums = append(nums, a.Number)
	}
	require.Equal(t, []int{1, 2, 3, 4, 5, 6}, nums)
}
