package handlers_test

import (
	"testing"

	"github.com/google/uuid"
	"github.com/stretchr/testify/require"

	"github.com/venueplatform/venue/ent/event"
	"github.com/venueplatform/venue/ent/latefee"
	"github.com/venueplatform/venue/ent/webhookdelivery"
	"github.com/venueplatform/venue/internal/billing"
	"github.com/venueplatform/venue/internal/events"
	api "github.com/venueplatform/venue/internal/gen/api"
	"github.com/venueplatform/venue/internal/payments/stripetest"
)

// lateFeeHooked is lateFeeEnv with a partner subscribed, before the fee is
// applied, to the late fee events and payment.succeeded.
func lateFeeHooked(t *testing.T) (*lifeEnv, uuid.UUID) {
	t.Helper()
	e := newLifeEnv(t)
	e.db().WebhookSubscription.Create().SetURL("https://hooks.example.com/late-fees").
		SetEventTypes([]string{events.MembershipLateFeeApplied, events.MembershipLateFeePaid,
			events.MembershipLateFeeWaived, events.PaymentSucceeded}).
		SetSecret("whsec_late_fee_test").SaveX(e.op)
	return lateFeeEnvOn(t, e)
}

// lateFeeEvent requires exactly one event of typ, with one webhook
// delivery, for the venue's only late fee, and returns its data.
func (e *lifeEnv) lateFeeEvent(t *testing.T, typ string) map[string]any {
	want := map[string]string{events.MembershipLateFeeApplied: "pending", events.MembershipLateFeePaid: "paid",
		events.MembershipLateFeeWaived: "waived"}[typ]
	t.Helper()
	evs := e.db().Event.Query().Where(event.Type(typ)).AllX(e.op)
	require.Len(t, evs, 1, "one %s", typ)
	require.Equal(t, 1, e.db().WebhookDelivery.Query().Where(webhookdelivery.EventType(typ)).CountX(e.op),
		"one delivery of %s", typ)
	fee := e.db().LateFee.Query().OnlyX(e.op)
	d := evs[0].Payload
	require.Equal(t, fee.ID.String(), d["late_fee_id"], typ)
	require.Equal(t, e.pass.String(), d["pass_id"], typ)
	require.Equal(t, e.mid.String(), d["member_id"], typ)
	require.Equal(t, fee.InvoiceID.String(), d["invoice_id"], typ)
	require.EqualValues(t, 5000, d["amount_minor"], typ)
	require.Equal(t, fee.Currency, d["currency"], typ)
	require.Equal(t, want, d["fee_status"], "the fee's status after the change of %s", typ)
	require.NotContains(t, d, "booking_id", typ)
	return d
}

// requireNoLateFeeEvent requires that no event of typ was recorded.
func (e *lifeEnv) requireNoLateFeeEvent(t *testing.T, typ string) {
	t.Helper()
	require.Zero(t, e.db().Event.Query().Where(event.Type(typ)).CountX(e.op), typ)
	require.Zero(t, e.db().WebhookDelivery.Query().Where(webhookdelivery.EventType(typ)).CountX(e.op), typ)
}

// latePayments counts the payment.succeeded events of late fees.
func (e *lifeEnv) latePayments(t *testing.T) int {
	t.Helper()
	n := 0
	for _, ev := range e.db().Event.Query().Where(event.Type(events.PaymentSucceeded)).AllX(e.op) {
		if _, ok := ev.Payload["late_fee_id"]; ok {
			n++
		}
	}
	return n
}

// TestLateFeeWebhookEvents: the sweep (run twice by lateFeeEnv) records one
// membership.late_fee_applied; the staff's recovery charge pays the renewal
// and the fee and records one membership.late_fee_paid, and replaying that
// request with its key records nothing more; nothing is waived.
func TestLateFeeWebhookEvents(t *testing.T) {
	e, invID := lateFeeHooked(t)
	d := e.lateFeeEvent(t, events.MembershipLateFeeApplied)
	inv := e.db().Invoice.GetX(e.op, invID)
	require.Equal(t, inv.Number, d["invoice_number"])
	require.NotEmpty(t, d["applied_at"])
	e.requireNoLateFeeEvent(t, events.MembershipLateFeePaid)

	e.fake.DeclineRenewals(func(string, int, int) string { return "" })
	key := uuid.NewString()
	charge := func() {
		res, err := e.boss.ChargeAdminRenewalRecovery(e.ctx,
			api.NewOptRenewalRecoveryChargeRequest(api.RenewalRecoveryChargeRequest{ExpectedAmountMinor: api.NewOptInt64(54900)}),
			api.ChargeAdminRenewalRecoveryParams{ID: e.pass, IdempotencyKey: key})
		require.NoError(t, err)
		require.Equal(t, api.RenewalRecoveryChargeResponseDataLateFeeStatusPaid, res.Data.LateFeeStatus.Value)
	}
	charge()
	charge() // the same request again: its answer replayed
	d = e.lateFeeEvent(t, events.MembershipLateFeePaid)
	fee := e.db().LateFee.Query().OnlyX(e.op)
	require.Equal(t, fee.PaymentID.String(), d["payment_id"])
	require.NotEmpty(t, d["payment_intent_id"])
	require.NotEmpty(t, d["paid_at"])
	require.Equal(t, 1, e.latePayments(t))
	e.requireNoLateFeeEvent(t, events.MembershipLateFeeWaived)

	// Another sweep finds the fee: nothing applied again.
	n, err := billing.New(e.svc).ApplyLateFees(e.ctx, e.clock.Now)
	require.NoError(t, err)
	require.Zero(t, n)
	e.lateFeeEvent(t, events.MembershipLateFeeApplied)
}

