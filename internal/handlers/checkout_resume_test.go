package handlers_test

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/stretchr/testify/require"

	"github.com/venueplatform/venue/ent"
	"github.com/venueplatform/venue/ent/checkout"
	"github.com/venueplatform/venue/ent/member"
	"github.com/venueplatform/venue/ent/membercredit"
	"github.com/venueplatform/venue/ent/pass"
	"github.com/venueplatform/venue/ent/passtype"
	"github.com/venueplatform/venue/ent/user"
	api "github.com/venueplatform/venue/internal/gen/api"
	"github.com/venueplatform/venue/internal/payments"
)

// reserve buys the monthly membership for c through the payment sheet (no
// card yet): the purchase leaves a pending pass, the reservation.
func (e *payEnv) reserve(t *testing.T, c *api.Client, p api.GetCheckoutPreviewParams, key string) api.CheckoutPurchase {
	t.Helper()
	if p.PassTypeSlug == "" {
		p.PassTypeSlug = "unlimited"
	}
	pv, err := e.preview(c, p)
	require.NoError(t, err)
	res, err := e.buy(c, pv.Data.DirectPurchaseQuote.Value, "", key)
	require.NoError(t, err)
	require.Equal(t, api.CheckoutPurchasePaymentStatusRequiresPaymentMethod, res.Data.PaymentStatus)
	require.False(t, res.Data.PassID.Null, "a membership waiting for its first payment is a pending pass")
	return res.Data
}

func (e *payEnv) resume(c *api.Client, passID uuid.UUID) (*api.CheckoutResumeResponse, error) {
	return c.ResumeCheckout(e.ctx, api.ResumeCheckoutParams{ID: passID, XOrganizationID: e.venue.ID})
}

func (e *payEnv) checkoutOf(t *testing.T, id uuid.UUID) *ent.Checkout {
	t.Helper()
	return e.studio.client.Checkout.GetX(e.op, id)
}

// lapse moves the checkout's hold into the past, as time would.
func (e *payEnv) lapse(t *testing.T, id uuid.UUID) {
	t.Helper()
	e.studio.client.Checkout.UpdateOneID(id).SetHoldExpiresAt(time.Now().Add(-time.Second)).ExecX(e.op)
}

// TestResumeCheckoutExtendsHold: a pending membership's hold grows by 3
// minutes a call and answers the same payment intent (no second one); once
// the payment went through it answers succeeded with no hold.
func TestResumeCheckoutExtendsHold(t *testing.T) {
	e := newPayEnv(t, false, false)
	bought := e.reserve(t, e.member, api.GetCheckoutPreviewParams{}, "r-1")
	passID := bought.PassID.Value
	p := e.studio.client.Pass.GetX(e.op, passID)
	require.Equal(t, pass.StatusPending, p.Status)
	co := e.checkoutOf(t, bought.CheckoutID)
	require.NotNil(t, co.HoldExpiresAt)
	require.WithinDuration(t, co.CreatedAt.Add(payments.HoldTTL), *co.HoldExpiresAt, 2*time.Second)

	hold := *co.HoldExpiresAt
	for i := 1; i <= 2; i++ {
		r, err := e.resume(e.member, passID)
		require.NoError(t, err)
		d := r.Data
		require.Equal(t, passID, d.PassID)
		require.Equal(t, bought.PaymentIntentID.Value, d.PaymentIntentID.Value, "the same intent, never a new one")
		require.Equal(t, bought.ClientSecret.Value, d.ClientSecret.Value)
		require.Equal(t, payAccount, d.ProcessorAccountID.Value)
		require.Equal(t, api.CheckoutResumePaymentStatusRequiresPaymentMethod, d.PaymentStatus)
		require.True(t, d.HoldExpiresAt.Value.Equal(hold.Add(time.Duration(i)*payments.HoldExtension)), "hold %v after %d calls", d.HoldExpiresAt.Value, i)
		require.WithinDuration(t, time.Now(), d.ServerTime, time.Minute)
		f := d.FrozenCheckout
		require.Equal(t, int64(59900), f.ChargedTodayMinor)
		require.Equal(t, "DKK", f.Currency)
		require.True(t, f.FlexibleSelection.Null)
		require.Equal(t, api.PurchaseObligationStatusAvailable, f.PurchaseObligation.Status)
		require.Equal(t, int64(59900), f.PurchaseObligation.MinimumTotalPayable.Value)
		require.Equal(t, api.ObligationCancellationKindEndOfPeriod, f.PurchaseObligation.Cancellation.Value.Kind)
		require.Equal(t, api.ObligationCancellationRequestMethodInApp, f.PurchaseObligation.Cancellation.Value.RequestMethod.Value,
			"the member ends it in the app")
	}
	require.Len(t, e.fake.Intents(), 1)
	for k, n := range intentCreates(e.fake) {
		require.Equal(t, 1, n, k)
	}

	// The member finishes the payment sheet; resume sees it, activates the
	// same pass once and answers without a hold.
	e.fake.SetStatus(bought.PaymentIntentID.Value, "succeeded")
	r, err := e.resume(e.member, passID)
	require.NoError(t, err)
	require.Equal(t, api.CheckoutResumePaymentStatusSucceeded, r.Data.PaymentStatus)
	require.True(t, r.Data.HoldExpiresAt.Null)
	require.True(t, r.Data.ClientSecret.Null)
	require.Equal(t, pass.StatusActive, e.studio.client.Pass.GetX(e.op, passID).Status)
	require.Equal(t, 1, e.count(t, "passes"))
	require.Equal(t, 1, e.count(t, "payments"))
	c, err := e.confirm(e.member, bought.PaymentIntentID.Value)
	require.NoError(t, err)
	require.Equal(t, passID, c.Data.PurchaseConfirmation.Value.PassID)
}

