package handlers_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/stretchr/testify/require"

	"github.com/venueplatform/venue/ent/checkout"
	"github.com/venueplatform/venue/ent/pass"
	"github.com/venueplatform/venue/ent/payment"
	"github.com/venueplatform/venue/ent/paymentattempt"
	api "github.com/venueplatform/venue/internal/gen/api"
	"github.com/venueplatform/venue/internal/payments"
	"github.com/venueplatform/venue/internal/payments/stripetest"
)

func TestCheckoutUnavailable(t *testing.T) {
	t.Run("no Stripe key", func(t *testing.T) {
		e := newPayEnv(t, true, false)
		res, err := e.member.GetCheckoutPreview(e.ctx, api.GetCheckoutPreviewParams{XOrganizationID: e.venue.ID, PassTypeSlug: "ten"})
		require.NoError(t, err)
		require.False(t, res.Data.CardPayments.Available)
		require.Equal(t, api.CheckoutCardPaymentsReasonPaymentsDisabled, res.Data.CardPayments.Reason.Value)
		_, err = e.buy(e.member, e.quote(t, e.member), "pm_card_visa", "k1")
		es := hookErr(t, err, 422, payments.CodeUnavailable)
		require.Equal(t, "payments_disabled", es.Response.Error.Details.Reason.Value)
		require.Empty(t, e.fake.Requests(), "nothing reached Stripe")
	})
	t.Run("no connected account", func(t *testing.T) {
		e := newPayEnv(t, false, true)
		_, err := e.buy(e.member, e.quote(t, e.member), "pm_card_visa", "k1")
		es := hookErr(t, err, 422, payments.CodeUnavailable)
		require.Equal(t, "connect_not_active", es.Response.Error.Details.Reason.Value)
		require.Zero(t, e.count(t, "checkouts"))
	})
}

func TestCheckoutPreview(t *testing.T) {
	e := newPayEnv(t, false, false)
	res, err := e.member.PostCheckoutPreview(e.ctx, &api.CheckoutPreviewRequest{PassTypeSlug: "ten"},
		api.PostCheckoutPreviewParams{XOrganizationID: e.venue.ID})
	require.NoError(t, err)
	d := res.Data
	require.Equal(t, int64(120000), d.ChargedTodayMinor)
	require.Equal(t, 1200.0, d.ChargedToday)
	require.Equal(t, "DKK", d.Currency)
	require.Equal(t, 2, d.CurrencyExponent)
	require.Equal(t, int64(24000), d.VatMinor, "25 %% VAT inside 1200.00 is 240.00")
	require.True(t, d.CardPayments.Available)
	q := d.DirectPurchaseQuote.Value
	require.Equal(t, int64(120000), q.PayableMinor)
	require.Equal(t, 5*time.Minute, q.ExpiresAt.Sub(q.IssuedAt))

	// A flexible membership has no direct quote; unknown slugs are 404;
	// offers never fall back to the normal price.
	rec, err := e.member.GetCheckoutPreview(e.ctx, api.GetCheckoutPreviewParams{XOrganizationID: e.venue.ID, PassTypeSlug: "flexible"})
	require.NoError(t, err)
	require.False(t, rec.Data.DirectPurchaseQuote.Set)
	require.Equal(t, api.PurchaseObligationStatusUnavailable, rec.Data.PurchaseObligation.Status)
	require.Equal(t, "selection_required", rec.Data.PurchaseObligation.ReasonCode.Value)
	require.False(t, rec.Data.FlexibleQuote.Set)
	_, err = e.member.GetCheckoutPreview(e.ctx, api.GetCheckoutPreviewParams{XOrganizationID: e.venue.ID, PassTypeSlug: "old"})
	hookErr(t, err, 404, "NOT_FOUND")
	_, err = e.member.GetCheckoutPreview(e.ctx, api.GetCheckoutPreviewParams{XOrganizationID: e.venue.ID, PassTypeSlug: "ten",
		FlashSaleID: api.NewOptUUID(uuid.New())})
	hookErr(t, err, 422, payments.CodeFlashSaleUnavai)
	// A user who is not a member of the venue is refused.
	outsider := e.client(t, e.signup(t, "outsider@pay.example", goodPassword).AccessToken)
	_, err = outsider.GetCheckoutPreview(e.ctx, api.GetCheckoutPreviewParams{XOrganizationID: e.venue.ID, PassTypeSlug: "ten"})
	hookErr(t, err, 403, "ACCESS_DENIED")
}

