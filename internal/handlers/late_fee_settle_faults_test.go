package handlers_test

import (
	"net/http"
	"testing"

	"github.com/google/uuid"
	"github.com/stretchr/testify/require"

	"github.com/venueplatform/venue/ent/latefee"
	"github.com/venueplatform/venue/internal/billing"
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
