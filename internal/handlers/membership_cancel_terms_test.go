package handlers_test

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/venueplatform/venue/ent/payment"
	api "github.com/venueplatform/venue/internal/gen/api"
)

// TestCancellationTermsHold: what the checkout preview promises about
// ending a membership is what the member's own cancel does. A six-month
// binding: the preview says in_app, commitment to the sixth month, and the
// earliest end is that commitment end. The member gives notice in month
// two (one renewal charged): the cancel is accepted and ends the membership
// on the commitment end; a year on the billing clock charges exactly six
// periods (today's payment and five renewals at the tier's price), none
// after.
func TestCancellationTermsHold(t *testing.T) {
	var promised api.ObligationCancellation
	var commitment time.Time
	e := newBindEnv(t, func(p *payEnv) api.GetCheckoutPreviewParams {
		q := api.GetCheckoutPreviewParams{PassTypeSlug: "unlimited", BindingMonths: api.NewOptInt(6)}
		res, err := p.preview(p.member, q)
		require.NoError(t, err)
		promised = res.Data.PurchaseObligation.Cancellation.Value
		commitment = res.Data.PurchaseObligation.Commitment.Value.CommitmentEndsOn
		return q
	})
	today := e.localToday()
	require.Equal(t, api.ObligationCancellationRequestMethodInApp, promised.RequestMethod.Value)
	require.Equal(t, "binding_period_served", promised.Condition.Value)
	require.Equal(t, today.AddDate(0, 6, 0), commitment)
	require.Equal(t, commitment, promised.EarliestPossibleEndOn.Value, "the earliest end is the commitment's end")

	// Month two: the first renewal is charged, then the member gives notice.
	e.renewals(t, 1)
	res, err := e.cancel(e.member, "terms-month-2")
	require.NoError(t, err, "notice inside the binding is accepted")
	require.Equal(t, commitment.Format(time.DateOnly), res.Data.BindingEndsOn.Value.Format(time.DateOnly))
	require.Equal(t, promised.EarliestPossibleEndOn.Value.Format(time.DateOnly), res.Data.EndsOn.Format(time.DateOnly),
		"the cancel gives the end the preview promised")

	// A year on the billing clock, month by month.
	start := time.Now()
	for m := 2; m <= 12; m++ {
		_, err := e.clock.Advance(e.op, start.AddDate(0, m, 0).Add(time.Hour))
		require.NoError(t, err)
	}
	require.Equal(t, []int64{54900, 54900, 54900, 54900, 54900}, e.fake.InvoiceAmounts(e.sub),
		"five renewals inside the binding, none at or after its end")
	paid := e.studio.client.Payment.Query().Where(payment.PassID(e.pass), payment.StatusEQ(payment.StatusSucceeded)).AllX(e.op)
	require.Len(t, paid, 6, "exactly the six periods of the binding are paid")
	var total int64
	for _, p := range paid {
		total += p.AmountMinor
	}
	require.Equal(t, int64(6*54900), total)
	_, ended := e.fake.CancelAt(e.sub)
	require.True(t, ended, "the subscription ended at the binding's end")
}
