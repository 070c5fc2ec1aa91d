package handlers_test

import (
	"net/http"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/venueplatform/venue/ent"
	"github.com/venueplatform/venue/ent/invoice"
	"github.com/venueplatform/venue/ent/payment"
	"github.com/venueplatform/venue/ent/paymentattempt"
	"github.com/venueplatform/venue/ent/subscription"
	"github.com/venueplatform/venue/internal/billing"
	api "github.com/venueplatform/venue/internal/gen/api"
)

// asSwept marks attempt at unknown, as the payments sweep does with an
// attempt left in flight past payments.StaleAfter.
func (e *lifeEnv) asSwept(t *testing.T, at *ent.PaymentAttempt) {
	t.Helper()
	require.Equal(t, paymentattempt.StateInFlight, at.State)
	e.db().PaymentAttempt.UpdateOneID(at.ID).SetState(paymentattempt.StateUnknown).ExecX(e.op)
}

// TestReconcileBillingWrites: a subscription creation and an invoice
// payment whose answers the fake Stripe dropped (it made them) are settled
// by the reconcile reading the subscription or the invoice: our row takes
// the subscription Stripe made, without a second one; the invoice is paid
// once in our rows, without a second charge, and retries meanwhile are
// refused with RECONCILIATION_REQUIRED and charge nothing.
func TestReconcileBillingWrites(t *testing.T) {
	e := newLifeEnv(t)

	// A subscription creation whose answer was lost.
	p := e.pendingSetup(t, false)
	made := len(e.fake.Subscriptions())
	e.fake.DropSubscriptionCreates(10)
	_, err := billing.New(e.svc).Start(e.op, p.ID)
	require.Error(t, err)
	e.fake.DropSubscriptionCreates(0)
	require.Equal(t, made+1, len(e.fake.Subscriptions()), "Stripe made it")
	sub := e.db().Subscription.Query().Where(subscription.PassID(p.ID)).OnlyX(e.op)
	require.Nil(t, sub.ProcessorSubscriptionID)
	at := e.db().PaymentAttempt.Query().Where(paymentattempt.SubjectID(sub.ID),
		paymentattempt.PurposeEQ(paymentattempt.PurposeSubscriptionCreate)).OnlyX(e.op)
	e.asSwept(t, at)
	require.NoError(t, e.svc.Reconcile(e.op, at.ID))
	sub = e.db().Subscription.GetX(e.op, sub.ID)
	require.NotNil(t, sub.ProcessorSubscriptionID)
	require.Equal(t, e.fake.Subscriptions()[made], *sub.ProcessorSubscriptionID)
	require.Equal(t, made+1, len(e.fake.Subscriptions()), "no second subscription")
	at = e.db().PaymentAttempt.GetX(e.op, at.ID)
	require.Equal(t, paymentattempt.StateSucceeded, at.State)
	require.Equal(t, *sub.ProcessorSubscriptionID, *at.ProcessorObjectID)

	// An invoice payment whose answer was lost.
	org := e.venue.ID
	inv := e.renew(t, true)
	require.NotEqual(t, invoice.StatusPaid, inv.Status)
	e.fake.DeclineRenewals(nil)
	charges := e.fake.InvoiceCharges()
	e.fake.DropInvoicePays(10)
	_, err = e.member.RetryMyInvoice(e.ctx, api.NewOptInvoiceRetryRequest(api.InvoiceRetryRequest{ExpectedAmountMinor: api.NewOptInt64(inv.TotalMinor)}),
		api.RetryMyInvoiceParams{ID: inv.ID, XOrganizationID: org})
	requireCode(t, err, http.StatusConflict, "UNKNOWN_WRITE_OUTCOME")
	e.fake.DropInvoicePays(0)
	require.Equal(t, charges+1, e.fake.InvoiceCharges(), "Stripe charged it")
	require.NotEqual(t, invoice.StatusPaid, e.db().Invoice.GetX(e.op, inv.ID).Status)
	pay := e.db().PaymentAttempt.Query().Where(paymentattempt.SubjectID(inv.ID),
		paymentattempt.PurposeEQ(paymentattempt.PurposeInvoicePay)).OnlyX(e.op)
	e.asSwept(t, pay)
	_, err = e.member.RetryMyInvoice(e.ctx, api.OptInvoiceRetryRequest{}, api.RetryMyInvoiceParams{ID: inv.ID, XOrganizationID: org})
	requireCode(t, err, http.StatusConflict, "RECONCILIATION_REQUIRED")
	require.Equal(t, charges+1, e.fake.InvoiceCharges())

	renewals := func() int {
		return e.db().Payment.Query().Where(payment.KindEQ(payment.KindRenewal), payment.PassID(e.pass)).CountX(e.op)
	}
	paid := renewals()
	require.NoError(t, e.svc.Reconcile(e.op, pay.ID))
	require.Equal(t, invoice.StatusPaid, e.db().Invoice.GetX(e.op, inv.ID).Status)
	require.Equal(t, paymentattempt.StateSucceeded, e.db().PaymentAttempt.GetX(e.op, pay.ID).State)
	require.Equal(t, charges+1, e.fake.InvoiceCharges(), "no second charge")
	require.Equal(t, paid+1, renewals(), "one payment row")
	require.NoError(t, e.svc.Reconcile(e.op, pay.ID), "a settled attempt is left alone")
	require.Equal(t, paid+1, renewals())

	_, err = e.member.RetryMyInvoice(e.ctx, api.OptInvoiceRetryRequest{}, api.RetryMyInvoiceParams{ID: inv.ID, XOrganizationID: org})
	requireCode(t, err, http.StatusUnprocessableEntity, "ALREADY_PAID")
}
