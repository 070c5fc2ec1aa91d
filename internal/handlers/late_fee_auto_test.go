package handlers_test

import (
	"context"
	"net/http"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/stretchr/testify/require"

	"github.com/venueplatform/venue/ent/invoice"
	"github.com/venueplatform/venue/ent/latefee"
	"github.com/venueplatform/venue/ent/notificationdelivery"
	"github.com/venueplatform/venue/ent/payment"
	"github.com/venueplatform/venue/ent/paymentattempt"
	"github.com/venueplatform/venue/internal/billing"
	api "github.com/venueplatform/venue/internal/gen/api"
	"github.com/venueplatform/venue/internal/payments/stripetest"
)

// stripeRetryPays moves the fake Stripe past its next automatic retry of
// the declined renewal, now paid, and returns the events it made, without
// delivering them.
func (e *lifeEnv) stripeRetryPays(t *testing.T, inv uuid.UUID) []stripetest.SignedEvent {
	t.Helper()
	e.fake.DeclineRenewals(func(string, int, int) string { return "" })
	row := e.db().Invoice.GetX(e.op, inv)
	e.clock.Now = row.DueDate.Add(7*24*time.Hour + time.Hour)
	evs := e.fake.Advance(e.clock.Now)
	require.NotEmpty(t, evs)
	return evs
}

// postAll posts events to the server's Stripe endpoint in the order given
// and works the event jobs they queued.
func (e *lifeEnv) postAll(t *testing.T, evs []stripetest.SignedEvent) {
	t.Helper()
	for _, ev := range evs {
		require.Equal(t, http.StatusOK, e.postEvent(t, ev.Body, ev.Signature))
	}
	e.runEventJobs(t)
}

// feeAttempts counts the late fee charge attempts of the venue.
func (e *lifeEnv) feeAttempts(t *testing.T) int {
	t.Helper()
	return e.db().PaymentAttempt.Query().Where(paymentattempt.PurposeEQ(paymentattempt.PurposeLateFeeCharge)).CountX(e.op)
}

// paidAgain is a second, distinct event of the paid invoice (Stripe sends
// invoice.updated beside invoice.paid): a new event id that reaches the
// handler.
func (e *lifeEnv) paidAgain(t *testing.T, inv uuid.UUID, id string) stripetest.SignedEvent {
	t.Helper()
	row := e.db().Invoice.GetX(e.op, inv)
	obj := e.fake.InvoiceObject(*row.ProcessorInvoiceID)
	require.NotNil(t, obj)
	body, sig := stripetest.Event(id, "invoice.updated", payAccount, obj, paySecret)
	return stripetest.SignedEvent{ID: id, Type: "invoice.updated", Body: body, Signature: sig}
}

// TestLateFeeAfterStripeRetry: a renewal with a pending late fee that
// Stripe's own automatic retry pays gets its fee charged right after, once:
// the events posted to the inbound endpoint out of order and twice, and
// another event of the paid invoice later, make one late_fee_charge attempt
// and one fee payment; the member was told of the fee when it was added
// (one e-mail in the outbox, push skipped without a device).
func TestLateFeeAfterStripeRetry(t *testing.T) {
	e, invID := lateFeeEnv(t)

	// The member was told when the fee was added, once.
	rows := e.db().NotificationDelivery.Query().Where(notificationdelivery.Kind(billing.KindLateFeeAdded)).AllX(e.op)
	require.Len(t, rows, 2, "one row per channel")
	for _, r := range rows {
		require.Equal(t, e.mid, *r.MemberID)
		switch r.Channel {
		case notificationdelivery.ChannelEmail:
			require.Equal(t, notificationdelivery.StatusPending, r.Status)
			require.Equal(t, "buyer@pay.example", r.Address)
			require.Contains(t, r.Body, "late fee")
			require.Equal(t, invID.String(), r.Data["invoice_id"])
		case notificationdelivery.ChannelPush:
			require.Equal(t, notificationdelivery.StatusSkipped, r.Status, "no push device")
		default:
			t.Fatalf("unexpected channel %s", r.Channel)
		}
	}

	intents := len(e.fake.Intents())
	evs := e.stripeRetryPays(t, invID)
	// Out of order and twice: Stripe delivers at least once, in any order.
	rev := make([]stripetest.SignedEvent, 0, 2*len(evs))
	for i := len(evs) - 1; i >= 0; i-- {
		rev = append(rev, evs[i], evs[i])
	}
	e.postAll(t, rev)

	db := e.db()
	require.Equal(t, invoice.StatusPaid, db.Invoice.GetX(e.op, invID).Status)
	fee := db.LateFee.Query().OnlyX(e.op)
	require.Equal(t, latefee.StatusPaid, fee.Status, "the fee follows the renewal Stripe paid")
	require.NotNil(t, fee.PaymentID)
	feePay := db.Payment.GetX(e.op, *fee.PaymentID)
	require.Equal(t, payment.KindFee, feePay.Kind)
	require.Equal(t, payment.StatusSucceeded, feePay.Status)
	require.Equal(t, int64(5000), feePay.AmountMinor)
	require.Len(t, e.fake.Intents(), intents+1, "the fee is one card charge")
	require.Equal(t, 1, e.feeAttempts(t))

	// Later events of the paid invoice and the same events again change nothing.
	e.postAll(t, append(evs, e.paidAgain(t, invID, "evt_paid_again")))
	require.Len(t, e.fake.Intents(), intents+1)
	require.Equal(t, 1, e.feeAttempts(t))
	require.Equal(t, 1, db.Payment.Query().Where(payment.KindEQ(payment.KindFee)).CountX(e.op))
	require.Equal(t, 2, db.NotificationDelivery.Query().Where(notificationdelivery.Kind(billing.KindLateFeeAdded)).CountX(e.op),
		"the fee is told once")

	got, err := e.staff.GetAdminRenewalRecovery(e.ctx, api.GetAdminRenewalRecoveryParams{ID: e.pass})
	require.NoError(t, err)
	require.True(t, got.Data.LateFee.IsNull())
	require.True(t, got.Data.Invoice.IsNull())
}

