package booking_test

import (
	"context"
	"net/http"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/venueplatform/venue/ent"
	entbooking "github.com/venueplatform/venue/ent/booking"
	"github.com/venueplatform/venue/internal/booking"
	"github.com/venueplatform/venue/internal/viewer"
)

// asMember is m acting in the world's venue as its member, as the REST
// faces make it: the signed-in user, then booking.AsMember.
func (w *world) asMember(t testing.TB, m *ent.Member) (context.Context, booking.Actor) {
	t.Helper()
	ctx, a, err := booking.AsMember(viewer.NewContext(context.Background(), viewer.User{UserID: m.UserID}), w.client, w.org)
	require.NoError(t, err)
	return ctx, a
}

// TestMemberWaitlistAcrossMembers: members who cannot see each other's
// bookings still rank on the waitlist behind each other, close the gap one
// of them leaves, and promote the next member when one frees a seat, with
// that member's own pass charged (the named sites booking.waitlist_rank,
// booking.waitlist_gap and booking.waitlist_promotion).
func TestMemberWaitlistAcrossMembers(t *testing.T) {
	w := newWorld(t, "member-waitlist")
	c := w.class(t, 48*time.Hour, 1)
	m1, _ := w.member(t, "a@example.com", w.clipType, ptr(3))
	m2, p2 := w.member(t, "b@example.com", w.clipType, ptr(3))
	m3, _ := w.member(t, "c@example.com", w.clipType, ptr(3))
	m4, p4 := w.member(t, "d@example.com", w.clipType, ptr(3))
	ctx1, a1 := w.asMember(t, m1)
	ctx2, a2 := w.asMember(t, m2)
	ctx3, a3 := w.asMember(t, m3)
	ctx4, a4 := w.asMember(t, m4)

	b1, err := booking.Book(ctx1, w.client, a1, booking.Request{ClassID: c.ID}, w.now)
	require.NoError(t, err)
	require.Equal(t, entbooking.StatusConfirmed, b1.Booking.Status)
	var waiting []*ent.Booking
	for i, m := range []struct {
		ctx context.Context
		a   booking.Actor
	}{{ctx2, a2}, {ctx3, a3}, {ctx4, a4}} {
		r, err := booking.Book(m.ctx, w.client, m.a, booking.Request{ClassID: c.ID}, w.now)
		require.NoError(t, err)
		require.Equal(t, entbooking.StatusWaitlisted, r.Booking.Status)
		require.Equal(t, i+1, *r.Booking.WaitlistPosition, "ranked behind the other members' places")
		waiting = append(waiting, r.Booking)
	}
	// The wall holds: a member sees none of the others' bookings.
	_, err = w.client.Booking.Get(ctx2, b1.Booking.ID)
	require.True(t, ent.IsNotFound(err), "member 2 reads member 1's booking: %v", err)
	n, err := w.client.Booking.Query().Count(ctx4)
	require.NoError(t, err)
	require.Equal(t, 1, n, "member 4 counts only its own booking")

	// Member 3 leaves the waitlist: member 4, another member, moves up.
	_, err = booking.Cancel(ctx3, w.client, a3, waiting[1].ID, "", w.now)
	require.NoError(t, err)
	require.Equal(t, 2, *w.client.Booking.GetX(w.op, waiting[2].ID).WaitlistPosition)
	require.Equal(t, 1, *w.client.Booking.GetX(w.op, waiting[0].ID).WaitlistPosition)

	// Member 1 frees the seat: member 2 is promoted with their own pass, and
	// member 4 moves up to the head of the waitlist.
	res, err := booking.Cancel(ctx1, w.client, a1, b1.Booking.ID, "", w.now)
	require.NoError(t, err)
	require.Equal(t, 1, res.PromotedCount)
	require.Equal(t, waiting[0].ID, res.Promoted[0].ID)
	got := w.client.Booking.GetX(w.op, waiting[0].ID)
	require.Equal(t, entbooking.StatusConfirmed, got.Status)
	require.Nil(t, got.WaitlistPosition)
	require.Equal(t, p2.ID, *got.PassID)
	require.Equal(t, 2, w.clips(t, p2), "the promoted member's clip is taken")
	require.Equal(t, 1, *w.client.Booking.GetX(w.op, waiting[2].ID).WaitlistPosition)
	require.Equal(t, 3, w.clips(t, p4), "a waiting member is not charged")
	cl := w.client.ClassInstance.GetX(w.op, c.ID)
	require.Equal(t, 1, cl.BookedCount)
	require.Equal(t, 1, cl.WaitlistCount)

	// A new member's place ranks behind the one left.
	m5, _ := w.member(t, "e@example.com", w.clipType, ptr(3))
	ctx5, a5 := w.asMember(t, m5)
	r5, err := booking.Book(ctx5, w.client, a5, booking.Request{ClassID: c.ID}, w.now)
	require.NoError(t, err)
	require.Equal(t, 2, *r5.Booking.WaitlistPosition)

	// A member still cannot cancel another member's booking.
	_, err = booking.Cancel(ctx5, w.client, a5, waiting[2].ID, "", w.now)
	require.ErrorIs(t, err, booking.ErrBookingNotFound)
}

// TestMemberBuddyInvite: a member invites another member, whose bookings the
// inviter cannot see; an invitee who already holds a live booking of the
// class is refused (the named site booking.buddy_invitee), one without is
// invited and accepts as themselves.
func TestMemberBuddyInvite(t *testing.T) {
	w := newWorld(t, "member-buddy")
	c := w.class(t, 48*time.Hour, 2)
	ana, _ := w.member(t, "ana@example.com", w.clipType, ptr(3))
	bo, _ := w.member(t, "bo@example.com", w.clipType, ptr(3))
	cy, pcy := w.member(t, "cy@example.com", w.clipType, ptr(3))
	actxAna, aAna := w.asMember(t, ana)
	actxBo, aBo := w.asMember(t, bo)
	actxCy, aCy := w.asMember(t, cy)

	_, err := booking.Book(actxAna, w.client, aAna, booking.Request{ClassID: c.ID}, w.now)
	require.NoError(t, err)
	_, err = booking.Book(actxBo, w.client, aBo, booking.Request{ClassID: c.ID}, w.now)
	require.NoError(t, err)

	_, err = booking.InviteBuddy(actxAna, w.client, aAna, c.ID, booking.Invitee{Email: "bo@example.com"}, "", w.now)
	requireCode(t, err, http.StatusConflict, booking.CodeAlreadyBooked)

	inv, err := booking.InviteBuddy(actxAna, w.client, aAna, c.ID, booking.Invitee{Email: "cy@example.com"}, "hi", w.now)
	require.NoError(t, err)
	require.Equal(t, cy.ID, inv.InviteeMemberID)
	inv, res, err := booking.AcceptBuddy(actxCy, w.client, aCy, inv.ID, nil, "", w.now)
	require.NoError(t, err)
	require.Equal(t, res.Booking.ID, *inv.BookingID)
	require.Equal(t, entbooking.StatusWaitlisted, res.Booking.Status, "the class is full: the invitee waits")
	require.Equal(t, 1, *res.Booking.WaitlistPosition)
	require.Equal(t, pcy.ID, *res.Booking.PassID)
}
