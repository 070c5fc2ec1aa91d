package handlers_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/venueplatform/venue/ent/invoice"
	"github.com/venueplatform/venue/ent/notificationdelivery"
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
	told := e.db().NotificationDelivery.Query().Where(notificationdelivery.Kind("renewal_action_required"),
		notificationdelivery.MemberID(inv.MemberID)).CountX(e.op)
	require.Equal(t, 1, told, "the member is told once")

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
