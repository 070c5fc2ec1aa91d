package events_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/venueplatform/venue/ent"
	entbooking "github.com/venueplatform/venue/ent/booking"
	"github.com/venueplatform/venue/internal/billing/fees"
	"github.com/venueplatform/venue/internal/events"
)

func init() {
	coveredElsewhere[events.FeeSettled] = true
	coveredElsewhere[events.FeeWaived] = true
}

// TestFeeEventsRecordedWithTheChange: settling or waiving a fee records
// fee.settled or fee.waived with its delivery and job in the same
// transaction, and nothing when it rolls back.
func TestFeeEventsRecordedWithTheChange(t *testing.T) {
	e := newCatalogueEnv(t)
	cl := e.class(t, 10)
	for _, c := range []struct {
		typ    string
		change func(ctx context.Context, c *ent.Client, b *ent.Booking) error
		want   entbooking.FeeStatus
	}{
		{events.FeeSettled, func(ctx context.Context, c *ent.Client, b *ent.Booking) error {
			_, _, err := fees.Settle(ctx, c, b.ID, "cash", "paid at the desk")
			return err
		}, entbooking.FeeStatusSettled},
		{events.FeeWaived, func(ctx context.Context, c *ent.Client, b *ent.Booking) error {
			_, err := fees.Waive(ctx, c, b.ID, "first time")
			return err
		}, entbooking.FeeStatusWaived},
	} {
		m := e.member(t, c.typ+"@example.com")
		b := e.client.Booking.Create().SetMemberID(m.Member.ID).SetClassInstanceID(cl.ID).
			SetStatus(entbooking.StatusLateCancelled).SetCancelledAt(e.now).SetLateCancelFeeMinor(5000).
			SetFeeStatus(entbooking.FeeStatusUnpaid).SaveX(e.op)
		_, _, jobsBefore := e.outbox(t, c.typ)
		err := events.WithTx(e.op, e.client, func(ctx context.Context, tx *ent.Tx) error {
			if err := c.change(ctx, tx.Client(), b); err != nil {
				return err
			}
			return errAbort
		})
		require.ErrorIs(t, err, errAbort)
		require.Equal(t, entbooking.FeeStatusUnpaid, *e.client.Booking.GetX(e.op, b.ID).FeeStatus)
		evs, ds, jobs := e.outbox(t, c.typ)
		require.Empty(t, evs, c.typ)
		require.Zero(t, ds, c.typ)
		require.Equal(t, jobsBefore, jobs, c.typ)

		require.NoError(t, events.WithTx(e.op, e.client, func(ctx context.Context, tx *ent.Tx) error {
			return c.change(ctx, tx.Client(), b)
		}))
		require.Equal(t, c.want, *e.client.Booking.GetX(e.op, b.ID).FeeStatus)
		evs, ds, _ = e.outbox(t, c.typ)
		require.Len(t, evs, 1, c.typ)
		require.Equal(t, 1, ds, c.typ)
		for _, k := range []string{"booking_id", "member_id", "kind", "amount_minor", "currency", "fee_status"} {
			require.Contains(t, evs[0].Payload, k)
		}
	}
}
