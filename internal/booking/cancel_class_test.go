package booking_test

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/venueplatform/venue/ent"
	entbooking "github.com/venueplatform/venue/ent/booking"
	"github.com/venueplatform/venue/ent/event"
	"github.com/venueplatform/venue/internal/booking"
	"github.com/venueplatform/venue/internal/events"
)

// TestCancelClass: every live, unattended booking is cancelled, clips the
// bookings took come back, attended ones stay, nobody is promoted, one
// booking.cancelled each; and it joins a caller's transaction.
func TestCancelClass(t *testing.T) {
	w := newWorld(t, "cancel-class")
	c := w.class(t, 48*time.Hour, 2)
	m1, p1 := w.member(t, "a@example.com", w.clipType, ptr(4))
	m2, p2 := w.member(t, "b@example.com", w.clipType, ptr(4))
	m3, _ := w.member(t, "c@example.com", w.clipType, ptr(4))
	m4, _ := w.member(t, "d@example.com", nil, nil)
	mk := func(m *ent.Member, p *ent.Pass, st entbooking.Status, charged bool) *ent.Booking {
		b := w.client.Booking.Create().SetMemberID(m.ID).SetClassInstanceID(c.ID).SetStatus(st).SetClipCharged(charged)
		if p != nil {
			b.SetPassID(p.ID)
		}
		return b.SaveX(w.op)
	}
	mk(m1, p1, entbooking.StatusConfirmed, true)
	mk(m2, p2, entbooking.StatusWaitlisted, false)
	attended := mk(m3, nil, entbooking.StatusCheckedIn, false)
	mk(m4, nil, entbooking.StatusPendingPayment, false)

	var got []*ent.Booking
	err := events.WithTx(w.op, w.client, func(ctx context.Context, tx *ent.Tx) error {
		var err error
		got, err = booking.CancelClass(ctx, tx.Client(), c.ID, w.now)
		return err
	})
	require.NoError(t, err)
	require.Len(t, got, 3)
	for _, b := range got {
		require.Equal(t, entbooking.StatusCancelled, b.Status)
		require.Equal(t, booking.ReasonClassCancelled, *b.CancelReason)
		require.Nil(t, b.WaitlistPosition)
	}
	require.Equal(t, 5, w.clips(t, p1), "the confirmed booking's clip is restored")
	require.Equal(t, 4, w.clips(t, p2), "a waitlisted booking took no clip")
	require.Equal(t, entbooking.StatusCheckedIn, w.client.Booking.GetX(w.op, attended.ID).Status)
	n := w.client.Event.Query().Where(event.Type(events.BookingCancelled)).CountX(w.op)
	require.Equal(t, 3, n)
	cl := w.client.ClassInstance.GetX(w.op, c.ID)
	require.Equal(t, 1, cl.BookedCount, "only the attended seat remains")
	require.Equal(t, 0, cl.WaitlistCount)

	// A foreign or unknown class is not found.
	_, err = booking.CancelClass(w.op, w.client, p1.ID, w.now)
	require.ErrorIs(t, err, booking.ErrClassNotFound)
}
