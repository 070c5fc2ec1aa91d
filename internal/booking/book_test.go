package booking_test

import (
	"context"
	"net/http"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/venueplatform/venue/ent"
	entbooking "github.com/venueplatform/venue/ent/booking"
	"github.com/venueplatform/venue/ent/classinstance"
	"github.com/venueplatform/venue/ent/event"
	"github.com/venueplatform/venue/ent/passtype"
	"github.com/venueplatform/venue/internal/apperr"
	"github.com/venueplatform/venue/internal/booking"
)

func actor(m *ent.Member) booking.Actor {
	return booking.Actor{Member: m, Via: entbooking.BookedViaAPIKey}
}

func requireCode(t *testing.T, err error, status int, code string) {
	t.Helper()
	require.Error(t, err)
	e := apperr.From(err)
	require.Equal(t, code, e.Code, "%v", err)
	require.Equal(t, status, e.Status)
}

// TestBookRules: confirmed with a clip taken, duplicate refused, full class
// waitlisted without a clip, class status, window, daily limit and pass
// restrictions refused with their codes.
func TestBookRules(t *testing.T) {
	w := newWorld(t, "book-rules")
	ctx := w.op
	c := w.class(t, 48*time.Hour, 1)
	m1, p1 := w.member(t, "a@example.com", w.clipType, ptr(2))
	m2, p2 := w.member(t, "b@example.com", w.clipType, ptr(2))

	r, err := booking.Book(ctx, w.client, actor(m1), booking.Request{ClassID: c.ID}, w.now)
	require.NoError(t, err)
	require.Equal(t, entbooking.StatusConfirmed, r.Booking.Status)
	require.True(t, r.Booking.ClipCharged)
	require.Equal(t, 1, w.clips(t, p1))

	_, err = booking.Book(ctx, w.client, actor(m1), booking.Request{ClassID: c.ID}, w.now)
	requireCode(t, err, http.StatusConflict, booking.CodeAlreadyBooked)
	require.Equal(t, 1, w.clips(t, p1), "a refused booking charges nothing")

	r2, err := booking.Book(ctx, w.client, actor(m2), booking.Request{ClassID: c.ID}, w.now)
	require.NoError(t, err)
	require.Equal(t, entbooking.StatusWaitlisted, r2.Booking.Status)
	require.Equal(t, 1, *r2.Booking.WaitlistPosition)
	require.Equal(t, 2, w.clips(t, p2), "a waitlist place takes no clip")
	require.Equal(t, 1, w.client.Event.Query().Where(event.Type("booking.waitlisted")).CountX(ctx))

	cancelled := w.class(t, 48*time.Hour, 5)
	w.client.ClassInstance.UpdateOne(cancelled).SetStatus(classinstance.StatusCancelled).ExecX(ctx)
	_, err = booking.Book(ctx, w.client, actor(m1), booking.Request{ClassID: cancelled.ID}, w.now)
	requireCode(t, err, http.StatusUnprocessableEntity, booking.CodeClassNotBookable)

	far := w.class(t, 40*24*time.Hour, 5)
	_, err = booking.Book(ctx, w.client, actor(m1), booking.Request{ClassID: far.ID}, w.now)
	requireCode(t, err, http.StatusUnprocessableEntity, booking.CodeBookingNotOpen)
	past := w.class(t, -time.Hour, 5)
	_, err = booking.Book(ctx, w.client, actor(m1), booking.Request{ClassID: past.ID}, w.now)
	requireCode(t, err, http.StatusUnprocessableEntity, booking.CodeClassNotBookable)

	// Daily limit 1: m1 already holds a booking on the class's day. The
	// second class starts when c does: any later start crosses the venue's
	// midnight when the test runs just before it, and is then another day.
	pol := booking.DefaultPolicy()
	pol.DailyLimit = 1
	require.NoError(t, booking.SetPolicy(ctx, w.client, pol))
	same := w.class(t, 48*time.Hour, 5)
	_, err = booking.Book(ctx, w.client, actor(m1), booking.Request{ClassID: same.ID}, w.now)
	requireCode(t, err, http.StatusUnprocessableEntity, booking.CodeDailyLimit)
	require.NoError(t, booking.SetPolicy(ctx, w.client, booking.DefaultPolicy()))

	// Brand and class-type restrictions.
	other := w.client.Brand.Create().SetName("Spin").SetSlug("spin").SaveX(ctx)
	spinOnly := w.client.PassType.Create().SetName("Spin").SetSlug("spin").SetCategory(passtype.CategoryClipCard).
		SetPriceMinor(1).SetCurrency("DKK").AddAllowedBrandIDs(other.ID).SaveX(ctx)
	m3, _ := w.member(t, "c@example.com", spinOnly, nil)
	open := w.class(t, 72*time.Hour, 5)
	_, err = booking.Book(ctx, w.client, actor(m3), booking.Request{ClassID: open.ID}, w.now)
	requireCode(t, err, http.StatusUnprocessableEntity, booking.CodePassBrandRestricted)
	otherType := w.client.ClassType.Create().SetName("Yin").SetBrandID(w.brand).SaveX(ctx)
	yinOnly := w.client.PassType.Create().SetName("Yin").SetSlug("yin").SetCategory(passtype.CategoryClipCard).
		SetPriceMinor(1).SetCurrency("DKK").AddAllowedClassTypeIDs(otherType.ID).SaveX(ctx)
	m4, _ := w.member(t, "d@example.com", yinOnly, nil)
	_, err = booking.Book(ctx, w.client, actor(m4), booking.Request{ClassID: open.ID}, w.now)
	requireCode(t, err, http.StatusUnprocessableEntity, booking.CodeClassTypeRestricted)
	m5, _ := w.member(t, "e@example.com", w.clipType, ptr(0))
	_, err = booking.Book(ctx, w.client, actor(m5), booking.Request{ClassID: open.ID}, w.now)
	requireCode(t, err, http.StatusUnprocessableEntity, booking.CodePassNotUsable)
	m6, _ := w.member(t, "f@example.com", nil, nil)
	_, err = booking.Book(ctx, w.client, actor(m6), booking.Request{ClassID: open.ID}, w.now)
	requireCode(t, err, http.StatusUnprocessableEntity, booking.CodePassRequired)
}

