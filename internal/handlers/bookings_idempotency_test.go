package handlers_test

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/stretchr/testify/require"

	entbooking "github.com/venueplatform/venue/ent/booking"
	"github.com/venueplatform/venue/ent/event"
	api "github.com/venueplatform/venue/internal/gen/api"
	"github.com/venueplatform/venue/internal/scope"
)

// TestBookingRetryAfterLostAnswer: the server dies after the booking
// committed but before the Idempotency-Key's answer was stored (the key row
// is gone, or still in flight with its lock run out). A retry with the same
// key gets the same booking (201), no second clip, no second event; another
// key is still ALREADY_BOOKED. Both for a member's token and an API key.
func TestBookingRetryAfterLostAnswer(t *testing.T) {
	e := newBookEnv(t, "book-lost-answer")
	ctx := context.Background()
	keyC := e.keyClient(t, e.op, scope.WriteSchedule)

	lose := map[string]func(t *testing.T, key string){
		"row lost": e.loseStoredAnswer,
		"in flight, lock run out": func(t *testing.T, key string) {
			tag, err := e.pool.Exec(ctx, `UPDATE idempotency_keys SET state = 'in_flight', response_status = NULL,
  response_headers = NULL, response_body = NULL, locked_until = now() - interval '1 second' WHERE key = $1`, key)
			require.NoError(t, err)
			require.EqualValues(t, 1, tag.RowsAffected())
		},
	}
	i := 0
	for name, loseAnswer := range lose {
		for _, via := range []string{"token", "api key"} {
			for _, seats := range []int{1, 0} { // a seat, or the waitlist
				i++
				class := e.class(t, e.op, e.classType, 48*time.Hour, seats).ID
				m := e.member(t, e.op, "lost-"+uuid.NewString()[:8]+"@example.com", e.ten, ptrInt(5))
				book := func(key string) (api.BookingItem, error) {
					if via == "token" {
						return bookOnce(ctx, m.c, class, e.venue.ID, key)
					}
					req := bookReq(class)
					req.MemberID = api.NewOptUUID(m.m.ID)
					res, err := keyC.CreateBooking(ctx, req, api.CreateBookingParams{IdempotencyKey: api.NewOptString(key)})
					if err != nil {
						return api.BookingItem{}, err
					}
					return res.Data, nil
				}
				t.Run(fmt.Sprintf("%s/%s/seats=%d", name, via, seats), func(t *testing.T) {
					key := uuid.NewString()
					first, err := book(key)
					require.NoError(t, err)
					clipsAfter := 5
					if first.Status == api.BookingStatusConfirmed {
						clipsAfter = 4
					}
					loseAnswer(t, key)

					again, err := book(key)
					require.NoError(t, err, "a retry after the lost answer replays the booking")
					require.Equal(t, first.ID, again.ID)
					require.Equal(t, first.Status, again.Status)
					// And once more, now from the stored answer.
					third, err := book(key)
					require.NoError(t, err)
					require.Equal(t, first.ID, third.ID)

					n := e.client.Booking.Query().Where(entbooking.MemberID(m.m.ID), entbooking.ClassInstanceID(class)).CountX(e.op)
					require.Equal(t, 1, n)
					require.Equal(t, clipsAfter, *e.client.Pass.GetX(e.op, m.pass.ID).ClipsRemaining, "no second charge")
					typ := event.Type("booking.created")
					if first.Status == api.BookingStatusWaitlisted {
						typ = event.Type("booking.waitlisted")
					}
					evs := 0
					for _, ev := range e.client.Event.Query().Where(typ).AllX(e.op) {
						if ev.Payload["booking_id"] == first.ID.String() {
							evs++
						}
					}
					require.Equal(t, 1, evs, "one event for the booking")

					// Another key is another request: the member holds the booking.
					_, err = book(uuid.NewString())
					var es *api.ErrorStatusCode
					require.True(t, errors.As(err, &es), "%v", err)
					require.Equal(t, http.StatusConflict, es.StatusCode)
					require.Equal(t, "ALREADY_BOOKED", es.Response.Error.Code)
				})
			}
		}
	}
	require.Equal(t, 8, i)
}

