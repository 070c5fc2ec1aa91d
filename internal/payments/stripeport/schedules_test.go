package stripeport_test

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/venueplatform/venue/internal/payments/stripeport"
)

// TestScheduleAgainstStripeMock: a schedule made from a subscription and its
// two phases (a binding price through a date with the paid trial, then the
// normal price, released after) are requests Stripe's API description
// accepts.
func TestScheduleAgainstStripeMock(t *testing.T) {
	base := startStripeMock(t)
	p := stripeport.New(stripeport.Config{SecretKey: "sk_test_123", APIBase: base})
	now := time.Now().Truncate(time.Second)
	out, err := p.ScheduleSubscription(context.Background(), stripeport.ScheduleParams{
		Account: "acct_123", IdempotencyKey: "v1:subscription_update:a1:schedule", Subscription: "sub_123",
		Product: "prod_123", Currency: "DKK", Interval: "month", IntervalCount: 1,
		FirstAmountMinor: 49900, FirstEnd: now.AddDate(0, 6, 0), TrialEnd: now.AddDate(0, 1, 0),
		ThenAmountMinor: 59900})
	require.NoError(t, err)
	require.NotEmpty(t, out.ID)
	// A cancel after the binding releases the schedule first.
	require.NoError(t, p.ReleaseSchedule(context.Background(), "acct_123", "k-release", out.ID))
}
