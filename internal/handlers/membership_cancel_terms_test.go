package handlers_test

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/venueplatform/venue/ent/checkout"
	api "github.com/venueplatform/venue/internal/gen/api"
)

// TestCancellationTermsHold: what the checkout preview promises about
// ending a membership is what the member's own cancel does. A six-month
// binding: the preview says in_app, commitment to the sixth month, earliest
// end a month after it. On the binding's last day (the sale moved back six
// months, so its renewal has been charged) the member's cancel is accepted
// and ends the membership one period after the binding, as promised.
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
	require.Equal(t, commitment.AddDate(0, 1, 0), promised.EarliestPossibleEndOn.Value)

	// Before the binding ends the cancel is refused.
	_, err := e.cancel(e.member, "terms-early")
	hookErr(t, err, 422, "BINDING_PERIOD_ACTIVE")

	// Six months on: today is the binding's last day.
	e.studio.client.Checkout.Update().Where(checkout.PassID(e.pass)).
		SetActivatedAt(time.Now().AddDate(0, -6, 0)).ExecX(e.op)
	res, err := e.cancel(e.member, "terms-on-time")
	require.NoError(t, err)
	require.Equal(t, today.Format(time.DateOnly), res.Data.BindingEndsOn.Value.Format(time.DateOnly))
	require.Equal(t, today.AddDate(0, 1, 0).Format(time.DateOnly), res.Data.EndsOn.Format(time.DateOnly),
		"the earliest end the preview promised, counted from the binding's end")
}
