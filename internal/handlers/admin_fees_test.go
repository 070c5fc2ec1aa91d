package handlers_test

import (
	"sync"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/stretchr/testify/require"

	"github.com/venueplatform/venue/ent"
	entbooking "github.com/venueplatform/venue/ent/booking"
	"github.com/venueplatform/venue/ent/payment"
	api "github.com/venueplatform/venue/internal/gen/api"
)

// lateFee gives the refund env's member a late-cancelled booking owing fee
// minor units.
func (e *refundEnv) lateFee(t *testing.T, fee int64) *ent.Booking {
	t.Helper()
	cl := e.db().ClassInstance.Query().FirstX(e.op)
	return e.db().Booking.Create().SetMemberID(*e.pay.MemberID).SetClassInstanceID(cl.ID).
		SetStatus(entbooking.StatusLateCancelled).SetCancelledAt(time.Now()).SetLateCancelFeeMinor(fee).
		SetFeeStatus(entbooking.FeeStatusUnpaid).SaveX(e.op)
}

// TestAdminFees: staff list unpaid fees, settle one externally (a fee
// payment records the money) and waive another; a fee leaves unpaid once,
// also when two staff act at the same time; the permissions and bad input
// change nothing.
func TestAdminFees(t *testing.T) {
	e := newRefundEnv(t)
	first, second := e.lateFee(t, 5000), e.lateFee(t, 7500)
	viewerOnly := e.staffWith(t, "fees-view@pay.example", "passes.manage")

	list, err := viewerOnly.ListAdminFees(e.ctx, api.ListAdminFeesParams{})
	require.NoError(t, err)
	require.Len(t, list.Data, 2)
	for _, f := range list.Data {
		require.Equal(t, api.AdminFeeFeeStatusUnpaid, f.FeeStatus)
		require.Equal(t, api.AdminFeeKindLateCancel, f.Kind)
		require.Equal(t, "DKK", f.Currency)
	}
	_, err = e.staff.ListAdminFees(e.ctx, api.ListAdminFeesParams{})
	hookErr(t, err, 403, "ACCESS_DENIED") // billing.refunds.full alone does not list

	settle := &api.FeeSettleRequest{Method: api.FeeSettleRequestMethodCash, Note: api.NewOptString("paid at the desk")}
	_, err = viewerOnly.SettleAdminFee(e.ctx, settle, api.SettleAdminFeeParams{BookingId: first.ID, IdempotencyKey: uuid.NewString()})
	hookErr(t, err, 403, "ACCESS_DENIED")
	_, err = e.staff.WaiveAdminFee(e.ctx, &api.FeeWaiveRequest{Reason: ""}, api.WaiveAdminFeeParams{BookingId: first.ID, IdempotencyKey: uuid.NewString()})
	hookErr(t, err, 400, "VALIDATION_ERROR")
	_, err = e.staff.SettleAdminFee(e.ctx, settle, api.SettleAdminFeeParams{BookingId: uuid.New(), IdempotencyKey: uuid.NewString()})
	hookErr(t, err, 404, "NOT_FOUND")
	require.Equal(t, 1, e.db().Payment.Query().CountX(e.op))

	// Two staff settle the same fee at once: one settles it, the other is
	// refused, and one fee payment records the money.
	var (
		wg    sync.WaitGroup
		mu    sync.Mutex
		codes = map[string]int{}
	)
	for range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, err := e.staff.SettleAdminFee(e.ctx, settle, api.SettleAdminFeeParams{BookingId: first.ID, IdempotencyKey: uuid.NewString()})
			code := "ok"
			if err != nil {
				code = errorOf(t, err).Response.Error.Code
			}
			mu.Lock()
			codes[code]++
			mu.Unlock()
		}()
	}
	wg.Wait()
	require.Equal(t, map[string]int{"ok": 1, "FEE_NOT_UNPAID": 1}, codes)
	feePay := e.db().Payment.Query().Where(payment.KindEQ(payment.KindFee)).OnlyX(e.op)
	require.Equal(t, int64(5000), feePay.AmountMinor)
	require.Equal(t, payment.StatusSucceeded, feePay.Status)
	_, err = e.staff.WaiveAdminFee(e.ctx, &api.FeeWaiveRequest{Reason: "too late"}, api.WaiveAdminFeeParams{BookingId: first.ID, IdempotencyKey: uuid.NewString()})
	hookErr(t, err, 422, "FEE_NOT_UNPAID")

	waived, err := e.staff.WaiveAdminFee(e.ctx, &api.FeeWaiveRequest{Reason: "first time"}, api.WaiveAdminFeeParams{BookingId: second.ID, IdempotencyKey: uuid.NewString()})
	require.NoError(t, err)
	require.Equal(t, api.AdminFeeFeeStatusWaived, waived.Data.FeeStatus)
	require.Equal(t, int64(7500), waived.Data.AmountMinor)

	list, err = viewerOnly.ListAdminFees(e.ctx, api.ListAdminFeesParams{})
	require.NoError(t, err)
	require.Empty(t, list.Data)
	list, err = viewerOnly.ListAdminFees(e.ctx, api.ListAdminFeesParams{Status: api.NewOptListAdminFeesStatus(api.ListAdminFeesStatusAll)})
	require.NoError(t, err)
	require.Len(t, list.Data, 2)
	require.Equal(t, 1, e.eventCount(t, "fee.settled"))
	require.Equal(t, 1, e.eventCount(t, "fee.waived"))
	require.Equal(t, 1, e.db().Payment.Query().Where(payment.KindEQ(payment.KindFee)).CountX(e.op))
}
