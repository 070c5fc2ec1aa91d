package jobs_test

import (
	"context"
	"log/slog"
	"net/http"
	"sync"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/venueplatform/venue/internal/jobs"
	"github.com/venueplatform/venue/internal/pgtest"
	"github.com/venueplatform/venue/internal/webhooks/deliver"
	"github.com/venueplatform/venue/internal/webhooks/dispatch"
	"github.com/venueplatform/venue/internal/webhooks/retry"
)

func TestMain(m *testing.M) { pgtest.Main(m) }

// fast is a schedule of milliseconds, for tests: 20, 40, 80, 160 ms, then every 200 ms for
// at most 5 s.
var fast = retry.Schedule{
	Delays:  []time.Duration{20 * time.Millisecond, 40 * time.Millisecond, 80 * time.Millisecond, 160 * time.Millisecond},
	Repeat:  200 * time.Millisecond,
	Horizon: 5 * time.Second,
	Jitter:  0.2,
}

// testEnv is a test database with River's tables and the test tables, and a River client.
type testEnv struct {
	pool   *pgxpool.Pool
	store  pgStore
	client *jobs.Client
}

// newEnv prepares the database and a client with the webhook worker; start starts it.
func newEnv(t *testing.T, schedule retry.Schedule) *testEnv {
	t.Helper()
	ctx := context.Background()
	pool := pgtest.NewPool(t)
	_, err := jobs.Migrate(ctx, pool)
	require.NoError(t, err)
	_, err = pool.Exec(ctx, testSchema)
	require.NoError(t, err)

	store := pgStore{pool}
	client, err := jobs.NewClient(pool, jobs.Config{
		Webhooks: dispatch.Config{
			Store:    store,
			Sender:   deliver.New(deliver.Options{AllowPrivate: true, AllowHTTP: true, Timeout: 2 * time.Second}),
			Schedule: schedule,
		},
		Logger:            slog.New(slog.DiscardHandler),
		FetchPollInterval: 20 * time.Millisecond,
		FetchCooldown:     5 * time.Millisecond,
	})
	require.NoError(t, err)
	return &testEnv{pool: pool, store: store, client: client}
}

func (e *testEnv) start(t *testing.T) {
	t.Helper()
	require.NoError(t, e.client.Start(context.Background()))
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		require.NoError(t, e.client.Stop(ctx))
	})
}

// enqueue inserts a delivery and its job in one committed transaction.
func (e *testEnv) enqueue(t *testing.T, subscriptionID uuid.UUID, body string) (uuid.UUID, string) {
	t.Helper()
	ctx := context.Background()
	tx, err := e.pool.Begin(ctx)
	require.NoError(t, err)
	id, msgID := insertDelivery(t, tx, subscriptionID, body)
	_, err = e.client.InsertTx(ctx, tx, dispatch.DeliverArgs{DeliveryID: id}, nil)
	require.NoError(t, err)
	require.NoError(t, tx.Commit(ctx))
	return id, msgID
}

// jobStates counts River's jobs by state.
func (e *testEnv) jobStates(t *testing.T) map[string]int {
	t.Helper()
	rows, err := e.pool.Query(context.Background(), `SELECT state::text, count(*) FROM river_job GROUP BY state`)
	require.NoError(t, err)
	defer rows.Close()
	out := map[string]int{}
	for rows.Next() {
		var state string
		var n int
		require.NoError(t, rows.Scan(&state, &n))
		out[state] = n
	}
	require.NoError(t, rows.Err())
	return out
}

// waitJobs waits until River's jobs are in exactly the given states.
func (e *testEnv) waitJobs(t *testing.T, want map[string]int) {
	t.Helper()
	require.EventuallyWithT(t, func(c *assertCollect) {
		require.Equal(c, want, e.jobStates(t))
	}, 10*time.Second, 10*time.Millisecond)
}

func TestMigrateIsIdempotent(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	pool := pgtest.NewPool(t)
	applied, err := jobs.Migrate(ctx, pool)
	require.NoError(t, err)
	require.NotEmpty(t, applied)
	again, err := jobs.Migrate(ctx, pool)
	require.NoError(t, err)
	require.Empty(t, again)
	var n int
	require.NoError(t, pool.QueryRow(ctx, `SELECT count(*) FROM river_job`).Scan(&n))
}

