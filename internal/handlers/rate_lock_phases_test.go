package handlers_test

import (
	"net/http"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/stretchr/testify/require"

	"github.com/venueplatform/venue/ent/auditlog"
	"github.com/venueplatform/venue/ent/paymentattempt"
	"github.com/venueplatform/venue/ent/ratelock"
	"github.com/venueplatform/venue/internal/billing"
	api "github.com/venueplatform/venue/internal/gen/api"
)

func (e *moveEnv) lock(t *testing.T, amount float64, until time.Time) (*api.AdminRateLockResponse, error) {
	t.Helper()
	return e.staff.SetAdminRateLock(e.ctx, &api.AdminRateLockRequest{PassID: e.pass, Amount: amount, LockedUntil: until, Reason: "loyal"},
		api.SetAdminRateLockParams{IdempotencyKey: uuid.NewString()})
}

func (e *moveEnv) phases(t *testing.T) []int64 {
	t.Helper()
	_, ph := e.fake.ScheduleOf(e.sub)
	return ph
}

// TestRateLockOverBindingPhases: a six-month binding renews through a
// schedule (549.00 to the binding's end, then 599.00). A rate lock at
// 500.00 sets every phase to the locked price, so the renewals before
// locked_until charge 500.00; when it expires the phases get their own
// prices back before the next renewal (549.00, still in the binding). A
// second lock removed by staff puts the phases back too, and the binding
// ends at 599.00 as it would have.
func TestRateLockOverBindingPhases(t *testing.T) {
	e := newMoveEnv(t, true)
	require.Equal(t, []int64{54900, 59900}, e.phases(t))
	validTo := *e.studio.client.Pass.GetX(e.op, e.pass).ValidTo
	_, err := e.lock(t, 500, validTo.AddDate(0, 2, 10))
	require.NoError(t, err)
	require.Equal(t, []int64{50000, 50000}, e.phases(t), "the lock holds every phase")
	require.Equal(t, int64(50000), e.subRow(t).AmountMinor)
	require.Equal(t, paymentattempt.StateSucceeded, e.lastAttempt(t).State)

	e.renewals(t, 3)
	require.Equal(t, []int64{50000, 50000, 50000}, e.fake.InvoiceAmounts(e.sub))
	require.Equal(t, 1, e.studio.client.RateLock.Query().Where(ratelock.StatusEQ(ratelock.StatusExpired)).CountX(e.op))
	require.Equal(t, []int64{54900, 59900}, e.phases(t), "the expired lock gives the phases their own prices")
	require.Equal(t, int64(54900), e.subRow(t).AmountMinor)
	e.renewals(t, 1)

	_, err = e.lock(t, 450, validTo.AddDate(1, 0, 0))
	require.NoError(t, err)
	require.Equal(t, []int64{45000, 45000}, e.phases(t))
	_, err = e.staff.RemoveAdminRateLock(e.ctx, api.RemoveAdminRateLockParams{PassId: e.pass, IdempotencyKey: uuid.NewString()})
	require.NoError(t, err)
	require.Equal(t, []int64{54900, 59900}, e.phases(t), "removing the lock puts the phases back")
	require.Equal(t, int64(54900), e.subRow(t).AmountMinor)

	e.renewals(t, 2)
	require.Equal(t, []int64{50000, 50000, 50000, 54900, 54900, 59900}, e.fake.InvoiceAmounts(e.sub))
	require.Equal(t, int64(59900), e.subRow(t).AmountMinor)
}

// TestReconcileRevertsRefusedPriceChange: a rate lock whose Stripe answer
// was lost is recorded (409 UNKNOWN_WRITE_OUTCOME); when the reconcile
// sends it again and Stripe refuses, our rows go back as at a refusal at
// the request: the attempt fails, the lock goes, the subscription's amount
// is the price before, the refusal is audited. The same holds for a
// membership whose schedule carries the price (the phases).
func TestReconcileRevertsRefusedPriceChange(t *testing.T) {
	for _, binding := range []bool{false, true} {
		e := newMoveEnv(t, binding)
		before := e.subRow(t).AmountMinor
		phases := e.phases(t)
		validTo := *e.studio.client.Pass.GetX(e.op, e.pass).ValidTo
		if binding {
			e.fake.FailScheduleWrites(2, 0)
		} else {
			e.fake.FailSubscriptionUpdates(2, 0, 0)
		}
		_, err := e.lock(t, 500, validTo.AddDate(0, 3, 0))
		requireCode(t, err, http.StatusConflict, "UNKNOWN_WRITE_OUTCOME")
		at := e.lastAttempt(t)
		require.Equal(t, paymentattempt.StateUnknown, at.State)
		require.Equal(t, 1, e.studio.client.RateLock.Query().Where(ratelock.StatusEQ(ratelock.StatusActive)).CountX(e.op))
		require.Equal(t, int64(50000), e.subRow(t).AmountMinor, "the intent is recorded")

		if binding {
			e.fake.FailScheduleWrites(0, 1)
		} else {
			e.fake.FailSubscriptionUpdates(0, 0, 1)
		}
		require.NoError(t, e.svc.Reconcile(e.op, at.ID))
		at = e.studio.client.PaymentAttempt.GetX(e.op, at.ID)
		require.Equal(t, paymentattempt.StateFailed, at.State)
		require.Nil(t, at.LiveSubjectID)
		require.Zero(t, e.studio.client.RateLock.Query().CountX(e.op), "the lock goes")
		require.Equal(t, before, e.subRow(t).AmountMinor)
		amount, _ := e.fake.SubscriptionAmount(e.sub)
		require.Equal(t, before, amount, "Stripe charges the price before")
		require.Equal(t, phases, e.phases(t))
		require.Equal(t, 1, e.studio.client.AuditLog.Query().Where(auditlog.Action(billing.AuditPriceChangeFailed)).CountX(e.op))

		_, err = e.lock(t, 500, validTo.AddDate(0, 3, 0))
		require.NoError(t, err, "the slot is free: the lock can be set again")
	}
}
