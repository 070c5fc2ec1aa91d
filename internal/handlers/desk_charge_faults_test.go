package handlers_test

import (
	"testing"

	"github.com/google/uuid"
	"github.com/stretchr/testify/require"

	"github.com/venueplatform/venue/ent/auditlog"
	api "github.com/venueplatform/venue/internal/gen/api"
)

// TestDeskChargeAsksToAuthenticate: a desk charge to a saved card that asks
// the client to authenticate is 402 CHARGE_REQUIRES_ACTION (an off-session
// charge cannot): no payment, no audit.
func TestDeskChargeAsksToAuthenticate(t *testing.T) {
	e := newRefundEnv(t)
	e.clientCards(t)
	mid := *e.pay.MemberID
	pos := e.staffWith(t, "sca@pay.example", "pos.sell")
	pays := e.db().Payment.Query().CountX(e.op)
	e.fake.RequireAuthentication("pm_visa")
	_, err := pos.CreateAdminDeskCharge(e.ctx, &api.DeskChargeRequest{PaymentMethodID: "pm_visa", AmountMinor: 12500},
		api.CreateAdminDeskChargeParams{MemberId: mid, IdempotencyKey: uuid.NewString()})
	hookErr(t, err, 402, "CHARGE_REQUIRES_ACTION")
	require.Equal(t, pays, e.db().Payment.Query().CountX(e.op), "no payment")
	require.Zero(t, e.db().AuditLog.Query().Where(auditlog.Action("payment.desk_charged")).CountX(e.op))
}

// TestDeskChargeProcessing: a desk charge whose card payment is processing
// answers the charge open (no payment yet); the same key replays it
// without a second charge.
func TestDeskChargeProcessing(t *testing.T) {
	e := newRefundEnv(t)
	e.clientCards(t)
	mid := *e.pay.MemberID
	pos := e.staffWith(t, "slow@pay.example", "pos.sell")
	e.fake.ProcessSlowly("pm_visa")
	intents := len(e.fake.Intents())
	key := uuid.NewString()
	charge := func() (*api.DeskChargeResponse, error) {
		return pos.CreateAdminDeskCharge(e.ctx, &api.DeskChargeRequest{PaymentMethodID: "pm_visa", AmountMinor: 12500},
			api.CreateAdminDeskChargeParams{MemberId: mid, IdempotencyKey: key})
	}
	res, err := charge()
	require.NoError(t, err)
	require.Equal(t, "open", string(res.Data.Status))
	again, err := charge()
	require.NoError(t, err)
	require.Equal(t, res.Data.ID, again.Data.ID)
	require.Len(t, e.fake.Intents(), intents+1, "one charge")
}
