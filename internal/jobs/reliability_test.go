package jobs_test

import (
	"context"
	"fmt"
	"net/http"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/stretchr/testify/require"

	"github.com/venueplatform/venue/internal/webhooks/signature"
)

// A receiver that is down (503) for a while and then back gets every event: each delivery's
// attempts are recorded in the order the receiver saw them, failures first and one success
// last, and every request carries a valid signature.
func TestReceiverDownThenUp(t *testing.T) {
	t.Parallel()
	const (
		events = 20
		outage = 600 * time.Millisecond
	)
	e := newEnv(t, fast)

	var once sync.Once
	var downSince time.Time
	recv := newReceiver(t, func(int) int {
		once.Do(func() { downSince = time.Now() })
		if time.Since(downSince) < outage {
			return http.StatusServiceUnavailable
		}
		return http.StatusOK
	})
	subID, secret := subscribe(t, e.pool, recv.URL)
	recv.setSecret(secret)

	e.start(t)
	began := time.Now()
	ids := make([]uuid.UUID, events)
	msgs := make([]string, events)
	for i := range events {
		ids[i], msgs[i] = e.enqueue(t, subID, fmt.Sprintf(`{"type":"booking.created","data":{"n":%d}}`, i))
	}
	e.waitJobs(t, map[string]int{"completed": events})
	elapsed := time.Since(began)

	total, retried, maxAttempts := 0, 0, 0
	for i, id := range ids {
		got := recv.byMessage(msgs[i])
		recorded := attempts(t, e.pool, id)
		require.Len(t, recorded, len(got), "delivery %d: one record per request", i)
		for j, r := range recorded {
			req := got[j]
			require.True(t, req.Verified, "delivery %d request %d: signature", i, j+1)
			require.Equal(t, fmt.Sprintf(`{"type":"booking.created","data":{"n":%d}}`, i), req.Body)
			require.Equal(t, req.CorrelationID, r.CorrelationID, "delivery %d attempt %d: recorded in the order received", i, j+1)
			require.Equal(t, req.Status, r.Status)
			require.Equal(t, j+1, r.Number)
			if j < len(recorded)-1 {
				require.Equal(t, recordedAttempt{j + 1, 503, "http_status", "retrying", req.CorrelationID}, r)
			} else {
				require.Equal(t, recordedAttempt{j + 1, 200, "delivered", "delivered", req.CorrelationID}, r)
			}
		}
		total += len(recorded)
		if len(recorded) > 1 {
			retried++
		}
		maxAttempts = max(maxAttempts, len(recorded))
	}
	require.Len(t, recv.requests(), total, "no request the history lacks")
	require.Positive(t, retried, "the outage made deliveries retry")

	var pending int
	require.NoError(t, e.pool.QueryRow(context.Background(),
		`SELECT count(*) FROM test_delivery WHERE state <> 'delivered'`).Scan(&pending))
	require.Zero(t, pending)
	t.Logf("%d events, outage %s: all delivered in %s, %d attempts (%d events retried, at most %d attempts for one)",
		events, outage, elapsed.Round(time.Millisecond), total, retried, maxAttempts)
}

// A secret rotated while a delivery is retrying applies to the next attempt: each attempt is
// signed with the subscription's secret at the time.
func TestRetriesSignWithTheRotatedSecret(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	e := newEnv(t, fast)
	var up atomic.Bool
	recv := newReceiver(t, func(int) int {
		if up.Load() {
			return http.StatusOK
		}
		return http.StatusServiceUnavailable
	})
	// A retry that read the old secret just before the rotation can arrive after
	// the receiver is up again; answered 200, it would end the delivery signed with
	// the secret of its time, which is right but not the new one this test is
	// about. The receiver refuses what it cannot verify, as a real one does, so
	// the delivery ends with an attempt signed with the new secret.
	recv.refuseUnverifiedRequests()
	subID, oldSecret := subscribe(t, e.pool, recv.URL)
	recv.setSecret(oldSecret)
	e.start(t)
	id, msg := e.enqueue(t, subID, `{"type":"member.created"}`)
	require.Eventually(t, func() bool { return len(recv.requests()) >= 1 }, 5*time.Second, 5*time.Millisecond)

	newSecret, err := signature.NewSecret()
	require.NoError(t, err)
	_, err = e.pool.Exec(ctx, `UPDATE test_subscription SET secret = $2 WHERE id = $1`, subID, newSecret)
	require.NoError(t, err)
	recv.setSecret(newSecret)
	up.Store(true)
	e.waitJobs(t, map[string]int{"completed": 1})

	got := recv.byMessage(msg)
	require.GreaterOrEqual(t, len(got), 2)
	require.True(t, got[0].Verified, "first attempt with the old secret")
	last := got[len(got)-1]
	require.Equal(t, http.StatusOK, last.Status)
	require.True(t, last.Verified, "the delivered attempt with the new secret")
	require.Equal(t, "delivered", attempts(t, e.pool, id)[len(got)-1].Outcome)
}
