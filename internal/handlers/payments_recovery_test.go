package handlers_test

import (
	"bytes"
	"encoding/json"
	"net/http"
	"testing"

	"github.com/google/uuid"
	"github.com/stretchr/testify/require"

	"github.com/venueplatform/venue/ent/paymentattempt"
	api "github.com/venueplatform/venue/internal/gen/api"
	"github.com/venueplatform/venue/internal/payments/stripetest"
)

// recover asks what became of the purchase of the ten-clip card sent under key.
func (e *payEnv) recover(t *testing.T, c *api.Client, kind api.CheckoutRecoveryRequestKind, item uuid.UUID, key string) api.CheckoutRecovery {
	t.Helper()
	res, err := c.RecoverCheckout(e.ctx, &api.CheckoutRecoveryRequest{Kind: kind, ItemID: item, OriginalIdempotencyKey: key},
		api.RecoverCheckoutParams{XOrganizationID: e.venue.ID})
	require.NoError(t, err)
	return res.Data
}

// TestCheckoutRecovery: the read-only status of earlier purchase requests,
// by their Idempotency-Key: unknown, declined, waiting for 3-D Secure, lost
// at Stripe and paid; another member's key and the service kind find
// nothing; asking never reaches Stripe and changes no row.
func TestCheckoutRecovery(t *testing.T) {
	e := newPayEnv(t, false, false)
	pp := api.CheckoutRecoveryRequestKindProductPackage
	q := e.quote(t, e.member)

	r := e.recover(t, e.member, pp, e.ten.ID, "never-sent")
	require.Equal(t, api.CheckoutRecoveryStatusNotFound, r.Status)
	require.Equal(t, api.CheckoutRecoveryRetryPolicyRetrySameKey, r.RetryPolicy)
	require.Equal(t, api.CheckoutRecoveryPaymentStatusNone, r.PaymentStatus)
	require.True(t, r.OperationID.Null)
	require.True(t, r.AmountMinor.Null)
	require.True(t, r.Currency.Null)

	// Declined: a new purchase with another card and a new key.
	e.fake.Script(stripetest.Outcome{Decline: "insufficient_funds"})
	_, err := e.buy(e.member, q, "pm_card_chargeDeclined", "rec-1")
	hookErr(t, err, 402, "CHARGE_DECLINED")
	r = e.recover(t, e.member, pp, e.ten.ID, "rec-1")
	require.Equal(t, api.CheckoutRecoveryStatusFailed, r.Status)
	require.Equal(t, api.CheckoutRecoveryRetryPolicyNewKey, r.RetryPolicy)
	require.Equal(t, api.CheckoutRecoveryPaymentStatusRequiresPaymentMethod, r.PaymentStatus)
	coID := r.OperationID.Value
	require.Equal(t, int64(120000), r.AmountMinor.Value)
	require.Equal(t, "DKK", r.Currency.Value)

	// 3-D Secure waits in the app.
	e.fake.Script(stripetest.Outcome{Status: "requires_action"})
	res, err := e.buy(e.member, q, "pm_card_threeDSecure2Required", "rec-2")
	require.NoError(t, err)
	require.Equal(t, coID, res.Data.CheckoutID, "the same checkout, a second attempt")
	r = e.recover(t, e.member, pp, e.ten.ID, "rec-2")
	require.Equal(t, api.CheckoutRecoveryStatusRequiresAction, r.Status)
	require.Equal(t, api.CheckoutRecoveryRetryPolicyCompleteAction, r.RetryPolicy)
	require.Equal(t, coID, r.OperationID.Value)
	// The declined request's key was replaced by the later purchase.
	require.Equal(t, api.CheckoutRecoveryStatusNotFound, e.recover(t, e.member, pp, e.ten.ID, "rec-1").Status)

	// Another member, the same key: nothing of theirs. The service kind and
	// an unknown item find nothing either.
	other := e.memberClient(t, "other-rec@pay.example")
	require.Equal(t, api.CheckoutRecoveryStatusNotFound, e.recover(t, other, pp, e.ten.ID, "rec-2").Status)
	require.Equal(t, api.CheckoutRecoveryStatusNotFound,
		e.recover(t, e.member, api.CheckoutRecoveryRequestKindService, e.ten.ID, "rec-2").Status)
	require.Equal(t, api.CheckoutRecoveryStatusNotFound, e.recover(t, e.member, pp, uuid.New(), "rec-2").Status)

	// Settled: paid, nothing left to do.
	e.fake.SetStatus(res.Data.PaymentIntentID.Value, "succeeded")
	_, err = e.confirm(e.member, res.Data.PaymentIntentID.Value)
	require.NoError(t, err)
	before := len(e.fake.Requests())
	r = e.recover(t, e.member, pp, e.ten.ID, "rec-2")
	require.Equal(t, api.CheckoutRecoveryStatusSucceeded, r.Status)
	require.Equal(t, api.CheckoutRecoveryRetryPolicyNone, r.RetryPolicy)
	require.Equal(t, api.CheckoutRecoveryPaymentStatusSucceeded, r.PaymentStatus)
	require.Equal(t, before, len(e.fake.Requests()), "recovery never asks Stripe")
	require.Equal(t, 1, e.count(t, "passes"))
}