// TestCancelAndPromote: an early cancellation restores the clip and
// promotes the first waitlisted member (clip charged then), skipping one
// without clips, who keeps first place; a late cancellation forfeits the
// clip and records the fee.
func TestCancelAndPromote(t *testing.T) {
	w := newWorld(t, "cancel-promote")
	ctx := w.op
	c := w.class(t, 48*time.Hour, 1)
	m1, p1 := w.member(t, "a@example.com", w.clipType, ptr(3))
	m2, p2 := w.member(t, "b@example.com", w.clipType, ptr(1))
	m3, p3 := w.member(t, "c@example.com", w.clipType, ptr(3))
	b1, err := booking.Book(ctx, w.client, actor(m1), booking.Request{ClassID: c.ID}, w.now)
	require.NoError(t, err)
	b2, err := booking.Book(ctx, w.client, actor(m2), booking.Request{ClassID: c.ID}, w.now)
	require.NoError(t, err)
	b3, err := booking.Book(ctx, w.client, actor(m3), booking.Request{ClassID: c.ID}, w.now)
	require.NoError(t, err)
	require.Equal(t, 2, *b3.Booking.WaitlistPosition)
	// m2 spends their last clip elsewhere before a seat frees.
	w.client.Pass.UpdateOne(p2).SetClipsRemaining(0).ExecX(ctx)

	res, err := booking.Cancel(ctx, w.client, actor(m1), b1.Booking.ID, "", w.now)
	require.NoError(t, err)
	require.False(t, res.Late)
	require.True(t, res.ClipRestored)
	require.Equal(t, 3, w.clips(t, p1))
	require.Len(t, res.Promoted, 1)
	require.Equal(t, b3.Booking.ID, res.Promoted[0].ID)
	require.Equal(t, 2, w.clips(t, p3), "the promoted member's clip is taken at promotion")
	still := w.client.Booking.GetX(ctx, b2.Booking.ID)
	require.Equal(t, entbooking.StatusWaitlisted, still.Status)
	require.Equal(t, 1, *still.WaitlistPosition)

	_, err = booking.Cancel(ctx, w.client, actor(m1), b1.Booking.ID, "", w.now)
	requireCode(t, err, http.StatusUnprocessableEntity, booking.CodeNotCancellable)

	// Late: inside 12 hours of the start, with a fee.
	pol := booking.DefaultPolicy()
	pol.LateCancelFeeMinor = 5000
	require.NoError(t, booking.SetPolicy(ctx, w.client, pol))
	late := w.now.Add(40 * time.Hour)
	res, err = booking.Cancel(ctx, w.client, actor(m3), b3.Booking.ID, "", late)
	require.NoError(t, err)
	require.True(t, res.Late)
	require.Equal(t, entbooking.StatusLateCancelled, res.Booking.Status)
	require.Equal(t, int64(5000), *res.Booking.LateCancelFeeMinor)
	require.Equal(t, entbooking.FeeStatusUnpaid, *res.Booking.FeeStatus)
	require.Equal(t, 2, w.clips(t, p3), "a late cancellation forfeits the clip")
	require.Empty(t, res.Promoted, "m2 still has no clips")
	cl := w.client.ClassInstance.GetX(ctx, c.ID)
	require.Equal(t, 0, cl.BookedCount)
	require.Equal(t, 1, cl.WaitlistCount)
}

// TestBookConcurrent: 40 members race for 5 seats; exactly 5 confirmed, the
// rest waitlisted 1..35 in arrival (lock) order, one clip each at most.
func TestBookConcurrent(t *testing.T) {
	w := newWorld(t, "book-race")
	c := w.class(t, 48*time.Hour, 5)
	const n = 40
	ms := make([]*ent.Member, n)
	for i := range ms {
		ms[i], _ = w.member(t, "m"+string(rune('a'+i%26))+string(rune('a'+i/26))+"@example.com", w.clipType, ptr(1))
	}
	errs := make(chan error, n)
	for _, m := range ms {
		go func() {
			_, err := booking.Book(context.WithoutCancel(w.op), w.client, actor(m), booking.Request{ClassID: c.ID}, w.now)
			errs <- err
		}()
	}
	for range n {
		require.NoError(t, <-errs)
	}
	rows := w.client.Booking.Query().Where(entbooking.ClassInstanceID(c.ID)).
		Order(ent.Asc(entbooking.FieldCreatedAt)).AllX(w.op)
	require.Len(t, rows, n)
	for i, b := range rows {
		if i < 5 {
			require.Equal(t, entbooking.StatusConfirmed, b.Status)
			continue
		}
		require.Equal(t, entbooking.StatusWaitlisted, b.Status)
		require.Equal(t, i-4, *b.WaitlistPosition)
	}
}
