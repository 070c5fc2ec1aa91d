package handlers_test

import (
	"context"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/stretchr/testify/require"

	"github.com/venueplatform/venue/ent/invoice"
	"github.com/venueplatform/venue/ent/latefee"
	"github.com/venueplatform/venue/ent/notificationdelivery"
	"github.com/venueplatform/venue/ent/pass"
	"github.com/venueplatform/venue/internal/billing"
	api "github.com/venueplatform/venue/internal/gen/api"
)

// TestRenewalNeedsAuthenticationTellsMember: a renewal whose card asks the
// member to authenticate leaves the invoice open; Stripe's
// invoice.payment_action_required, delivered twice, tells the member once;
// the invoice is an outstanding item the member can pay; the member's
// retry answers requires_action and, once they authenticate, the invoice
// is paid once.
func TestRenewalNeedsAuthenticationTellsMember(t *testing.T) {
	e := newLifeEnv(t)
	e.fake.RequireAuthentication("pm_bill")
	paid := e.renewalPayments(t)
	inv := e.renew(t, false)
	evs := e.fake.TakeEvents()
	e.postAll(t, evs)
	e.postAll(t, evs) // Stripe posts again
	e.requireUnpaid(t, inv.ID, paid)
	told := e.db().NotificationDelivery.Query().Where(notificationdelivery.Kind(billing.KindRenewalActionRequired),
		notificationdelivery.MemberID(inv.MemberID)).AllX(e.op)
	require.Len(t, told, 1, "the member is told once")
	require.Equal(t, notificationdelivery.ChannelEmail, told[0].Channel)
	require.Equal(t, notificationdelivery.StatusPending, told[0].Status, "queued to be sent")

	out, err := e.member.GetMyOutstandingPayments(e.ctx, api.GetMyOutstandingPaymentsParams{XOrganizationID: e.venue.ID})
	require.NoError(t, err)
	found := false
	for _, it := range out.Data.Items {
		if it.ID == inv.ID {
			found = true
			require.Equal(t, api.OutstandingActionTypeRetryInvoice, it.Action.Type)
			require.Equal(t, api.OutstandingItemKindMembershipRenewal, it.Kind)
			require.Equal(t, "authentication_required", it.FailureCode.Value)
			require.True(t, it.NextStep.Null, "no card to update: the retry asks to authenticate")
		}
	}
	require.True(t, found, "the open renewal is outstanding")

	res, err := e.memberRetry(inv.ID)
	require.NoError(t, err)
	require.Equal(t, api.InvoiceRetryResultStatusRequiresAction, res.Data.Status)
	intent := res.Data.PaymentIntentID.Value
	require.Equal(t, intent+"_secret_fake", res.Data.ClientSecret.Value)
	evs = append(e.fake.TakeEvents(), e.fake.FinishPayment(true)...)
	require.Equal(t, "paid", string(e.confirm(t, inv.ID, intent).Status))
	e.postAll(t, evs)
	require.Equal(t, invoice.StatusPaid, e.db().Invoice.GetX(e.op, inv.ID).Status)
	require.Equal(t, paid+1, e.renewalPayments(t), "paid once")
}

// outstandingItem is the member's outstanding item of the invoice (nil when none).
func (e *lifeEnv) outstandingItem(t *testing.T, id uuid.UUID) *api.OutstandingItem {
	t.Helper()
	out, err := e.member.GetMyOutstandingPayments(e.ctx, api.GetMyOutstandingPaymentsParams{XOrganizationID: e.venue.ID})
	require.NoError(t, err)
	for i := range out.Data.Items {
		if out.Data.Items[i].ID == id {
			return &out.Data.Items[i]
		}
	}
	return nil
}

