package handlers_test

import (
	"net/http"
	"testing"

	"github.com/google/uuid"
	"github.com/stretchr/testify/require"

	"github.com/venueplatform/venue/ent/latefee"
	"github.com/venueplatform/venue/ent/notificationdelivery"
	"github.com/venueplatform/venue/internal/billing"
	api "github.com/venueplatform/venue/internal/gen/api"
)

func (e *lifeEnv) feeReceipts(t *testing.T, feeID uuid.UUID) []string {
	t.Helper()
	rows := e.db().NotificationDelivery.Query().Where(notificationdelivery.Kind(billing.KindLateFeeSettled)).AllX(e.op)
	out := make([]string, 0, len(rows))
	for _, r := range rows {
		require.Equal(t, feeID.String(), r.Data["late_fee_id"])
		out = append(out, string(r.Channel)+":"+string(r.Status))
	}
	return out
}

// TestSettleLateFeeSilentByDefault: staff settling a member's late fee
// without notify_client (no body, or false) contact nobody; asking to tell
// the member without notifications.send is 403 and charges nothing.
func TestSettleLateFeeSilentByDefault(t *testing.T) {
	e, feeID := declinedLateFee(t)
	intents := len(e.fake.Intents())
	_, err := e.staff.SettleAdminLateFee(e.ctx, api.NewOptLateFeeSettleRequest(api.LateFeeSettleRequest{NotifyClient: api.NewOptBool(true)}),
		api.SettleAdminLateFeeParams{ID: e.pass, IdempotencyKey: uuid.NewString()})
	st, _, _ := apiCode(t, err)
	require.Equal(t, http.StatusForbidden, st)
	require.Len(t, e.fake.Intents(), intents, "nothing charged")
	require.Equal(t, latefee.StatusPending, e.db().LateFee.GetX(e.op, feeID).Status)

	_, err = e.boss.SettleAdminLateFee(e.ctx, api.NewOptLateFeeSettleRequest(api.LateFeeSettleRequest{NotifyClient: api.NewOptBool(false)}),
		api.SettleAdminLateFeeParams{ID: e.pass, IdempotencyKey: uuid.NewString()})
	require.NoError(t, err)
	require.Equal(t, latefee.StatusPaid, e.db().LateFee.GetX(e.op, feeID).Status)
	require.Empty(t, e.feeReceipts(t, feeID), "the member is not contacted")
}

// TestSettleLateFeeNotifiesClient: with notify_client true the member gets
// the fee's receipt once by e-mail through the outbox; the same key again
// replays the answer and sends nothing more.
func TestSettleLateFeeNotifiesClient(t *testing.T) {
	e, feeID := declinedLateFee(t)
	key := uuid.NewString()
	body := api.NewOptLateFeeSettleRequest(api.LateFeeSettleRequest{NotifyClient: api.NewOptBool(true)})
	res, err := e.boss.SettleAdminLateFee(e.ctx, body, api.SettleAdminLateFeeParams{ID: e.pass, IdempotencyKey: key})
	require.NoError(t, err)
	require.Equal(t, api.LateFeeSettleChargeStatusPaid, res.Data.ChargeStatus)
	require.Equal(t, []string{"email:pending"}, e.feeReceipts(t, feeID))

	again, err := e.boss.SettleAdminLateFee(e.ctx, body, api.SettleAdminLateFeeParams{ID: e.pass, IdempotencyKey: key})
	require.NoError(t, err)
	require.Equal(t, res.Data.PaymentID, again.Data.PaymentID)
	require.Equal(t, []string{"email:pending"}, e.feeReceipts(t, feeID), "told once")
}

// TestSettleLateFeeNotifiesWhenProcessed: a settle with notify_client whose
// charge is processing tells nothing yet; the bank's answer settling the
// fee later (Stripe's payment_intent.succeeded, posted twice) queues the
// one receipt the request asked for. Without notify_client nothing is sent.
func TestSettleLateFeeNotifiesWhenProcessed(t *testing.T) {
	for _, tell := range []bool{true, false} {
		t.Run(map[bool]string{true: "notify", false: "silent"}[tell], func(t *testing.T) {
			e, feeID := declinedLateFee(t)
			e.fake.ProcessSlowly("pm_bill")
			body := api.NewOptLateFeeSettleRequest(api.LateFeeSettleRequest{NotifyClient: api.NewOptBool(tell)})
			res, err := e.boss.SettleAdminLateFee(e.ctx, body, api.SettleAdminLateFeeParams{ID: e.pass, IdempotencyKey: uuid.NewString()})
			require.NoError(t, err)
			require.Equal(t, api.LateFeeSettleChargeStatusProcessing, res.Data.ChargeStatus)
			require.Empty(t, e.feeReceipts(t, feeID), "nothing told while processing")

			evs := append(e.fake.TakeEvents(), e.fake.FinishPayment(true)...)
			e.postAll(t, evs)
			e.postAll(t, evs)
			require.Equal(t, latefee.StatusPaid, e.db().LateFee.GetX(e.op, feeID).Status)
			if tell {
				require.Equal(t, []string{"email:pending"}, e.feeReceipts(t, feeID), "told once, when paid")
			} else {
				require.Empty(t, e.feeReceipts(t, feeID))
			}
		})
	}
}
