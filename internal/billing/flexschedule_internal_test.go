package billing

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/venueplatform/venue/ent"
	"github.com/venueplatform/venue/ent/subscription"
	"github.com/venueplatform/venue/internal/payments/stripeport"
)

// A flexible change's phase composes with a binding's: the binding price
// until the binding ends, the normal price after it, the change's price
// from its renewal on; a change inside the binding overrides the rest of it;
// without a binding the price before the change is what Stripe charges now.
func TestFlexPhasesCompose(t *testing.T) {
	now := time.Date(2026, 11, 26, 12, 0, 0, 0, time.UTC)
	periodEnd := time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC)
	cur := &stripeport.Subscription{CurrentPeriodEnd: periodEnd, AmountMinor: 50000}
	sub := &ent.Subscription{Interval: subscription.IntervalMonth, IntervalCount: 1}
	binding := &scheduleTerms{FirstMinor: 40000, FirstEnd: time.Date(2027, 2, 1, 0, 0, 0, 0, time.UTC), ThenMinor: 50000}

	// The change at the fifth renewal, after the binding ends.
	phases, at := flexPhases(now, cur, sub, &changeOf{effectiveOn: "2027-04-01", priceMinor: 70000}, binding)
	require.Equal(t, time.Date(2027, 4, 1, 0, 0, 0, 0, time.UTC), at)
	require.Equal(t, []stripeport.Phase{
		{AmountMinor: 40000, End: binding.FirstEnd},
		{AmountMinor: 50000, End: at},
		{AmountMinor: 70000},
	}, phases)

	// The change inside the binding.
	phases, at = flexPhases(now, cur, sub, &changeOf{effectiveOn: "2027-01-01", priceMinor: 30000}, binding)
	require.Equal(t, []stripeport.Phase{{AmountMinor: 40000, End: at}, {AmountMinor: 30000}}, phases)

	// No binding: the price now, then the change's from the next renewal.
	phases, at = flexPhases(now, cur, sub, &changeOf{effectiveOn: "2026-12-01", priceMinor: 60000}, nil)
	require.Equal(t, periodEnd, at)
	require.Equal(t, []stripeport.Phase{{AmountMinor: 50000, End: periodEnd}, {AmountMinor: 60000}}, phases)
}
