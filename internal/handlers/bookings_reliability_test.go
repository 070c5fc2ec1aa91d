package handlers_test

import (
	"context"
	"fmt"
	"net/http"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/stretchr/testify/require"

	"github.com/venueplatform/venue/ent"
	entbooking "github.com/venueplatform/venue/ent/booking"
	"github.com/venueplatform/venue/ent/event"
	"github.com/venueplatform/venue/ent/pass"
	api "github.com/venueplatform/venue/internal/gen/api"
	"github.com/venueplatform/venue/internal/members"
)

// crowd enrols n members with a ten-clip pass holding clips each, in bulk,
// and mints each a token.
func (e *bookEnv) crowd(t testing.TB, n, clips int) []bookMember {
	t.Helper()
	ps := make([]members.EnrollParams, n)
	for i := range ps {
		ps[i] = members.EnrollParams{Email: fmt.Sprintf("crowd-%d-%s@example.com", i, uuid.NewString()[:6]), FirstName: "C"}
	}
	en, err := members.EnrollAll(e.op, e.client, ps)
	require.NoError(t, err)
	creates := make([]*ent.PassCreate, n)
	for i, x := range en {
		creates[i] = e.client.Pass.Create().SetMemberID(x.Member.ID).SetPassTypeID(e.ten.ID).
			SetValidFrom(time.Now().AddDate(0, 0, -1)).SetClipsRemaining(clips)
	}
	passes := e.client.Pass.CreateBulk(creates...).SaveX(e.op)
	out := make([]bookMember, n)
	for i, x := range en {
		tok := e.tokenFor(t, x.User.ID)
		out[i] = bookMember{m: x.Member, pass: passes[i], token: tok, c: e.bearer(t, tok)}
	}
	return out
}

// bookOnce posts one booking with key, retrying while the same key is in
// flight (409 IDEMPOTENCY_KEY_IN_USE: the first request is still running).
func bookOnce(ctx context.Context, c *api.Client, class, org uuid.UUID, key string) (api.BookingItem, error) {
	for attempt := 0; ; attempt++ {
		res, err := c.CreateBooking(ctx, bookReq(class), api.CreateBookingParams{
			XOrganizationID: api.NewOptUUID(org), IdempotencyKey: api.NewOptString(key)})
		if inUseBackoff(err, attempt) {
			continue
		}
		if err != nil {
			return api.BookingItem{}, err
		}
		return res.Data, nil
	}
}

// raceResult checks the outcome of n members racing for seats free seats of
// class: exactly seats confirmed, the rest waitlisted 1..n-seats in arrival
// (class lock) order, each pass charged at most once.
func checkRace(t *testing.T, e *bookEnv, class uuid.UUID, crowd []bookMember, answers map[uuid.UUID]api.BookingItem, seats int) {
	t.Helper()
	n := len(crowd)
	confirmed, waitlisted := 0, 0
	var positions []int
	for _, a := range answers {
		switch a.Status {
		case api.BookingStatusConfirmed:
			confirmed++
		case api.BookingStatusWaitlisted:
			waitlisted++
			positions = append(positions, a.WaitlistPosition.Value)
		default:
			t.Fatalf("unexpected status %s", a.Status)
		}
	}
	require.Equal(t, seats, confirmed)
	require.Equal(t, n-seats, waitlisted)
	slices.Sort(positions)
	for i, p := range positions {
		require.Equal(t, i+1, p, "waitlist positions are 1..%d, contiguous", n-seats)
	}
	// Arrival order: created_at is taken under the class lock, so sorting by
	// it gives the order in which requests held the lock (and committed).
	rows := e.client.Booking.Query().Where(entbooking.ClassInstanceID(class)).
		Order(ent.Asc(entbooking.FieldCreatedAt), ent.Asc(entbooking.FieldID)).AllX(e.op)
	require.Len(t, rows, n, "one booking per member, retries included")
	for i, b := range rows {
		if i < seats {
			require.Equal(t, entbooking.StatusConfirmed, b.Status, "the first %d to take the lock are seated", seats)
			continue
		}
		require.Equal(t, entbooking.StatusWaitlisted, b.Status)
		require.Equal(t, i-seats+1, *b.WaitlistPosition, "positions follow lock order")
		require.Equal(t, answers[b.MemberID].WaitlistPosition.Value, *b.WaitlistPosition)
	}
	// No pass charged twice: seated members hold 4 of 5 clips, the rest 5.
	ids := make([]uuid.UUID, n)
	for i, m := range crowd {
		ids[i] = m.pass.ID
	}
	charged := 0
	for _, p := range e.client.Pass.Query().Where(pass.IDIn(ids...)).AllX(e.op) {
		require.Contains(t, []int{4, 5}, *p.ClipsRemaining)
		if *p.ClipsRemaining == 4 {
			charged++
		}
	}
	require.Equal(t, seats, charged)
	cl := e.client.ClassInstance.GetX(e.op, class)
	require.Equal(t, seats, cl.BookedCount)
	require.Equal(t, n-seats, cl.WaitlistCount)
	require.Equal(t, seats, e.client.Event.Query().Where(event.Type("booking.created")).CountX(e.op))
	require.Equal(t, n-seats, e.client.Event.Query().Where(event.Type("booking.waitlisted")).CountX(e.op))
	t.Logf("%d requests for %d seats: %d confirmed, %d waitlisted (positions 1..%d in lock order)", n, seats, confirmed, waitlisted, len(positions))
}

