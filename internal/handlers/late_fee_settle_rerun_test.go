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

// TestSettleLateFeeRerunAfterReconcile: a settle whose answer is lost (409
// UNKNOWN_WRITE_OUTCOME) and whose charge the reconcile then finds paid is
// answered, asked again with the same key, by that charge: 200 paid with
// its payment, audited once, nothing charged again, though no fee is
// pending any more. Another key is 422 NO_PENDING_LATE_FEE.
func TestSettleLateFeeRerunAfterReconcile(t *testing.T) {
	e, feeID := declinedLateFee(t)
	intents := len(e.fake.Intents())
	e.fake.Script(stripetest.Outcome{Drop: 10})
	key := uuid.NewString()
	_, err := e.settleFee(e.boss, e.pass, key)
	requireCode(t, err, http.StatusConflict, "UNKNOWN_WRITE_OUTCOME")
	at := e.db().PaymentAttempt.Query().Where(paymentattempt.SubjectID(feeID)).
		Order(ent.Desc(paymentattempt.FieldNumber)).FirstX(e.op)
	require.Equal(t, paymentattempt.StateUnknown, at.State)

	require.NoError(t, e.svc.Reconcile(e.op, at.ID), "the background reconcile settles the lost charge")
	fee := e.db().LateFee.GetX(e.op, feeID)
	require.Equal(t, latefee.StatusPaid, fee.Status)
	require.Equal(t, 0, e.audits(t, billing.AuditLateFeeSettled))

	_, err = e.settleFee(e.boss, e.pass, uuid.NewString())
	requireCode(t, err, http.StatusUnprocessableEntity, billing.CodeNoPendingLateFee)

	res, err := e.settleFee(e.boss, e.pass, key)
	require.NoError(t, err, "the same key answers what became of its charge")
	require.Equal(t, "paid", string(res.Data.ChargeStatus))
	require.Equal(t, *fee.PaymentID, res.Data.PaymentID.Value)
	require.Equal(t, feeID, res.Data.LateFee.ID)
	require.Equal(t, 1, e.audits(t, billing.AuditLateFeeSettled))

	again, err := e.settleFee(e.boss, e.pass, key)
	require.NoError(t, err, "the key replays its answer")
	require.Equal(t, res.Data.PaymentID, again.Data.PaymentID)
	require.Equal(t, 1, e.audits(t, billing.AuditLateFeeSettled))
	require.Len(t, e.fake.Intents(), intents+1, "one charge")
	require.Equal(t, 1, e.db().Payment.Query().Where(payment.KindEQ(payment.KindFee),
		payment.StatusEQ(payment.StatusSucceeded)).CountX(e.op), "the fee paid once")
}