// A job inserted in a transaction that rolls back never runs; one in a committed
// transaction runs exactly once.
func TestInsertTxFollowsTheTransaction(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	e := newEnv(t, fast)
	recv := newReceiver(t, func(int) int { return http.StatusOK })
	subID, secret := subscribe(t, e.pool, recv.URL)
	recv.setSecret(secret)

	tx, err := e.pool.Begin(ctx)
	require.NoError(t, err)
	rolledBack, rolledBackMsg := insertDelivery(t, tx, subID, `{"type":"booking.created","n":1}`)
	_, err = e.client.InsertTx(ctx, tx, dispatch.DeliverArgs{DeliveryID: rolledBack}, nil)
	require.NoError(t, err)
	require.NoError(t, tx.Rollback(ctx))

	committed, committedMsg := e.enqueue(t, subID, `{"type":"booking.created","n":2}`)

	e.start(t)
	e.waitJobs(t, map[string]int{"completed": 1})
	time.Sleep(200 * time.Millisecond) // time enough for a second run, were there one

	require.Equal(t, map[string]int{"completed": 1}, e.jobStates(t))
	require.Empty(t, recv.byMessage(rolledBackMsg))
	got := recv.byMessage(committedMsg)
	require.Len(t, got, 1)
	require.True(t, got[0].Verified)
	require.Equal(t, `{"type":"booking.created","n":2}`, got[0].Body)
	require.Len(t, recv.requests(), 1)

	recorded := attempts(t, e.pool, committed)
	require.Len(t, recorded, 1)
	require.Equal(t, recordedAttempt{Number: 1, Status: 200, Class: "delivered", Outcome: "delivered", CorrelationID: got[0].CorrelationID}, recorded[0])
	require.Empty(t, attempts(t, e.pool, rolledBack))
}

// 410 Gone disables the subscription after one attempt; a later delivery to it is cancelled
// without a request.
func TestGoneDisablesTheSubscription(t *testing.T) {
	t.Parallel()
	e := newEnv(t, fast)
	recv := newReceiver(t, func(int) int { return http.StatusGone })
	subID, _ := subscribe(t, e.pool, recv.URL)
	first, _ := e.enqueue(t, subID, `{"n":1}`)
	e.start(t)
	e.waitJobs(t, map[string]int{"cancelled": 1})

	require.Equal(t, []recordedAttempt{{1, 410, "gone", "disabled", recv.requests()[0].CorrelationID}}, attempts(t, e.pool, first))
	var reason string
	require.NoError(t, e.pool.QueryRow(context.Background(), `SELECT disabled_reason FROM test_subscription WHERE id = $1`, subID).Scan(&reason))
	require.Equal(t, "receiver answered 410 Gone", reason)

	second, _ := e.enqueue(t, subID, `{"n":2}`)
	e.waitJobs(t, map[string]int{"cancelled": 2})
	require.Len(t, recv.requests(), 1)
	require.Empty(t, attempts(t, e.pool, second))
}

// A receiver that never recovers gets the schedule's attempts, then the delivery fails.
func TestGivesUpWhenTheScheduleEnds(t *testing.T) {
	t.Parallel()
	schedule := retry.Schedule{Delays: []time.Duration{10 * time.Millisecond, 10 * time.Millisecond}}
	e := newEnv(t, schedule)
	recv := newReceiver(t, func(int) int { return http.StatusInternalServerError })
	subID, _ := subscribe(t, e.pool, recv.URL)
	id, _ := e.enqueue(t, subID, `{"n":1}`)
	e.start(t)
	e.waitJobs(t, map[string]int{"cancelled": 1})

	got := attempts(t, e.pool, id)
	require.Len(t, got, 3)
	for i, a := range got {
		require.Equal(t, i+1, a.Number)
		require.Equal(t, 500, a.Status)
		require.Equal(t, "http_status", a.Class)
	}
	require.Equal(t, []string{"retrying", "retrying", "failed"}, []string{got[0].Outcome, got[1].Outcome, got[2].Outcome})
	require.Len(t, recv.requests(), 3)
}

// A job whose delivery row is gone is cancelled without a request.
func TestMissingDeliveryIsCancelled(t *testing.T) {
	t.Parallel()
	e := newEnv(t, fast)
	_, err := e.client.Insert(context.Background(), dispatch.DeliverArgs{DeliveryID: uuid.New()}, nil)
	require.NoError(t, err)
	e.start(t)
	e.waitJobs(t, map[string]int{"cancelled": 1})
}

// assertCollect is the collector EventuallyWithT hands its condition.
type assertCollect = assert.CollectT

// Instances starting together apply River's migrations once between them.
func TestConcurrentMigrateAppliesOnce(t *testing.T) {
	t.Parallel()
	pool := pgtest.NewPool(t)
	var wg sync.WaitGroup
	results := make([][]int, 4)
	errs := make([]error, 4)
	for i := range results {
		wg.Go(func() { results[i], errs[i] = jobs.Migrate(context.Background(), pool) })
	}
	wg.Wait()
	var all []int
	for i := range results {
		require.NoError(t, errs[i])
		all = append(all, results[i]...)
	}
	seen := map[int]bool{}
	for _, v := range all {
		require.False(t, seen[v], "version %d applied twice", v)
		seen[v] = true
	}
	require.NotEmpty(t, all)
}
