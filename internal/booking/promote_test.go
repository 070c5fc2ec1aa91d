package booking_test

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	entbooking "github.com/venueplatform/venue/ent/booking"
	"github.com/venueplatform/venue/ent/event"
	"github.com/venueplatform/venue/internal/booking"
)

// TestPromoteUnrankedWaitlist: a waitlisted row without a position (written
// by an import or before positions existed) waits behind every ranked one and
// is promoted without a crash when its turn comes; the ranked rows keep
// contiguous positions.
func TestPromoteUnrankedWaitlist(t *testing.T) {
	w := newWorld(t, "promote-unranked")
	ctx := w.op
	c := w.class(t, 48*time.Hour, 1)
	m1, _ := w.member(t, "a@example.com", w.clipType, ptr(3))
	m2, p2 := w.member(t, "b@example.com", w.clipType, ptr(3))
	m3, p3 := w.member(t, "c@example.com", w.clipType, ptr(3))
	m4, _ := w.member(t, "d@example.com", w.clipType, ptr(3))

	b1, err := booking.Book(ctx, w.client, actor(m1), booking.Request{ClassID: c.ID}, w.now)
	require.NoError(t, err)
	// The unranked row arrives before the ranked ones.
	raw := w.client.Booking.Create().SetMemberID(m2.ID).SetClassInstanceID(c.ID).
		SetStatus(entbooking.StatusWaitlisted).SetCreatedAt(w.now.Add(-time.Hour)).SaveX(ctx)
	require.Nil(t, raw.WaitlistPosition)
	b3, err := booking.Book(ctx, w.client, actor(m3), booking.Request{ClassID: c.ID}, w.now)
	require.NoError(t, err)
	require.Equal(t, entbooking.StatusWaitlisted, b3.Booking.Status)
	require.Equal(t, 1, *b3.Booking.WaitlistPosition, "ranks count the ranked places only")
	b4, err := booking.Book(ctx, w.client, actor(m4), booking.Request{ClassID: c.ID}, w.now)
	require.NoError(t, err)
	require.Equal(t, entbooking.StatusWaitlisted, b4.Booking.Status)
	require.Equal(t, 2, *b4.Booking.WaitlistPosition)

	// A seat frees: the first ranked row goes first, the next moves up.
	res, err := booking.Cancel(ctx, w.client, actor(m1), b1.Booking.ID, "", w.now)
	require.NoError(t, err)
	require.Len(t, res.Promoted, 1)
	require.Equal(t, b3.Booking.ID, res.Promoted[0].ID)
	require.Equal(t, 2, w.clips(t, p3))
	require.Equal(t, 1, *w.client.Booking.GetX(ctx, b4.Booking.ID).WaitlistPosition)

	// Two more seats: the ranked row, then the unranked one.
	w.client.ClassInstance.UpdateOneID(c.ID).SetCapacity(3).ExecX(ctx)
	promoted, err := booking.Promote(ctx, w.client, c.ID, w.now)
	require.NoError(t, err)
	require.Len(t, promoted, 2)
	require.Equal(t, b4.Booking.ID, promoted[0].ID)
	require.Equal(t, raw.ID, promoted[1].ID)
	got := w.client.Booking.GetX(ctx, raw.ID)
	require.Equal(t, entbooking.StatusConfirmed, got.Status)
	require.Nil(t, got.WaitlistPosition)
	require.NotNil(t, got.PassID)
	require.Equal(t, p2.ID, *got.PassID)
	require.Equal(t, 2, w.clips(t, p2), "the unranked member's clip is taken at promotion")
	n := w.client.Event.Query().Where(event.Type("booking.promoted")).CountX(ctx)
	require.Equal(t, 3, n, "one booking.promoted per promotion")
}