// TestRenewalAuthenticationNoticeFollowsPreferences: the notice that a
// renewal asks to authenticate goes through the member's rules, as the
// declined renewal's does: a member who switched payment e-mails off gets
// no e-mail (one skipped row, user_opted_out, so Stripe's second delivery
// writes nothing more), and the renewal is still their outstanding item.
func TestRenewalAuthenticationNoticeFollowsPreferences(t *testing.T) {
	e := newLifeEnv(t)
	_, err := e.member.UpdateMyNotificationPreferences(e.ctx, &api.MeNotificationPreferencesPatch{
		Categories: api.NewOptMeNotificationPreferencesPatchCategories(map[string]api.MeNotificationCategoryPatch{
			"payments": {Email: api.NewOptBool(false)}})},
		api.UpdateMyNotificationPreferencesParams{IdempotencyKey: uuid.NewString()})
	require.NoError(t, err)
	e.fake.RequireAuthentication("pm_bill")
	inv := e.renew(t, false)
	evs := e.fake.TakeEvents()
	e.postAll(t, evs)
	e.postAll(t, evs)

	rows := e.db().NotificationDelivery.Query().Where(notificationdelivery.Kind(billing.KindRenewalActionRequired),
		notificationdelivery.MemberID(inv.MemberID)).AllX(e.op)
	require.Len(t, rows, 1, "one record, not one per delivery of the event")
	require.Equal(t, notificationdelivery.StatusSkipped, rows[0].Status, "no e-mail")
	require.Equal(t, "user_opted_out", *rows[0].StatusReason)

	it := e.outstandingItem(t, inv.ID)
	require.NotNil(t, it, "the open renewal is still outstanding")
	require.Equal(t, "authentication_required", it.FailureCode.Value)
	require.Equal(t, api.OutstandingActionTypeRetryInvoice, it.Action.Type)
}

// TestRenewalAuthenticationIsNotADecline: a renewal whose card asks to
// authenticate is outstanding but is not a declined charge: it is not in
// the member's or the staff's failed payments, counts no attempt, leaves
// the pass active, records no membership.renewal_failed, and the late fee
// sweep within the grace days adds no fee (the fee follows the due date,
// not the authentication request).
func TestRenewalAuthenticationIsNotADecline(t *testing.T) {
	e := newLifeEnv(t)
	_, err := e.boss.SetAdminLateFeePolicy(e.ctx, &api.LateFeePolicyRequest{AmountMinor: 5000, GraceDays: 3},
		api.SetAdminLateFeePolicyParams{Currency: e.ten.Currency, IdempotencyKey: uuid.NewString()})
	require.NoError(t, err)
	failed := e.eventCount(t, "membership.renewal_failed")
	e.fake.RequireAuthentication("pm_bill")
	inv := e.renew(t, false)
	e.postAll(t, e.fake.TakeEvents())

	row := e.db().Invoice.GetX(e.op, inv.ID)
	require.NotNil(t, row.FailedAt)
	require.Equal(t, billing.AuthenticationRequired, *row.FailureCode)
	require.Equal(t, 0, row.AttemptCount, "not a declined attempt")
	require.NotEqual(t, invoice.StatusOverdue, row.Status)
	require.Equal(t, pass.StatusActive, e.db().Pass.GetX(e.op, e.pass).Status, "not past due")
	require.Equal(t, failed, e.eventCount(t, "membership.renewal_failed"))
	require.NotNil(t, e.outstandingItem(t, inv.ID))

	mine, err := e.member.ListMyFailedPayments(e.ctx, api.ListMyFailedPaymentsParams{XOrganizationID: e.venue.ID})
	require.NoError(t, err)
	for _, f := range mine.Data {
		require.NotEqual(t, api.NewNilUUID(inv.ID), f.InvoiceID, "not a declined charge of the member")
	}
	staff, err := e.staff.ListAdminFailedPayments(e.ctx, api.ListAdminFailedPaymentsParams{})
	require.NoError(t, err)
	for _, f := range staff.Data {
		require.NotEqual(t, api.NewNilUUID(inv.ID), f.InvoiceID, "not in the staff's failed payments")
	}

	n, err := billing.New(e.svc).ApplyLateFees(context.Background(), e.clock.Now.Add(24*time.Hour))
	require.NoError(t, err)
	require.Zero(t, n)
	require.Zero(t, e.db().LateFee.Query().Where(latefee.InvoiceID(inv.ID)).CountX(e.op), "no late fee")
}