// TestResumeCheckoutHoldCap: the hold never grows past HoldCap after the
// checkout was made.
func TestResumeCheckoutHoldCap(t *testing.T) {
	e := newPayEnv(t, false, false)
	bought := e.reserve(t, e.member, api.GetCheckoutPreviewParams{}, "cap-1")
	co := e.checkoutOf(t, bought.CheckoutID)
	e.studio.client.Checkout.UpdateOneID(co.ID).SetHoldExpiresAt(co.CreatedAt.Add(payments.HoldCap - time.Minute)).ExecX(e.op)
	r, err := e.resume(e.member, bought.PassID.Value)
	require.NoError(t, err)
	require.True(t, r.Data.HoldExpiresAt.Value.Equal(co.CreatedAt.Add(payments.HoldCap).UTC().Truncate(time.Second)))
}

// TestResumeCheckoutExpiredAndReleased: a lapsed hold is 409
// OFFER_HOLD_EXPIRED; the sweep gives back the pass, the offer's place and
// the credit once, and queues the cancel of the waiting intent.
func TestResumeCheckoutExpiredAndReleased(t *testing.T) {
	e := newPayEnv(t, false, false)
	unl := e.studio.client.PassType.Query().Where(passtype.Slug("unlimited")).OnlyX(e.op)
	fs := e.offer(t, "Intro month", 199, 30, 5, unl.ID)
	bought := e.reserve(t, e.member, api.GetCheckoutPreviewParams{FlashSaleID: api.NewOptUUID(fs.ID)}, "x-1")
	require.Equal(t, 1, e.studio.client.FlashSale.GetX(e.op, fs.ID).ClaimedCount)
	e.lapse(t, bought.CheckoutID)

	_, err := e.resume(e.member, bought.PassID.Value)
	hookErr(t, err, 409, payments.CodeOfferHoldExpired)

	n, err := e.svc.ReleaseLapsedHolds(e.ctx)
	require.NoError(t, err)
	require.Equal(t, 1, n)
	co := e.checkoutOf(t, bought.CheckoutID)
	require.Equal(t, checkout.StatusCanceled, co.Status)
	require.NotNil(t, co.ReleasedAt)
	require.Equal(t, pass.StatusCancelled, e.studio.client.Pass.GetX(e.op, bought.PassID.Value).Status)
	require.Zero(t, e.studio.client.FlashSale.GetX(e.op, fs.ID).ClaimedCount, "the offer's place is given back")
	var jobs int
	require.NoError(t, e.pool.QueryRow(e.ctx, `SELECT count(*) FROM river_job WHERE kind = 'payments.cancel_intent'`).Scan(&jobs))
	require.Equal(t, 1, jobs, "the waiting intent is cancelled by a job")

	n, err = e.svc.ReleaseLapsedHolds(e.ctx)
	require.NoError(t, err)
	require.Zero(t, n, "released once")
	_, err = e.resume(e.member, bought.PassID.Value)
	hookErr(t, err, 409, payments.CodeOfferHoldExpired)
}

// TestResumeCheckoutContactVenue: a reservation whose pass type is no longer
// sold, or whose offer place went to someone else after the hold lapsed,
// cannot be restarted: 409 OFFER_CONTACT_VENUE with the reason.
func TestResumeCheckoutContactVenue(t *testing.T) {
	e := newPayEnv(t, false, false)
	unl := e.studio.client.PassType.Query().Where(passtype.Slug("unlimited")).OnlyX(e.op)
	fs := e.offer(t, "Last place", 199, 30, 1, unl.ID)
	first := e.reserve(t, e.member, api.GetCheckoutPreviewParams{FlashSaleID: api.NewOptUUID(fs.ID)}, "cv-1")
	e.lapse(t, first.CheckoutID)
	_, err := e.svc.ReleaseLapsedHolds(e.ctx)
	require.NoError(t, err)
	other := e.memberClient(t, "quick@pay.example")
	e.reserve(t, other, api.GetCheckoutPreviewParams{FlashSaleID: api.NewOptUUID(fs.ID)}, "cv-2")
	_, err = e.resume(e.member, first.PassID.Value)
	hookErr(t, err, 409, payments.CodeOfferContactVenue)
	require.Equal(t, "offer_sold_out", reasonOf(t, err))

	// The pass type is taken off sale during a live hold.
	third := e.memberClient(t, "third@pay.example")
	bought := e.reserve(t, third, api.GetCheckoutPreviewParams{}, "cv-3")
	e.studio.client.PassType.UpdateOne(unl).SetActive(false).ExecX(e.op)
	_, err = e.resume(third, bought.PassID.Value)
	hookErr(t, err, 409, payments.CodeOfferContactVenue)
	require.Equal(t, "pass_type_unavailable", reasonOf(t, err))
}