// TestCancelRetryAfterLostAnswer: a cancellation commits (the clip comes
// back, the waitlisted member takes the seat) and the server dies before the
// Idempotency-Key's answer is stored. The retry with the same key gets the
// first answer (200, clip restored, one promoted), and nothing happens twice:
// one clip back, one promotion, one booking.cancelled. Another key is another
// request: NOT_CANCELLABLE.
func TestCancelRetryAfterLostAnswer(t *testing.T) {
	e := newBookEnv(t, "cancel-lost-answer")
	ctx := context.Background()
	class := e.class(t, e.op, e.classType, 48*time.Hour, 1).ID
	ana := e.member(t, e.op, "ana-cancel@example.com", e.ten, ptrInt(5))
	bo := e.member(t, e.op, "bo-cancel@example.com", e.ten, ptrInt(5))
	mine, err := bookOnce(ctx, ana.c, class, e.venue.ID, uuid.NewString())
	require.NoError(t, err)
	require.Equal(t, api.BookingStatusConfirmed, mine.Status)
	theirs, err := bookOnce(ctx, bo.c, class, e.venue.ID, uuid.NewString())
	require.NoError(t, err)
	require.Equal(t, api.BookingStatusWaitlisted, theirs.Status)

	key := uuid.NewString()
	cancel := func(key string) (*api.BookingCancelResponse, error) {
		return ana.c.CancelBooking(ctx, api.CancelBookingParams{ID: mine.ID, IdempotencyKey: api.NewOptString(key)})
	}
	first, err := cancel(key)
	require.NoError(t, err)
	require.True(t, first.Data.ClipRestored)
	require.Equal(t, 1, first.Data.PromotedCount)
	e.loseStoredAnswer(t, key)

	again, err := cancel(key)
	require.NoError(t, err, "the retry gets the first answer, not NOT_CANCELLABLE")
	require.Equal(t, first.Data.Booking.ID, again.Data.Booking.ID)
	require.Equal(t, first.Data.Booking.Status, again.Data.Booking.Status)
	require.Equal(t, first.Data.Late, again.Data.Late)
	require.Equal(t, first.Data.ClipRestored, again.Data.ClipRestored)
	require.Equal(t, first.Data.PromotedCount, again.Data.PromotedCount)

	require.Equal(t, 5, *e.client.Pass.GetX(e.op, ana.pass.ID).ClipsRemaining, "one clip back")
	require.Equal(t, 4, *e.client.Pass.GetX(e.op, bo.pass.ID).ClipsRemaining, "one promotion charged once")
	require.Equal(t, entbooking.StatusConfirmed, e.client.Booking.GetX(e.op, theirs.ID).Status)
	count := func(typ string) int {
		n := 0
		for _, ev := range e.client.Event.Query().Where(event.Type(typ)).AllX(e.op) {
			if ev.Payload["class_instance_id"] == class.String() {
				n++
			}
		}
		return n
	}
	require.Equal(t, 1, count("booking.cancelled"))
	require.Equal(t, 1, count("booking.promoted"))

	_, err = cancel(uuid.NewString())
	requireCode(t, err, http.StatusUnprocessableEntity, "NOT_CANCELLABLE")
	// Without a key a repeated cancellation is refused too.
	_, err = ana.c.CancelBooking(ctx, api.CancelBookingParams{ID: mine.ID})
	requireCode(t, err, http.StatusUnprocessableEntity, "NOT_CANCELLABLE")
}

// TestBuddyAcceptRetryAfterLostAnswer: the invitee's acceptance commits
// (booked, one clip) and the server dies before the Idempotency-Key's answer
// is stored. The retry with the same key gets the same acceptance (the same
// booking), with no second clip or booking; another key is
// INVITE_NOT_PENDING.
func TestBuddyAcceptRetryAfterLostAnswer(t *testing.T) {
	e := newBookEnv(t, "buddy-lost-answer")
	ctx := context.Background()
	class := e.class(t, e.op, e.classType, 48*time.Hour, 5).ID
	ana := e.member(t, e.op, "ana-buddy@example.com", e.ten, ptrInt(5))
	bo := e.member(t, e.op, "bo-buddy@example.com", e.ten, ptrInt(5))
	_, err := bookOnce(ctx, ana.c, class, e.venue.ID, uuid.NewString())
	require.NoError(t, err)
	inv, err := ana.c.InviteBookingBuddy(ctx, &api.BookingBuddyInviteRequest{ClassInstanceID: class,
		InviteeEmail: api.NewOptString("bo-buddy@example.com")}, buddyParams(e.venue.ID))
	require.NoError(t, err)

	accept := func(key string) (*api.BookingBuddyAcceptResponse, error) {
		return bo.c.AcceptBookingBuddy(ctx, api.AcceptBookingBuddyParams{ID: inv.Data.ID,
			XOrganizationID: e.venue.ID, IdempotencyKey: api.NewOptString(key)})
	}
	key := uuid.NewString()
	first, err := accept(key)
	require.NoError(t, err)
	require.Equal(t, api.BookingStatusConfirmed, first.Data.Booking.Status)
	e.loseStoredAnswer(t, key)

	again, err := accept(key)
	require.NoError(t, err, "the retry gets the acceptance, not INVITE_NOT_PENDING")
	require.Equal(t, first.Data.Booking.ID, again.Data.Booking.ID)
	require.Equal(t, first.Data.Booking.Status, again.Data.Booking.Status)
	require.Equal(t, api.BookingBuddyInviteStatusAccepted, again.Data.Invite.Status)
	require.Equal(t, first.Data.Booking.ID, again.Data.Invite.BookingID.Value)

	require.Equal(t, 1, e.client.Booking.Query().Where(entbooking.MemberID(bo.m.ID), entbooking.ClassInstanceID(class)).CountX(e.op))
	require.Equal(t, 4, *e.client.Pass.GetX(e.op, bo.pass.ID).ClipsRemaining, "one clip taken")
	created := 0
	for _, ev := range e.client.Event.Query().Where(event.Type("booking.created")).AllX(e.op) {
		if ev.Payload["booking_id"] == first.Data.Booking.ID.String() {
			created++
		}
	}
	require.Equal(t, 1, created, "one booking.created")

	_, err = accept(uuid.NewString())
	requireCode(t, err, http.StatusUnprocessableEntity, "INVITE_NOT_PENDING")
}

// loseStoredAnswer deletes the stored answer of Idempotency-Key key, as a
// crash between the commit and the storing of the answer leaves it.
func (e *bookEnv) loseStoredAnswer(t *testing.T, key string) {
	t.Helper()
	tag, err := e.pool.Exec(context.Background(), `DELETE FROM idempotency_keys WHERE key = $1`, key)
	require.NoError(t, err)
	require.EqualValues(t, 1, tag.RowsAffected(), "the stored answer is lost")
}
