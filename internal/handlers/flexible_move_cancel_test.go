package handlers_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/venueplatform/venue/internal/billing"
	"github.com/venueplatform/venue/internal/payments/stripetest"
)

// TestMoveToFlexibleAfterCancelWithdrawn: the refusal of a Move to
// Flexible follows the membership's current cancellation, not any cancel
// ever asked. Cancelled at the end of its period, the membership is 422
// not_movable; once the cancellation is withdrawn at Stripe (its
// subscription renews again; the event is believed only after reading the
// subscription), the subscription's cancel_at is cleared, audited, and
// the same move is scheduled as a phase.
func TestMoveToFlexibleAfterCancelWithdrawn(t *testing.T) {
	e := newMoveEnv(t, false)
	_, err := billing.New(e.svc).CancelAtPeriodEnd(e.op, e.pass)
	require.NoError(t, err)
	require.NotNil(t, e.subRow(t).CancelAt, "the subscription keeps its cancellation")
	_, err = e.move("mv-cancelled", 9, 1)
	es := hookErr(t, err, 422, "VALIDATION_FAILED")
	require.Equal(t, "not_movable", es.Response.Error.Details.Reason.Value)

	_, err = e.clock.Post(e.op, []stripetest.SignedEvent{e.fake.WithdrawCancel(e.sub)})
	require.NoError(t, err)
	require.Nil(t, e.subRow(t).CancelAt, "the cancellation is withdrawn")
	require.Equal(t, 1, e.audits(t, billing.AuditCancelWithdrawn))

	mv, err := e.move("mv-renewing", 9, 1)
	require.NoError(t, err, "a membership that renews again moves")
	require.True(t, mv.Data.NewPassID.Null)
	_, phases := e.fake.ScheduleOf(e.sub)
	require.Equal(t, []int64{81000}, phases[len(phases)-1:])
	require.Equal(t, 1, e.audits(t, billing.AuditMovedToFlexible))
}