func TestCheckoutPurchaseSucceeds(t *testing.T) {
	e := newPayEnv(t, false, false)
	q := e.quote(t, e.member)
	res, err := e.buy(e.member, q, "pm_card_visa", "buy-1")
	require.NoError(t, err)
	d := res.Data
	require.Equal(t, api.CheckoutPurchasePaymentStatusSucceeded, d.PaymentStatus)
	require.Equal(t, payAccount, d.ProcessorAccountID)
	require.Equal(t, int64(120000), d.FrozenCheckout.ChargedTodayMinor)
	require.Equal(t, int64(24000), d.FrozenCheckout.VatMinor)
	passID, ok := d.PassID.Get()
	require.True(t, ok)
	require.True(t, d.SetupIntentID.Null)

	p := e.studio.client.Pass.GetX(e.op, passID)
	require.Equal(t, pass.StatusActive, p.Status)
	require.Equal(t, 10, *p.ClipsRemaining)
	pay := e.studio.client.Payment.Query().OnlyX(e.op)
	require.Equal(t, payment.StatusSucceeded, pay.Status)
	require.Equal(t, int64(120000), pay.AmountMinor)
	require.Equal(t, d.PaymentIntentID.Value, *pay.ProcessorPaymentID)

	// Stripe saw one creation on the venue's account with the attempt's key,
	// the quote's amount and the platform's fee (1 %).
	at := e.studio.client.PaymentAttempt.Query().OnlyX(e.op)
	require.Equal(t, paymentattempt.StateSucceeded, at.State)
	require.Nil(t, at.LiveSubjectID)
	creates := intentCreates(e.fake)
	require.Equal(t, map[string]int{"v1:checkout_charge:" + at.ID.String() + ":create": 1}, creates)
	for _, r := range e.fake.Requests() {
		require.Equal(t, payAccount, r.StripeAccount)
	}
	pi := e.fake.Intent(d.PaymentIntentID.Value)
	require.EqualValues(t, 120000, pi["amount"])
	require.Equal(t, "dkk", pi["currency"])

	// The same request again replays; the same quote under another key is
	// already paid. Stripe still saw one charge.
	again, err := e.buy(e.member, q, "pm_card_visa", "buy-1")
	require.NoError(t, err)
	require.Equal(t, d.CheckoutID, again.Data.CheckoutID)
	_, err = e.buy(e.member, q, "pm_card_visa", "buy-2")
	hookErr(t, err, 422, "ALREADY_PAID")
	require.Len(t, e.fake.Intents(), 1)
	require.Equal(t, 1, e.count(t, "passes"))

	// Partners hear of it through the signed outbound events.
	var types []string
	rows, err := e.pool.Query(e.ctx, `SELECT type FROM events WHERE organization_id = $1 ORDER BY type`, e.venue.ID)
	require.NoError(t, err)
	for rows.Next() {
		var s string
		require.NoError(t, rows.Scan(&s))
		types = append(types, s)
	}
	require.Equal(t, []string{"pass.activated", "payment.succeeded"}, types)
}

func TestCheckoutQuoteRules(t *testing.T) {
	e := newPayEnv(t, false, false)
	q := e.quote(t, e.member)

	tampered := q
	tampered.PayableMinor = 1
	_, err := e.buy(e.member, tampered, "pm_card_visa", "t-1")
	hookErr(t, err, 400, "VALIDATION_ERROR")

	other := e.memberClient(t, "other@pay.example")
	_, err = e.buy(other, q, "pm_card_visa", "t-2")
	hookErr(t, err, 404, "NOT_FOUND")

	// The price behind the quote changed: review again, nothing charged.
	e.studio.client.PassType.UpdateOne(e.ten).SetPriceMinor(130000).ExecX(e.op)
	_, err = e.buy(e.member, q, "pm_card_visa", "t-3")
	es := hookErr(t, err, 409, payments.CodeQuoteStale)
	require.Equal(t, "price_changed", es.Response.Error.Details.Reason.Value)
	require.Empty(t, e.fake.Intents())
	require.Zero(t, e.count(t, "checkouts"))
}

