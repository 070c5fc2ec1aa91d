package handlers_test

import (
	"net/http"
	"testing"

	"github.com/google/uuid"
	"github.com/stretchr/testify/require"

	"github.com/venueplatform/venue/ent"
	"github.com/venueplatform/venue/ent/latefee"
	"github.com/venueplatform/venue/ent/payment"
	"github.com/venueplatform/venue/ent/paymentattempt"
	"github.com/venueplatform/venue/internal/billing"
	"github.com/venueplatform/venue/internal/payments/stripetest"
)

// TestSettleLateFeeStripeRefuses: Stripe refusing the settle's charge
// (a 400, nothing charged) is 502 STRIPE_ERROR and leaves the fee pending,
// with no settle audit; the next settle charges it.
func TestSettleLateFeeStripeRefuses(t *testing.T) {
	e, _ := declinedLateFee(t)
	e.fake.RefuseNext(1)
	_, err := e.settleFee(e.boss, e.pass, uuid.NewString())
	st, code, _ := apiCode(t, err)
	require.Equal(t, http.StatusBadGateway, st)
	require.Equal(t, "STRIPE_ERROR", code)
	require.Equal(t, latefee.StatusPending, e.db().LateFee.Query().OnlyX(e.op).Status)
	require.Equal(t, 0, e.audits(t, billing.AuditLateFeeSettled))

	_, err = e.settleFee(e.boss, e.pass, uuid.NewString())
	require.NoError(t, err)
	require.Equal(t, latefee.StatusPaid, e.db().LateFee.Query().OnlyX(e.op).Status)
	require.Equal(t, 1, e.audits(t, billing.AuditLateFeeSettled))
}

// TestSettleLateFeeProcessing: a settle whose card charge is processing
// answers 200 charge_status processing with the fee still pending; a
// second settle charges nothing (409 PAYMENT_PENDING); the bank finishing
// the charge (its events posted twice) settles the fee exactly once.
func TestSettleLateFeeProcessing(t *testing.T) {
	e, _ := declinedLateFee(t)
	e.fake.ProcessSlowly("pm_bill")
	intents := len(e.fake.Intents())
	res, err := e.settleFee(e.boss, e.pass, uuid.NewString())
	require.NoError(t, err)
	require.Equal(t, "processing", string(res.Data.ChargeStatus))
	require.Equal(t, latefee.StatusPending, e.db().LateFee.Query().OnlyX(e.op).Status)
	require.Len(t, e.fake.Intents(), intents+1)

	_, err = e.settleFee(e.boss, e.pass, uuid.NewString())
	_, code, _ := apiCode(t, err)
	require.Equal(t, "PAYMENT_PENDING", code)
	require.Len(t, e.fake.Intents(), intents+1, "nothing charged twice")

	evs := append(e.fake.TakeEvents(), e.fake.FinishPayment(true)...)
	e.postAll(t, evs)
	e.postAll(t, evs)
	require.Equal(t, latefee.StatusPaid, e.db().LateFee.Query().OnlyX(e.op).Status)
	require.Equal(t, 1, e.db().Payment.Query().Where(payment.KindEQ(payment.KindFee),
		payment.StatusEQ(payment.StatusSucceeded)).CountX(e.op), "the fee paid once")
}

// TestSettleLateFeeLostAnswer: a settle whose Stripe answer is lost (the
// charge made, no answer) is 409 UNKNOWN_WRITE_OUTCOME with the fee still
// pending and the attempt unknown. The same settle again with the same
// Idempotency-Key is not a replay of that 409: it looks the charge up at
// Stripe (by the attempt, never a second charge) and answers the final
// result, paid, with the fee settled and audited once; the reconcile job
// then finds it done, and the key replays the 200.
func TestSettleLateFeeLostAnswer(t *testing.T) {
	e, _ := declinedLateFee(t)
	intents := len(e.fake.Intents())
	e.fake.Script(stripetest.Outcome{Drop: 10})
	key := uuid.NewString()
	_, err := e.settleFee(e.boss, e.pass, key)
	requireCode(t, err, http.StatusConflict, "UNKNOWN_WRITE_OUTCOME")
	fee := e.db().LateFee.Query().OnlyX(e.op)
	require.Equal(t, latefee.StatusPending, fee.Status)
	at := e.db().PaymentAttempt.Query().Where(paymentattempt.SubjectID(fee.ID)).
		Order(ent.Desc(paymentattempt.FieldNumber)).FirstX(e.op)
	require.Equal(t, paymentattempt.StateUnknown, at.State)

	res, err := e.settleFee(e.boss, e.pass, key)
	require.NoError(t, err, "the same key looks the outcome up")
	require.Equal(t, "paid", string(res.Data.ChargeStatus))
	require.False(t, res.Data.PaymentID.Null)
	require.Equal(t, latefee.StatusPaid, e.db().LateFee.Query().OnlyX(e.op).Status)
	paid := func() int {
		return e.db().Payment.Query().Where(payment.KindEQ(payment.KindFee), payment.StatusEQ(payment.StatusSucceeded)).CountX(e.op)
	}
	require.Equal(t, 1, paid(), "the fee paid once")
	require.Len(t, e.fake.Intents(), intents+1, "one charge")
	require.Equal(t, 1, e.audits(t, billing.AuditLateFeeSettled))

	require.NoError(t, e.svc.Reconcile(e.op, at.ID))
	again, err := e.settleFee(e.boss, e.pass, key)
	require.NoError(t, err, "the key replays the final answer")
	require.Equal(t, res.Data.PaymentID, again.Data.PaymentID)
	require.Equal(t, 1, paid())
	require.Equal(t, 1, e.audits(t, billing.AuditLateFeeSettled))
	require.Len(t, e.fake.Intents(), intents+1)
}

// TestSettleLateFeeLostDecline: a settle whose declined charge's answer is
// lost is 409 UNKNOWN_WRITE_OUTCOME; the same key then answers the decline
// Stripe holds (402 CHARGE_DECLINED) without charging again, and the fee
// stays pending for the next settle.
func TestSettleLateFeeLostDecline(t *testing.T) {
	e, _ := declinedLateFee(t)
	intents := len(e.fake.Intents())
	e.fake.Script(stripetest.Outcome{Decline: "insufficient_funds", Drop: 10})
	key := uuid.NewString()
	_, err := e.settleFee(e.boss, e.pass, key)
	requireCode(t, err, http.StatusConflict, "UNKNOWN_WRITE_OUTCOME")
	_, err = e.settleFee(e.boss, e.pass, key)
	requireCode(t, err, http.StatusPaymentRequired, "CHARGE_DECLINED")
	require.Equal(t, latefee.StatusPending, e.db().LateFee.Query().OnlyX(e.op).Status)
	require.Len(t, e.fake.Intents(), intents+1, "one charge")
	require.Equal(t, 0, e.audits(t, billing.AuditLateFeeSettled))
}
