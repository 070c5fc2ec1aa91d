package handlers_test

import (
	"context"
	"net/http"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/stretchr/testify/require"

	"github.com/venueplatform/venue/ent/latefee"
	"github.com/venueplatform/venue/ent/payment"
	"github.com/venueplatform/venue/internal/billing"
	"github.com/venueplatform/venue/internal/events"
	api "github.com/venueplatform/venue/internal/gen/api"
)

// lateFeeEnv is a renewal declined and left unpaid past a late fee's grace
// days of the billing clock: the fee is applied.
func lateFeeEnv(t *testing.T) (*lifeEnv, uuid.UUID) {
	t.Helper()
	return lateFeeEnvOn(t, newLifeEnv(t))
}

// lateFeeEnvOn is lateFeeEnv on e (set up beforehand, e.g. with a partner's
// webhook subscription).
func lateFeeEnvOn(t *testing.T, e *lifeEnv) (*lifeEnv, uuid.UUID) {
	t.Helper()
	_, err := e.boss.SetAdminLateFeePolicy(e.ctx, &api.LateFeePolicyRequest{AmountMinor: 5000, GraceDays: 3},
		api.SetAdminLateFeePolicyParams{Currency: e.ten.Currency, IdempotencyKey: uuid.NewString()})
	require.NoError(t, err)
	inv := e.renew(t, true)
	svc := billing.New(e.svc)

	// Inside the grace days nothing is added.
	_, err = e.clock.Advance(context.Background(), inv.DueDate.Add(3*24*time.Hour+time.Hour))
	require.NoError(t, err)
	n, err := svc.ApplyLateFees(context.Background(), e.clock.Now)
	require.NoError(t, err)
	require.Zero(t, n, "still inside the grace days")
	got, err := e.staff.GetAdminRenewalRecovery(e.ctx, api.GetAdminRenewalRecoveryParams{ID: e.pass})
	require.NoError(t, err)
	require.True(t, got.Data.LateFee.IsNull())

	// A day past them the fee is added, once.
	_, err = e.clock.Advance(context.Background(), inv.DueDate.Add(4*24*time.Hour+time.Hour))
	require.NoError(t, err)
	n, err = svc.ApplyLateFees(context.Background(), e.clock.Now)
	require.NoError(t, err)
	require.Equal(t, 1, n)
	n, err = svc.ApplyLateFees(context.Background(), e.clock.Now)
	require.NoError(t, err)
	require.Zero(t, n, "a late fee is applied once per invoice")
	require.Equal(t, 1, e.audits(t, billing.AuditLateFeeApplied))
	return e, inv.ID
}

// TestLateFeePaidWithRenewal: a renewal unpaid past the grace days owes the
// venue's late fee; the recovery read shows it, a recovery charge that
// expects only the balance is refused and charges nothing, and the charge
// of the amount due pays the renewal and the fee (a fee payment), after
// which nothing is left to waive.
func TestLateFeePaidWithRenewal(t *testing.T) {
	e, invID := lateFeeEnv(t)

	got, err := e.staff.GetAdminRenewalRecovery(e.ctx, api.GetAdminRenewalRecoveryParams{ID: e.pass})
	require.NoError(t, err)
	fee, ok := got.Data.LateFee.Get()
	require.True(t, ok)
	require.Equal(t, int64(5000), fee.AmountMinor)
	require.Equal(t, invID, fee.InvoiceID)
	require.Equal(t, api.PendingLateFeeStatusPending, fee.Status)
	require.Equal(t, int64(49900+5000), got.Data.AmountDueMinor)
	require.True(t, got.Data.Actions.WaiveLateFee.Value)

	// The member sees the fee beside the renewal.
	out, err := e.member.GetMyOutstandingPayments(e.ctx, api.GetMyOutstandingPaymentsParams{XOrganizationID: e.venue.ID})
	require.NoError(t, err)
	require.Len(t, out.Data.Items, 1)
	lf, ok := out.Data.Items[0].LateFeeAmount.Get()
	require.True(t, ok)
	require.InDelta(t, 50.0, lf, 0.001)

	e.fake.DeclineRenewals(func(string, int, int) string { return "" })
	intents := len(e.fake.Intents())
	charges := e.fake.InvoiceCharges()
	_, err = e.boss.ChargeAdminRenewalRecovery(e.ctx,
		api.NewOptRenewalRecoveryChargeRequest(api.RenewalRecoveryChargeRequest{ExpectedAmountMinor: api.NewOptInt64(49900)}),
		api.ChargeAdminRenewalRecoveryParams{ID: e.pass, IdempotencyKey: uuid.NewString()})
	st, code, _ := apiCode(t, err)
	require.Equal(t, http.StatusConflict, st)
	require.Equal(t, billing.CodeBalanceChanged, code)
	require.Equal(t, charges, e.fake.InvoiceCharges(), "a refused charge charges nothing")
	require.Len(t, e.fake.Intents(), intents)

	res, err := e.boss.ChargeAdminRenewalRecovery(e.ctx,
		api.NewOptRenewalRecoveryChargeRequest(api.RenewalRecoveryChargeRequest{ExpectedAmountMinor: api.NewOptInt64(54900)}),
		api.ChargeAdminRenewalRecoveryParams{ID: e.pass, IdempotencyKey: uuid.NewString()})
	require.NoError(t, err)
	require.Equal(t, "paid", res.Data.InvoiceStatus)
	require.Equal(t, api.RenewalRecoveryChargeResponseDataLateFeeStatusPaid, res.Data.LateFeeStatus.Value)
	require.Len(t, e.fake.Intents(), intents+1, "the fee is one card charge")

	db := e.db()
	row := db.LateFee.Query().OnlyX(e.op)
	require.Equal(t, latefee.StatusPaid, row.Status)
	require.NotNil(t, row.PaymentID)
	feePay := db.Payment.GetX(e.op, *row.PaymentID)
	require.Equal(t, payment.KindFee, feePay.Kind)
	require.Equal(t, payment.StatusSucceeded, feePay.Status)
	require.Equal(t, int64(5000), feePay.AmountMinor)

	got, err = e.staff.GetAdminRenewalRecovery(e.ctx, api.GetAdminRenewalRecoveryParams{ID: e.pass})
	require.NoError(t, err)
	require.True(t, got.Data.LateFee.IsNull())
	require.True(t, got.Data.Invoice.IsNull())
	_, err = e.boss.WaiveAdminLateFee(e.ctx, api.OptWaiveLateFeeRequest{},
		api.WaiveAdminLateFeeParams{ID: e.pass, IdempotencyKey: uuid.NewString()})
	st, code, _ = apiCode(t, err)
	require.Equal(t, http.StatusUnprocessableEntity, st)
	require.Equal(t, billing.CodeNoPendingLateFee, code)
	require.Zero(t, e.audits(t, billing.AuditLateFeeWaived))
}

