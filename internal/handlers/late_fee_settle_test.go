package handlers_test

import (
	"net/http"
	"sync"
	"testing"

	"github.com/google/uuid"
	"github.com/stretchr/testify/require"

	"github.com/venueplatform/venue/ent/latefee"
	"github.com/venueplatform/venue/ent/payment"
	"github.com/venueplatform/venue/internal/billing"
	api "github.com/venueplatform/venue/internal/gen/api"
	"github.com/venueplatform/venue/internal/payments/stripetest"
)

func (e *lifeEnv) settleFee(c *api.Client, pass uuid.UUID, key string) (*api.LateFeeSettleResponse, error) {
	return c.SettleAdminLateFee(e.ctx, api.OptLateFeeSettleRequest{}, api.SettleAdminLateFeeParams{ID: pass, IdempotencyKey: key})
}

// TestSettleLateFeeRefusals: every refusal of the settle changes nothing
// (no charge, the fee pending, no audit): 422 NO_PENDING_LATE_FEE while the
// renewal is still unpaid (reason renewal_unpaid), 403 without
// passes.manage, 404 for an unknown pass; a declined charge is 402
// CHARGE_DECLINED (recorded as a failed attempt the member sees); a charge
// of the fee in progress is 409 PAYMENT_PENDING; once paid, 422
// NO_PENDING_LATE_FEE.
func TestSettleLateFeeRefusals(t *testing.T) {
	e, invID := lateFeeEnv(t)
	intents := len(e.fake.Intents())
	_, err := e.settleFee(e.boss, e.pass, uuid.NewString())
	st, code, det := apiCode(t, err)
	require.Equal(t, http.StatusUnprocessableEntity, st)
	require.Equal(t, billing.CodeNoPendingLateFee, code)
	require.Equal(t, "renewal_unpaid", det.Reason.Value)

	// Stripe's retry pays the renewal; the fee's automatic charge is declined.
	evs := e.stripeRetryPays(t, invID)
	e.fake.Script(stripetest.Outcome{Decline: "insufficient_funds"})
	e.postAll(t, evs)
	intents = len(e.fake.Intents())

	_, err = e.settleFee(e.viewer, e.pass, uuid.NewString())
	st, code, _ = apiCode(t, err)
	require.Equal(t, http.StatusForbidden, st, code)
	_, err = e.settleFee(e.boss, uuid.New(), uuid.NewString())
	st, code, _ = apiCode(t, err)
	require.Equal(t, http.StatusNotFound, st)
	require.Equal(t, "NOT_FOUND", code)
	require.Len(t, e.fake.Intents(), intents, "refusals charge nothing")

	e.fake.Script(stripetest.Outcome{Decline: "card_velocity_exceeded"})
	_, err = e.settleFee(e.boss, e.pass, uuid.NewString())
	st, code, det = apiCode(t, err)
	require.Equal(t, http.StatusPaymentRequired, st)
	require.Equal(t, "CHARGE_DECLINED", code)
	require.JSONEq(t, `"card_velocity_exceeded"`, string(det.AdditionalProps["decline_code"]))
	require.JSONEq(t, `"update_card"`, string(det.AdditionalProps["next_step"]))
	require.Equal(t, latefee.StatusPending, e.db().LateFee.Query().OnlyX(e.op).Status)
	require.Len(t, e.fake.Intents(), intents+1)
	require.Zero(t, e.audits(t, billing.AuditLateFeeSettled))
	declines := 0
	for _, r := range e.failedPayments(t) {
		if r.AmountMinor == 5000 {
			declines++
		}
	}
	require.Equal(t, 2, declines, "the automatic try and the staff's, both declined")

	// A charge of the fee in flight (another desk's) holds the fee's slot.
	fee := e.db().LateFee.Query().OnlyX(e.op)
	live := e.db().PaymentAttempt.Create().SetPurpose(billing.LateFeePurpose).SetSubjectID(fee.ID).SetNumber(99).
		SetState("processing").SetLiveSubjectID(fee.ID).SaveX(e.op)
	_, err = e.settleFee(e.boss, e.pass, uuid.NewString())
	st, code, _ = apiCode(t, err)
	require.Equal(t, http.StatusConflict, st)
	require.Equal(t, "PAYMENT_PENDING", code)
	e.db().PaymentAttempt.UpdateOne(live).SetState("failed").ClearLiveSubjectID().ExecX(e.op)

	res, err := e.settleFee(e.boss, e.pass, uuid.NewString())
	require.NoError(t, err)
	require.Equal(t, api.LateFeeSettleChargeStatusPaid, res.Data.ChargeStatus)
	_, err = e.settleFee(e.boss, e.pass, uuid.NewString())
	st, code, _ = apiCode(t, err)
	require.Equal(t, http.StatusUnprocessableEntity, st)
	require.Equal(t, billing.CodeNoPendingLateFee, code)
	require.Equal(t, 1, e.audits(t, billing.AuditLateFeeSettled))
}

// TestSettleLateFeeReplayAndConcurrency: a declined fee settled by eight
// staff requests at once (distinct keys) is charged once: one answer paid,
// the others 409 PAYMENT_PENDING or 422 NO_PENDING_LATE_FEE; one fee
// payment, one audit. The winning request sent again with its key replays
// its answer and charges nothing.
func TestSettleLateFeeReplayAndConcurrency(t *testing.T) {
	e, _ := declinedLateFee(t)
	intents := len(e.fake.Intents())
	const n = 8
	keys := make([]string, n)
	res := make([]*api.LateFeeSettleResponse, n)
	errs := make([]error, n)
	var wg sync.WaitGroup
	for i := range n {
		keys[i] = uuid.NewString()
		wg.Add(1)
		go func() {
			defer wg.Done()
			res[i], errs[i] = e.settleFee(e.boss, e.pass, keys[i])
		}()
	}
	wg.Wait()
	won := -1
	for i := range n {
		if errs[i] == nil {
			require.Equal(t, -1, won, "one request charges")
			won = i
			continue
		}
		st, code, _ := apiCode(t, errs[i])
		require.Contains(t, []string{"PAYMENT_PENDING", billing.CodeNoPendingLateFee}, code, "status %d", st)
	}
	require.NotEqual(t, -1, won)
	require.Len(t, e.fake.Intents(), intents+1, "one card charge")
	fee := e.db().LateFee.Query().OnlyX(e.op)
	require.Equal(t, latefee.StatusPaid, fee.Status)
	pays := e.db().Payment.Query().Where(payment.KindEQ(payment.KindFee), payment.StatusEQ(payment.StatusSucceeded)).AllX(e.op)
	require.Len(t, pays, 1)
	require.Equal(t, int64(5000), pays[0].AmountMinor)
	got := res[won].Data
	require.Equal(t, fee.ID, got.LateFee.ID)
	require.Equal(t, api.PendingLateFeeStatusPaid, got.LateFee.Status)
	require.Equal(t, pays[0].ID, got.PaymentID.Value)
	require.Equal(t, 1, e.audits(t, billing.AuditLateFeeSettled))

	again, err := e.settleFee(e.boss, e.pass, keys[won])
	require.NoError(t, err)
	require.Equal(t, got, again.Data, "the same key replays the answer")
	require.Len(t, e.fake.Intents(), intents+1)
	require.Equal(t, 1, e.audits(t, billing.AuditLateFeeSettled))
}