// TestLateFeeWebhookWaived: a waiver records one membership.late_fee_waived
// (with waived_at, without the staff's reason); waiving again, with the
// same key or a new one, records nothing more, and the fee is never paid.
func TestLateFeeWebhookWaived(t *testing.T) {
	e, _ := lateFeeHooked(t)
	key := uuid.NewString()
	waive := func(key string) error {
		_, err := e.boss.WaiveAdminLateFee(e.ctx, api.NewOptWaiveLateFeeRequest(api.WaiveLateFeeRequest{Reason: api.NewOptString("first time")}),
			api.WaiveAdminLateFeeParams{ID: e.pass, IdempotencyKey: key})
		return err
	}
	require.NoError(t, waive(key))
	require.NoError(t, waive(key), "the same request replays its answer")
	_, code, _ := apiCode(t, waive(uuid.NewString()))
	require.Equal(t, billing.CodeNoPendingLateFee, code)
	require.Equal(t, latefee.StatusWaived, e.db().LateFee.Query().OnlyX(e.op).Status)
	d := e.lateFeeEvent(t, events.MembershipLateFeeWaived)
	require.NotEmpty(t, d["waived_at"])
	require.NotContains(t, d, "reason")
	e.lateFeeEvent(t, events.MembershipLateFeeApplied)
	e.requireNoLateFeeEvent(t, events.MembershipLateFeePaid)
}

// TestLateFeeWebhookAfterStripeRetry: a fee whose automatic charge after
// Stripe's retry (the events delivered twice) is declined records no
// membership.late_fee_paid; the staff's settle whose charge is processing
// records none either; the bank finishing the charge, its events
// delivered twice, records exactly one.
func TestLateFeeWebhookAfterStripeRetry(t *testing.T) {
	e, invID := lateFeeHooked(t)
	evs := e.stripeRetryPays(t, invID)
	e.fake.Script(stripetest.Outcome{Decline: "insufficient_funds"})
	e.postAll(t, append(evs, evs...))
	require.Equal(t, latefee.StatusPending, e.db().LateFee.Query().OnlyX(e.op).Status)
	e.requireNoLateFeeEvent(t, events.MembershipLateFeePaid)

	e.fake.ProcessSlowly("pm_bill")
	res, err := e.settleFee(e.boss, e.pass, uuid.NewString())
	require.NoError(t, err)
	require.Equal(t, "processing", string(res.Data.ChargeStatus))
	e.requireNoLateFeeEvent(t, events.MembershipLateFeePaid)

	done := append(e.fake.TakeEvents(), e.fake.FinishPayment(true)...)
	e.postAll(t, done)
	e.postAll(t, done)
	require.Equal(t, latefee.StatusPaid, e.db().LateFee.Query().OnlyX(e.op).Status)
	d := e.lateFeeEvent(t, events.MembershipLateFeePaid)
	require.Equal(t, e.db().LateFee.Query().OnlyX(e.op).PaymentID.String(), d["payment_id"])
	require.Equal(t, 1, e.latePayments(t))
	_, err = e.settleFee(e.boss, e.pass, uuid.NewString())
	_, code, _ := apiCode(t, err)
	require.Equal(t, billing.CodeNoPendingLateFee, code)
	e.lateFeeEvent(t, events.MembershipLateFeePaid)
}

// TestLateFeeWebhookAutoCharge: a renewal Stripe's retry pays has its fee
// charged right after; the events delivered out of order and twice record
// one membership.late_fee_paid.
func TestLateFeeWebhookAutoCharge(t *testing.T) {
	e, invID := lateFeeHooked(t)
	evs := e.stripeRetryPays(t, invID)
	rev := make([]stripetest.SignedEvent, 0, 2*len(evs))
	for i := len(evs) - 1; i >= 0; i-- {
		rev = append(rev, evs[i], evs[i])
	}
	e.postAll(t, rev)
	require.Equal(t, latefee.StatusPaid, e.db().LateFee.Query().OnlyX(e.op).Status)
	e.lateFeeEvent(t, events.MembershipLateFeePaid)
	require.Equal(t, 1, e.latePayments(t))
}