// TestLateFeeWaived: staff waive a pending late fee (audited, once); the
// member's pay link then pays the renewal alone; refusals (permission,
// another venue's pass, nothing pending) change nothing.
func TestLateFeeWaived(t *testing.T) {
	e, invID := lateFeeEnv(t)
	foreign := e.foreignPass(t)

	_, err := e.viewer.WaiveAdminLateFee(e.ctx, api.OptWaiveLateFeeRequest{},
		api.WaiveAdminLateFeeParams{ID: e.pass, IdempotencyKey: uuid.NewString()})
	st, _, _ := apiCode(t, err)
	require.Equal(t, http.StatusForbidden, st)
	for _, id := range []uuid.UUID{foreign, uuid.New()} {
		_, err = e.boss.WaiveAdminLateFee(e.ctx, api.OptWaiveLateFeeRequest{},
			api.WaiveAdminLateFeeParams{ID: id, IdempotencyKey: uuid.NewString()})
		st, _, _ = apiCode(t, err)
		require.Equal(t, http.StatusNotFound, st)
	}
	st, body := e.post(t, "/admin/passes/"+e.pass.String()+"/renewal-recovery/waive-late-fee", `{"reason":"x","extra":1}`)
	require.Equal(t, http.StatusBadRequest, st, body)
	require.Zero(t, e.audits(t, billing.AuditLateFeeWaived))
	require.Equal(t, latefee.StatusPending, e.db().LateFee.Query().OnlyX(e.op).Status)

	w, err := e.boss.WaiveAdminLateFee(e.ctx, api.NewOptWaiveLateFeeRequest(api.WaiveLateFeeRequest{Reason: api.NewOptString("first time")}),
		api.WaiveAdminLateFeeParams{ID: e.pass, IdempotencyKey: uuid.NewString()})
	require.NoError(t, err)
	require.Equal(t, api.PendingLateFeeStatusWaived, w.Data.Status)
	require.Equal(t, invID, w.Data.InvoiceID)
	require.Equal(t, 1, e.audits(t, billing.AuditLateFeeWaived))
	_, err = e.boss.WaiveAdminLateFee(e.ctx, api.OptWaiveLateFeeRequest{},
		api.WaiveAdminLateFeeParams{ID: e.pass, IdempotencyKey: uuid.NewString()})
	_, code, _ := apiCode(t, err)
	require.Equal(t, billing.CodeNoPendingLateFee, code)
	require.Equal(t, 1, e.audits(t, billing.AuditLateFeeWaived))

	// The member's pay link pays the renewal alone.
	e.fake.DeclineRenewals(func(string, int, int) string { return "" })
	intents := len(e.fake.Intents())
	res, err := e.member.RetryMyInvoice(e.ctx, api.OptInvoiceRetryRequest{},
		api.RetryMyInvoiceParams{ID: invID, XOrganizationID: e.venue.ID})
	require.NoError(t, err)
	require.NotNil(t, res)
	require.Len(t, e.fake.Intents(), intents, "a waived fee is not charged")
	require.Equal(t, "paid", string(e.db().Invoice.GetX(e.op, invID).Status))
	require.Zero(t, e.db().Payment.Query().Where(payment.KindEQ(payment.KindFee)).CountX(e.op))
}