func TestCheckoutDeclineThenAnotherCard(t *testing.T) {
	e := newPayEnv(t, false, false)
	e.fake.Script(stripetest.Outcome{Decline: "insufficient_funds"}, stripetest.Outcome{})
	q := e.quote(t, e.member)
	_, err := e.buy(e.member, q, "pm_card_chargeDeclined", "d-1")
	es := hookErr(t, err, 402, payments.CodeDeclined)
	require.JSONEq(t, `"insufficient_funds"`, string(es.Response.Error.Details.AdditionalProps["decline_code"]))
	require.JSONEq(t, `"update_card"`, string(es.Response.Error.Details.AdditionalProps["next_step"]))
	require.Zero(t, e.count(t, "passes"))
	require.Equal(t, paymentattempt.StateFailed, e.studio.client.PaymentAttempt.Query().OnlyX(e.op).State)

	res, err := e.buy(e.member, q, "pm_card_visa", "d-2")
	require.NoError(t, err)
	require.Equal(t, api.CheckoutPurchasePaymentStatusSucceeded, res.Data.PaymentStatus)
	require.Len(t, e.fake.Intents(), 2, "one declined intent, one charge")
	require.Equal(t, 1, e.count(t, "passes"))
	require.Equal(t, 1, e.count(t, "payments"))
	var failed int
	require.NoError(t, e.pool.QueryRow(e.ctx, `SELECT count(*) FROM events WHERE type = 'payment.failed'`).Scan(&failed))
	require.Equal(t, 1, failed)
}

func TestCheckoutRequiresActionThenConfirm(t *testing.T) {
	e := newPayEnv(t, false, false)
	e.fake.Script(stripetest.Outcome{Status: "requires_action"})
	q := e.quote(t, e.member)
	res, err := e.buy(e.member, q, "pm_card_threeDSecure2Required", "a-1")
	require.NoError(t, err)
	require.Equal(t, api.CheckoutPurchasePaymentStatusRequiresAction, res.Data.PaymentStatus)
	require.True(t, strings.HasSuffix(res.Data.ClientSecret.Value, "_secret_fake"))
	require.True(t, res.Data.PassID.Null)
	pi := res.Data.PaymentIntentID.Value

	// A second purchase while the first waits for 3-D Secure is pending.
	_, err = e.buy(e.member, q, "pm_card_visa", "a-2")
	hookErr(t, err, 409, payments.CodePending)

	_, err = e.confirm(e.member, pi)
	hookErr(t, err, 409, payments.CodeNotCompleted)

	e.fake.SetStatus(pi, "succeeded")
	c, err := e.confirm(e.member, pi)
	require.NoError(t, err)
	require.True(t, c.Data.Confirmed)
	pc := c.Data.PurchaseConfirmation.Value
	require.Equal(t, e.ten.ID, pc.PassTypeID)
	again, err := e.confirm(e.member, pi)
	require.NoError(t, err)
	require.Equal(t, pc.PassID, again.Data.PurchaseConfirmation.Value.PassID)

	// Reconciliation from records, and another member's intent is unknown.
	rec, err := e.member.ConfirmCheckout(e.ctx, &api.CheckoutConfirmRequest{CheckoutAttempt: api.NewOptCheckoutAttemptRef(
		api.CheckoutAttemptRef{CheckoutID: res.Data.CheckoutID, PassTypeID: e.ten.ID})}, api.ConfirmCheckoutParams{XOrganizationID: e.venue.ID})
	require.NoError(t, err)
	require.True(t, rec.Data.Confirmed)
	_, err = e.confirm(e.memberClient(t, "nosy@pay.example"), pi)
	hookErr(t, err, 404, "NOT_FOUND")

	require.Len(t, e.fake.Intents(), 1)
	require.Equal(t, 1, e.count(t, "passes"))
}

// TestCheckoutProcessingThenEvents: the charge is processing; the same
// succeeded event arrives five times, mixed with stale processing events:
// one activation, one payment row.
func TestCheckoutProcessingThenEvents(t *testing.T) {
	e := newPayEnv(t, false, false)
	e.fake.Script(stripetest.Outcome{Status: "processing"})
	res, err := e.buy(e.member, e.quote(t, e.member), "pm_card_visa", "p-1")
	require.NoError(t, err)
	require.Equal(t, api.CheckoutPurchasePaymentStatusProcessing, res.Data.PaymentStatus)
	pi := res.Data.PaymentIntentID.Value
	c, err := e.confirm(e.member, pi)
	require.NoError(t, err)
	require.False(t, c.Data.Confirmed)
	require.Equal(t, api.CheckoutConfirmationPaymentStateResolving, c.Data.PaymentState.Value)

	processing := e.fake.Intent(pi)
	rawProcessing, _ := json.Marshal(processing)
	succeeded := e.fake.SetStatus(pi, "succeeded")
	for i := range 5 {
		body, sig := stripetest.Event("evt_succeeded", "payment_intent.succeeded", payAccount, succeeded, paySecret)
		require.Equal(t, http.StatusOK, e.postEvent(t, body, sig))
		body, sig = stripetest.Event(fmt.Sprintf("evt_processing_%d", i), "payment_intent.processing", payAccount, rawProcessing, paySecret)
		require.Equal(t, http.StatusOK, e.postEvent(t, body, sig))
	}
	require.Equal(t, 6, e.runEventJobs(t), "the succeeded event is recorded once, each processing event once")
	require.Equal(t, 1, e.count(t, "passes"))
	require.Equal(t, 1, e.count(t, "payments"))
	co := e.studio.client.Checkout.Query().OnlyX(e.op)
	require.Equal(t, checkout.StatusPaid, co.Status)
	require.Equal(t, paymentattempt.StateSucceeded, e.studio.client.PaymentAttempt.Query().OnlyX(e.op).State,
		"a late processing event does not move a settled attempt back")
	c, err = e.confirm(e.member, pi)
	require.NoError(t, err)
	require.True(t, c.Data.Confirmed)
}