// TestCheckoutRecoveryUnknownOutcome: a purchase whose answer was lost is
// "unknown, wait" until reconciliation settles it.
func TestCheckoutRecoveryUnknownOutcome(t *testing.T) {
	e := newPayEnv(t, false, false)
	e.fake.Script(stripetest.Outcome{Drop: 10})
	_, err := e.buy(e.member, e.quote(t, e.member), "pm_card_visa", "lost-1")
	hookErr(t, err, 409, "UNKNOWN_WRITE_OUTCOME")
	pp := api.CheckoutRecoveryRequestKindProductPackage
	r := e.recover(t, e.member, pp, e.ten.ID, "lost-1")
	require.Equal(t, api.CheckoutRecoveryStatusUnknown, r.Status)
	require.Equal(t, api.CheckoutRecoveryRetryPolicyWait, r.RetryPolicy)
	at := e.studio.client.PaymentAttempt.Query().OnlyX(e.op)
	require.Equal(t, paymentattempt.StateUnknown, at.State, "asking changed nothing")

	require.NoError(t, e.svc.Reconcile(e.op, at.ID))
	r = e.recover(t, e.member, pp, e.ten.ID, "lost-1")
	require.Equal(t, api.CheckoutRecoveryStatusSucceeded, r.Status)
}

// TestCheckoutRecoveryBySlug: a purchase sent with X-Organization-Slug is
// found by a recovery sent with the venue's id.
func TestCheckoutRecoveryBySlug(t *testing.T) {
	e := newPayEnv(t, false, false)
	sess := e.signup(t, "slug-buyer@pay.example", goodPassword)
	enroll(t, e.authEnv, e.op, "slug-buyer@pay.example", "member")
	c := e.client(t, sess.AccessToken)
	body, err := json.Marshal(map[string]any{"direct_purchase_quote": e.quote(t, c), "payment_method_id": "pm_card_visa"})
	require.NoError(t, err)
	req, err := http.NewRequest(http.MethodPost, e.url+"/api/v1/me/checkout/purchase", bytes.NewReader(body))
	require.NoError(t, err)
	req.Header.Set("Authorization", "Bearer "+sess.AccessToken)
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("X-Organization-Slug", "PAY")
	req.Header.Set("Idempotency-Key", "slug-1")
	res, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	res.Body.Close()
	require.Equal(t, http.StatusOK, res.StatusCode)
	r := e.recover(t, c, api.CheckoutRecoveryRequestKindProductPackage, e.ten.ID, "slug-1")
	require.Equal(t, api.CheckoutRecoveryStatusSucceeded, r.Status)
}