// TestLateFeeAfterStripeRetryDeclined: the fee's automatic charge after
// Stripe's retry is declined: the renewal stays paid, the fee pending (the
// recovery read shows it), and a later event of the paid invoice does not
// try the card again; the staff's recovery charge then takes the fee alone.
func TestLateFeeAfterStripeRetryDeclined(t *testing.T) {
	e, invID := lateFeeEnv(t)
	evs := e.stripeRetryPays(t, invID)
	e.fake.Script(stripetest.Outcome{Decline: "insufficient_funds"})
	e.postAll(t, evs)

	db := e.db()
	require.Equal(t, invoice.StatusPaid, db.Invoice.GetX(e.op, invID).Status)
	require.Equal(t, latefee.StatusPending, db.LateFee.Query().OnlyX(e.op).Status)
	require.Equal(t, 1, e.feeAttempts(t))
	intents := len(e.fake.Intents())

	e.postAll(t, []stripetest.SignedEvent{e.paidAgain(t, invID, "evt_paid_again_2")})
	require.Equal(t, 1, e.feeAttempts(t), "one automatic try per fee")
	require.Len(t, e.fake.Intents(), intents)

	got, err := e.staff.GetAdminRenewalRecovery(e.ctx, api.GetAdminRenewalRecoveryParams{ID: e.pass})
	require.NoError(t, err)
	require.False(t, got.Data.LateFee.IsNull())
	require.Equal(t, int64(5000), got.Data.AmountDueMinor)

	res, err := e.boss.ChargeAdminRenewalRecovery(e.ctx,
		api.NewOptRenewalRecoveryChargeRequest(api.RenewalRecoveryChargeRequest{ExpectedAmountMinor: api.NewOptInt64(5000)}),
		api.ChargeAdminRenewalRecoveryParams{ID: e.pass, IdempotencyKey: uuid.NewString()})
	require.NoError(t, err)
	require.Equal(t, api.RenewalRecoveryChargeResponseDataLateFeeStatusPaid, res.Data.LateFeeStatus.Value)
	require.Equal(t, latefee.StatusPaid, db.LateFee.Query().OnlyX(e.op).Status)
	require.Equal(t, 1, db.Payment.Query().Where(payment.KindEQ(payment.KindFee), payment.StatusEQ(payment.StatusSucceeded)).CountX(e.op))
}

// TestLateFeeNoticeFollowsPreferences: a member who switched payment
// e-mails off is not e-mailed about the fee; the outbox records the skip
// with its reason, and the fee is still applied.
func TestLateFeeNoticeFollowsPreferences(t *testing.T) {
	e := newLifeEnv(t)
	_, err := e.member.UpdateMyNotificationPreferences(e.ctx, &api.MeNotificationPreferencesPatch{
		Categories: api.NewOptMeNotificationPreferencesPatchCategories(map[string]api.MeNotificationCategoryPatch{
			"payments": {Email: api.NewOptBool(false)}})},
		api.UpdateMyNotificationPreferencesParams{IdempotencyKey: uuid.NewString()})
	require.NoError(t, err)
	_, err = e.boss.SetAdminLateFeePolicy(e.ctx, &api.LateFeePolicyRequest{AmountMinor: 5000, GraceDays: 0},
		api.SetAdminLateFeePolicyParams{Currency: e.ten.Currency, IdempotencyKey: uuid.NewString()})
	require.NoError(t, err)
	inv := e.renew(t, true)
	_, err = e.clock.Advance(context.Background(), inv.DueDate.Add(24*time.Hour+time.Hour))
	require.NoError(t, err)
	n, err := billing.New(e.svc).ApplyLateFees(context.Background(), e.clock.Now)
	require.NoError(t, err)
	require.Equal(t, 1, n)

	mail := e.db().NotificationDelivery.Query().Where(notificationdelivery.Kind(billing.KindLateFeeAdded),
		notificationdelivery.ChannelEQ(notificationdelivery.ChannelEmail)).OnlyX(e.op)
	require.Equal(t, notificationdelivery.StatusSkipped, mail.Status)
	require.Equal(t, "user_opted_out", *mail.StatusReason)
}