// TestBookingRace200: 200 members book a class with 20 free seats at once.
func TestBookingRace200(t *testing.T) {
	e := newBookEnv(t, "studio")
	cl := e.class(t, e.op, e.classType, 48*time.Hour, 20)
	crowd := e.crowd(t, 200, 5)
	answers := make(map[uuid.UUID]api.BookingItem, len(crowd))
	var mu sync.Mutex
	var wg sync.WaitGroup
	start := make(chan struct{})
	errs := make(chan error, len(crowd))
	for _, m := range crowd {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-start
			a, err := bookOnce(context.Background(), m.c, cl.ID, e.venue.ID, uuid.NewString())
			if err != nil {
				errs <- err
				return
			}
			mu.Lock()
			answers[m.m.ID] = a
			mu.Unlock()
		}()
	}
	close(start)
	wg.Wait()
	close(errs)
	for err := range errs {
		require.NoError(t, err)
	}
	checkRace(t, e, cl.ID, crowd, answers, 20)
}

// TestBookingRace200Retried: the same race with every request sent twice,
// at the same time, with the same Idempotency-Key: both copies get the same
// answer and the outcome is unchanged (still 20 confirmed, 200 bookings).
func TestBookingRace200Retried(t *testing.T) {
	e := newBookEnv(t, "studio")
	cl := e.class(t, e.op, e.classType, 48*time.Hour, 20)
	crowd := e.crowd(t, 200, 5)
	type pair struct{ a, b api.BookingItem }
	answers := make(map[uuid.UUID]*pair, len(crowd))
	var mu sync.Mutex
	var wg sync.WaitGroup
	start := make(chan struct{})
	errs := make(chan error, 2*len(crowd))
	for _, m := range crowd {
		key := uuid.NewString()
		answers[m.m.ID] = &pair{}
		for copy := range 2 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				<-start
				a, err := bookOnce(context.Background(), m.c, cl.ID, e.venue.ID, key)
				if err != nil {
					errs <- err
					return
				}
				mu.Lock()
				if copy == 0 {
					answers[m.m.ID].a = a
				} else {
					answers[m.m.ID].b = a
				}
				mu.Unlock()
			}()
		}
	}
	close(start)
	wg.Wait()
	close(errs)
	for err := range errs {
		require.NoError(t, err)
	}
	firsts := make(map[uuid.UUID]api.BookingItem, len(crowd))
	for id, p := range answers {
		require.Equal(t, p.a.ID, p.b.ID, "both copies answer the same booking")
		require.Equal(t, p.a.Status, p.b.Status)
		require.Equal(t, p.a.WaitlistPosition, p.b.WaitlistPosition)
		firsts[id] = p.a
	}
	checkRace(t, e, cl.ID, crowd, firsts, 20)

	// A later retry with a used key is replayed, not booked again.
	m := crowd[0]
	res, err := m.c.CreateBooking(context.Background(), bookReq(cl.ID), api.CreateBookingParams{
		XOrganizationID: api.NewOptUUID(e.venue.ID), IdempotencyKey: api.NewOptString(uuid.NewString())})
	require.Error(t, err, "a new key is a new request: already booked")
	require.Nil(t, res)
	requireCode(t, err, http.StatusConflict, "ALREADY_BOOKED")
}

// BenchmarkBookingContention measures POST /bookings throughput with 16
// clients booking the same class at once (every request takes the same class
// lock): half the requests get seats, half join the waitlist. Run with
//
//	go test -run '^$' -bench BookingContention -benchtime 1000x ./internal/handlers/
func BenchmarkBookingContention(b *testing.B) {
	e := newBookEnvB(b, "bench")
	cl := e.class(b, e.op, e.classType, 48*time.Hour, max(1, b.N/2))
	crowd := e.crowd(b, b.N, 5)
	next := make(chan bookMember, len(crowd))
	for _, m := range crowd {
		next <- m
	}
	close(next)
	const clients = 16
	var wg sync.WaitGroup
	var failed sync.Once
	var firstErr error
	b.ResetTimer()
	began := time.Now()
	for range clients {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for m := range next {
				if _, err := bookOnce(context.Background(), m.c, cl.ID, e.venue.ID, uuid.NewString()); err != nil {
					failed.Do(func() { firstErr = err })
				}
			}
		}()
	}
	wg.Wait()
	elapsed := time.Since(began)
	b.StopTimer()
	if firstErr != nil {
		b.Fatal(firstErr)
	}
	b.ReportMetric(float64(b.N)/elapsed.Seconds(), "bookings/s")
	b.ReportMetric(clients, "clients")
}