// TestLateFeeMemberPayLink: the member's own retry (the pay link's path)
// pays the renewal and then its late fee.
func TestLateFeeMemberPayLink(t *testing.T) {
	e, invID := lateFeeEnv(t)
	e.fake.DeclineRenewals(func(string, int, int) string { return "" })
	_, err := e.member.RetryMyInvoice(e.ctx, api.OptInvoiceRetryRequest{},
		api.RetryMyInvoiceParams{ID: invID, XOrganizationID: e.venue.ID})
	require.NoError(t, err)
	require.Equal(t, latefee.StatusPaid, e.db().LateFee.Query().OnlyX(e.op).Status)
	require.Equal(t, 1, e.db().Payment.Query().Where(payment.KindEQ(payment.KindFee), payment.StatusEQ(payment.StatusSucceeded)).CountX(e.op))
	// Partners hear of the fee paid by the member once (late_fee_events_test.go).
	require.Equal(t, 1, e.eventCount(t, events.MembershipLateFeePaid))
	require.Equal(t, 1, e.eventCount(t, events.MembershipLateFeeApplied))
}

// TestLateFeePolicies: billing.manage sets, lists and removes the venue's
// late fee; bad input and other staff change nothing.
func TestLateFeePolicies(t *testing.T) {
	e := newLifeEnv(t)
	key := func() string { return uuid.NewString() }
	_, err := e.staff.SetAdminLateFeePolicy(e.ctx, &api.LateFeePolicyRequest{AmountMinor: 100, GraceDays: 1},
		api.SetAdminLateFeePolicyParams{Currency: "DKK", IdempotencyKey: key()})
	st, _, _ := apiCode(t, err)
	require.Equal(t, http.StatusForbidden, st, "passes.manage alone may not set fees")
	for _, c := range []struct{ path, body string }{
		{"/admin/billing/late-fee-policies/DKK", `{"amount_minor":0,"grace_days":3}`},
		{"/admin/billing/late-fee-policies/DKK", `{"amount_minor":-5,"grace_days":3}`},
		{"/admin/billing/late-fee-policies/DKK", `{"amount_minor":100,"grace_days":91}`},
		{"/admin/billing/late-fee-policies/DKK", `{"amount_minor":100}`},
		{"/admin/billing/late-fee-policies/DKK", `{"amount_minor":100,"grace_days":1,"x":true}`},
	} {
		st, body := e.rawAs(t, e.bossToken, http.MethodPut, c.path, c.body)
		require.Equal(t, http.StatusBadRequest, st, c.body+" "+body)
	}
	for _, path := range []string{"/admin/billing/late-fee-policies/dkk", "/admin/billing/late-fee-policies/DKKK"} {
		st, body := e.rawAs(t, e.bossToken, http.MethodPut, path, `{"amount_minor":100,"grace_days":1}`)
		require.Equal(t, http.StatusNotFound, st, "a malformed currency is a malformed id: "+body)
	}
	list, err := e.boss.ListAdminLateFeePolicies(e.ctx)
	require.NoError(t, err)
	require.Empty(t, list.Data, "refused writes change nothing")

	got, err := e.boss.SetAdminLateFeePolicy(e.ctx, &api.LateFeePolicyRequest{AmountMinor: 7500, GraceDays: 5},
		api.SetAdminLateFeePolicyParams{Currency: "DKK", IdempotencyKey: key()})
	require.NoError(t, err)
	require.Equal(t, int64(7500), got.Data.AmountMinor)
	_, err = e.boss.SetAdminLateFeePolicy(e.ctx, &api.LateFeePolicyRequest{AmountMinor: 2500, GraceDays: 0},
		api.SetAdminLateFeePolicyParams{Currency: "DKK", IdempotencyKey: key()})
	require.NoError(t, err)
	list, err = e.boss.ListAdminLateFeePolicies(e.ctx)
	require.NoError(t, err)
	require.Len(t, list.Data, 1)
	require.Equal(t, int64(2500), list.Data[0].AmountMinor)
	require.Equal(t, 0, list.Data[0].GraceDays)

	_, err = e.boss.DeleteAdminLateFeePolicy(e.ctx, api.DeleteAdminLateFeePolicyParams{Currency: "DKK", IdempotencyKey: key()})
	require.NoError(t, err)
	_, err = e.boss.DeleteAdminLateFeePolicy(e.ctx, api.DeleteAdminLateFeePolicyParams{Currency: "DKK", IdempotencyKey: key()})
	st, _, _ = apiCode(t, err)
	require.Equal(t, http.StatusNotFound, st)
	require.Equal(t, 3, e.audits(t, billing.AuditLateFeePolicy))
}