func TestCheckoutServerErrorThenSuccess(t *testing.T) {
	e := newPayEnv(t, false, false)
	e.fake.Script(stripetest.Outcome{Fail500: 1})
	res, err := e.buy(e.member, e.quote(t, e.member), "pm_card_visa", "r-1")
	require.NoError(t, err)
	require.Equal(t, api.CheckoutPurchasePaymentStatusSucceeded, res.Data.PaymentStatus)
	creates := intentCreates(e.fake)
	require.Len(t, creates, 1, "the retry used the attempt's key")
	for _, n := range creates {
		require.Equal(t, 2, n, "a 500, then the same key again")
	}
	require.Len(t, e.fake.Intents(), 1)
	require.Equal(t, 1, e.count(t, "passes"))
}

// TestCheckoutUnknownOutcome: the charge happened but no answer came back
// (dropped connection, timeout): the member is told the outcome is
// unknown, a reconcile job is queued, and reconciliation (reading only)
// activates the pass. Stripe saw one charge.
func TestCheckoutUnknownOutcome(t *testing.T) {
	for name, o := range map[string]stripetest.Outcome{
		"dropped connection": {Drop: 10},
		"timeout":            {Hang: 1500 * time.Millisecond, HangTimes: 2},
	} {
		t.Run(name, func(t *testing.T) {
			e := newPayEnv(t, false, false)
			e.fake.Script(o)
			q := e.quote(t, e.member)
			_, err := e.buy(e.member, q, "pm_card_visa", "u-1")
			es := hookErr(t, err, 409, "UNKNOWN_WRITE_OUTCOME")
			require.JSONEq(t, `"unknown"`, string(es.Response.Error.Details.AdditionalProps["write_state"]))
			at := e.studio.client.PaymentAttempt.Query().OnlyX(e.op)
			require.Equal(t, paymentattempt.StateUnknown, at.State)
			require.Zero(t, e.count(t, "passes"))
			var jobs int
			require.NoError(t, e.pool.QueryRow(e.ctx, `SELECT count(*) FROM river_job WHERE kind = 'payments.reconcile' AND args->>'attempt_id' = $1`,
				at.ID.String()).Scan(&jobs))
			require.Equal(t, 1, jobs)

			// Another purchase of the quote waits for reconciliation.
			_, err = e.buy(e.member, q, "pm_card_visa", "u-2")
			hookErr(t, err, 409, "UNKNOWN_WRITE_OUTCOME")

			before := len(intentCreates(e.fake))
			require.NoError(t, e.svc.Reconcile(e.op, at.ID))
			require.Equal(t, before, len(intentCreates(e.fake)), "reconcile never writes to Stripe")
			require.Equal(t, paymentattempt.StateSucceeded, e.studio.client.PaymentAttempt.GetX(e.op, at.ID).State)
			require.Equal(t, 1, e.count(t, "passes"))
			require.Len(t, e.fake.Intents(), 1)
			_, err = e.buy(e.member, q, "pm_card_visa", "u-3")
			hookErr(t, err, 422, "ALREADY_PAID")
		})
	}
}