// TestResumeCheckoutNotFound: another member's reservation, an unknown pass
// and a pass no checkout reserved are 404, and change nothing.
func TestResumeCheckoutNotFound(t *testing.T) {
	e := newPayEnv(t, false, false)
	bought := e.reserve(t, e.member, api.GetCheckoutPreviewParams{}, "nf-1")
	hold := *e.checkoutOf(t, bought.CheckoutID).HoldExpiresAt
	nosy := e.memberClient(t, "nosy@pay.example")
	_, err := e.resume(nosy, bought.PassID.Value)
	hookErr(t, err, 404, "NOT_FOUND")
	_, err = e.resume(e.member, uuid.New())
	hookErr(t, err, 404, "NOT_FOUND")
	require.True(t, hold.Equal(*e.checkoutOf(t, bought.CheckoutID).HoldExpiresAt), "nothing changed")

	// A clip card paid at once is no reservation.
	paid, err := e.buy(nosy, e.quote(t, nosy), "pm_card_visa", "nf-2")
	require.NoError(t, err)
	_, err = e.resume(nosy, paid.Data.PassID.Value)
	hookErr(t, err, 404, "NOT_FOUND")
}

// TestResumeCheckoutLimit: 15 calls per user, then 429 RATE_LIMITED.
func TestResumeCheckoutLimit(t *testing.T) {
	e := newPayEnv(t, false, false)
	bought := e.reserve(t, e.member, api.GetCheckoutPreviewParams{}, "l-1")
	for i := range 15 {
		_, err := e.resume(e.member, bought.PassID.Value)
		require.NoError(t, err, "call %d", i+1)
	}
	_, err := e.resume(e.member, bought.PassID.Value)
	hookErr(t, err, 429, "RATE_LIMITED")
}

// TestReleaseCreditOnceUnderConcurrency: a lapsed checkout that spent the
// member's credit gives it back exactly once, however many sweeps race.
func TestReleaseCreditOnceUnderConcurrency(t *testing.T) {
	e := newPayEnv(t, false, false)
	buyer := e.studio.client.Member.Query().Where(member.HasUserWith(user.Email("buyer@pay.example"))).OnlyX(e.op)
	e.studio.client.MemberCredit.Create().SetMemberID(buyer.ID).SetAmountMinor(10000).SetCurrency("DKK").
		SetSource(membercredit.SourceGiftCardRedemption).ExecX(e.op)
	bought := e.reserve(t, e.member, api.GetCheckoutPreviewParams{}, "cr-1")
	co := e.checkoutOf(t, bought.CheckoutID)
	require.Equal(t, int64(10000), co.CreditAppliedMinor)
	require.Equal(t, int64(49900), co.AmountMinor)
	e.lapse(t, co.ID)

	var wg sync.WaitGroup
	released := make(chan int, 8)
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			n, err := e.svc.ReleaseLapsedHolds(context.Background())
			if err == nil {
				released <- n
			}
		}()
	}
	wg.Wait()
	close(released)
	total := 0
	for n := range released {
		total += n
	}
	require.Equal(t, 1, total, "one sweep released it")
	back := e.studio.client.MemberCredit.Query().Where(membercredit.SourceEQ(membercredit.SourceCheckoutRelease)).AllX(e.op)
	require.Len(t, back, 1)
	require.Equal(t, int64(10000), back[0].AmountMinor)
	pv, err := e.preview(e.member, api.GetCheckoutPreviewParams{PassTypeSlug: "unlimited"})
	require.NoError(t, err)
	require.Equal(t, int64(10000), pv.Data.CreditBalanceMinor.Value, "the balance is whole again")

	// The member finishes the payment anyway: the money is recorded, the
	// pass activated and the credit taken again.
	e.fake.SetStatus(bought.PaymentIntentID.Value, "succeeded")
	c, err := e.confirm(e.member, bought.PaymentIntentID.Value)
	require.NoError(t, err)
	require.True(t, c.Data.Confirmed)
	require.Equal(t, pass.StatusActive, e.studio.client.Pass.GetX(e.op, bought.PassID.Value).Status)
	pv, err = e.preview(e.member, api.GetCheckoutPreviewParams{PassTypeSlug: "unlimited"})
	require.NoError(t, err)
	require.Zero(t, pv.Data.CreditBalanceMinor.Value)
}
