package handlers_test

import (
	"net/http"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/venueplatform/venue/ent/passtype"
	api "github.com/venueplatform/venue/internal/gen/api"
	"github.com/venueplatform/venue/internal/payments"
	"github.com/venueplatform/venue/internal/payments/stripetest"
)

// TestMembershipFirstPayment: a monthly membership's first payment charges
// one period, keeps the card on the member's customer for renewals and
// activates a pass for that period.
func TestMembershipFirstPayment(t *testing.T) {
	e := newPayEnv(t, false, false)
	res, err := e.member.GetCheckoutPreview(e.ctx, api.GetCheckoutPreviewParams{XOrganizationID: e.venue.ID, PassTypeSlug: "unlimited"})
	require.NoError(t, err)
	q, ok := res.Data.DirectPurchaseQuote.Get()
	require.True(t, ok)
	require.Equal(t, int64(59900), q.PayableMinor)
	bought, err := e.buy(e.member, q, "pm_card_visa", "m-1")
	require.NoError(t, err)
	require.Equal(t, api.CheckoutPurchasePaymentStatusSucceeded, bought.Data.PaymentStatus)
	pi := e.fake.Intent(bought.Data.PaymentIntentID.Value)
	require.Equal(t, "off_session", pi["setup_future_usage"], "the card is kept for renewals")
	require.Equal(t, e.fake.Customers()[0], pi["customer"])

	p := e.studio.client.Pass.GetX(e.op, bought.Data.PassID.Value)
	require.Equal(t, p.ValidFrom.AddDate(0, 1, 0), *p.ValidTo, "one month is paid")
	require.Equal(t, 1, e.count(t, "payments"))
}

// TestMembershipFreeStart: a membership priced 0 today saves the card with
// a setup intent; the pass activates once it succeeded, exactly once
// whether confirm or the setup_intent.succeeded events come first.
func TestMembershipFreeStart(t *testing.T) {
	e := newPayEnv(t, false, false)
	e.studio.client.PassType.Create().SetName("First month free").SetSlug("free-start").SetCategory(passtype.CategoryMembership).
		SetPriceMinor(0).SetCurrency("DKK").SetIsRecurring(true).SetBillingInterval(passtype.BillingIntervalMonth).
		SetBillingIntervalCount(1).SaveX(e.op)
	res, err := e.member.GetCheckoutPreview(e.ctx, api.GetCheckoutPreviewParams{XOrganizationID: e.venue.ID, PassTypeSlug: "free-start"})
	require.NoError(t, err)
	bought, err := e.buy(e.member, res.Data.DirectPurchaseQuote.Value, "", "f-1")
	require.NoError(t, err)
	d := bought.Data
	require.Equal(t, api.CheckoutPurchasePaymentStatusRequiresPaymentMethod, d.PaymentStatus)
	require.True(t, d.PaymentIntentID.Null)
	si := d.SetupIntentID.Value
	require.NotEmpty(t, si)
	require.Equal(t, si+"_secret_fake", d.ClientSecret.Value)
	require.Empty(t, e.fake.Intents(), "nothing is charged")

	confirm := func() (*api.CheckoutConfirmResponse, error) {
		return e.member.ConfirmCheckout(e.ctx, &api.CheckoutConfirmRequest{SetupIntentID: api.NewOptString(si)},
			api.ConfirmCheckoutParams{XOrganizationID: e.venue.ID})
	}
	_, err = confirm()
	hookErr(t, err, 409, payments.CodeNotCompleted)

	succeeded := e.fake.SetSetupStatus(si, "succeeded")
	var wg sync.WaitGroup
	errs := make(chan error, 10)
	for i := range 10 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if i%2 == 0 {
				_, err := confirm()
				errs <- err
				return
			}
			body, sig := stripetest.Event("evt_setup", "setup_intent.succeeded", payAccount, succeeded, paySecret)
			if st := e.postEvent(t, body, sig); st != http.StatusOK {
				errs <- http.ErrNotSupported
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		require.NoError(t, err)
	}
	require.Equal(t, 1, e.runEventJobs(t))
	c, err := confirm()
	require.NoError(t, err)
	require.True(t, c.Data.Confirmed)
	require.Equal(t, 1, e.count(t, "passes"))
	require.Zero(t, e.count(t, "payments"), "a free start writes no payment")
	p := e.studio.client.Pass.GetX(e.op, c.Data.PurchaseConfirmation.Value.PassID)
	require.WithinDuration(t, p.ValidFrom.AddDate(0, 1, 0), *p.ValidTo, time.Hour)
}