// TestCheckoutConcurrentConfirmsAndEvents: 25 confirms and events race for
// one checkout: one activation.
func TestCheckoutConcurrentConfirmsAndEvents(t *testing.T) {
	e := newPayEnv(t, false, false)
	e.fake.Script(stripetest.Outcome{Status: "requires_action"})
	res, err := e.buy(e.member, e.quote(t, e.member), "pm_card_visa", "c-1")
	require.NoError(t, err)
	pi := res.Data.PaymentIntentID.Value
	succeeded := e.fake.SetStatus(pi, "succeeded")
	var ids []uuid.UUID
	for i := range 12 {
		body, sig := stripetest.Event(fmt.Sprintf("evt_%d", i), "payment_intent.succeeded", payAccount, succeeded, paySecret)
		require.Equal(t, http.StatusOK, e.postEvent(t, body, sig))
	}
	rows, err := e.pool.Query(e.ctx, `SELECT (args->>'event_id')::uuid FROM river_job WHERE kind = 'payments.event'`)
	require.NoError(t, err)
	for rows.Next() {
		var id uuid.UUID
		require.NoError(t, rows.Scan(&id))
		ids = append(ids, id)
	}
	require.Len(t, ids, 12)

	var wg sync.WaitGroup
	errs := make(chan error, 25)
	for i := range 25 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if i < 13 {
				_, err := e.confirm(e.member, pi)
				errs <- err
				return
			}
			errs <- e.svc.ProcessEvent(context.Background(), ids[i-13])
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		require.NoError(t, err)
	}
	require.Equal(t, 1, e.count(t, "passes"))
	require.Equal(t, 1, e.count(t, "payments"))
	var activated int
	require.NoError(t, e.pool.QueryRow(e.ctx, `SELECT count(*) FROM events WHERE type = 'pass.activated'`).Scan(&activated))
	require.Equal(t, 1, activated)
}

func TestPaymentEventsEndpoint(t *testing.T) {
	e := newPayEnv(t, false, false)
	obj := []byte(`{"id":"acct_studio","object":"account","charges_enabled":false,"details_submitted":true}`)
	body, _ := stripetest.Event("evt_acct", "account.updated", payAccount, obj, paySecret)

	// A bad signature, a wrong secret, an old timestamp: 400, nothing recorded.
	require.Equal(t, http.StatusBadRequest, e.postEvent(t, body, "t=1,v1=deadbeef"))
	_, wrong := stripetest.Event("evt_acct", "account.updated", payAccount, obj, "whsec_other")
	require.Equal(t, http.StatusBadRequest, e.postEvent(t, body, wrong))
	var n int
	require.NoError(t, e.pool.QueryRow(e.ctx, `SELECT count(*) FROM processor_events`).Scan(&n))
	require.Zero(t, n)

	body, sig := stripetest.Event("evt_acct", "account.updated", payAccount, obj, paySecret)
	require.Equal(t, http.StatusOK, e.postEvent(t, body, sig))
	require.Equal(t, http.StatusOK, e.postEvent(t, body, sig))
	require.Equal(t, 1, e.runEventJobs(t))
	vp := e.studio.client.VenuePayments.Query().OnlyX(e.op)
	require.False(t, vp.ChargesEnabled, "account.updated keeps charges_enabled current")
	_, err := e.buy(e.member, e.quote(t, e.member), "pm_card_visa", "x-1")
	hookErr(t, err, 422, payments.CodeUnavailable)
}

func TestPaymentsConnectOnboarding(t *testing.T) {
	e := newPayEnv(t, false, true)
	staff := (&hookEnv{authEnv: e.authEnv, ctx: e.ctx}).staffWith(t, "owner@pay.example", "settings.business")
	st, err := staff.GetPaymentsConnect(e.ctx)
	require.NoError(t, err)
	require.True(t, st.Data.AccountID.Null)
	require.Equal(t, api.CheckoutCardPaymentsReasonConnectNotActive, st.Data.CardPayments.Reason.Value)

	req := &api.PaymentsAccountLinkRequest{}
	req.RefreshURL.Scheme, req.RefreshURL.Host, req.RefreshURL.Path = "https", "venue.example", "/connect/refresh"
	req.ReturnURL.Scheme, req.ReturnURL.Host, req.ReturnURL.Path = "https", "venue.example", "/connect/done"
	l1, err := staff.CreatePaymentsAccountLink(e.ctx, req, api.CreatePaymentsAccountLinkParams{IdempotencyKey: "l-1"})
	require.NoError(t, err)
	require.True(t, strings.HasPrefix(l1.Data.AccountID, "acct_fake"))
	require.Contains(t, l1.Data.URL, l1.Data.AccountID)
	l2, err := staff.CreatePaymentsAccountLink(e.ctx, req, api.CreatePaymentsAccountLinkParams{IdempotencyKey: "l-2"})
	require.NoError(t, err)
	require.Equal(t, l1.Data.AccountID, l2.Data.AccountID, "one connected account per venue")

	// Members may not onboard the venue.
	_, err = e.member.GetPaymentsConnect(e.ctx)
	require.Error(t, err)
	require.Equal(t, 403, errorOf(t, err).StatusCode)
}
