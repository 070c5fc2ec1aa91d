package handlers_test

import (
	"net/http"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/venueplatform/venue/ent/payment"
	api "github.com/venueplatform/venue/internal/gen/api"
)

// TestPartiallyPaidInvoice: staff record part of a declined renewal as paid
// in cash: the invoice is partially_paid with amount_paid, Stripe's invoice
// owes only the rest (a credit note), the pass is not rolled on, the
// member's outstanding payments show the rest, more than the rest is
// refused and changes nothing, and the member's retry charges the rest
// only: the invoice's payments sum to its total.
func TestPartiallyPaidInvoice(t *testing.T) {
	e := newBillEnv(t)
	inv := e.renew(t, true)
	require.NotNil(t, inv.ProcessorInvoiceID)

	res, err := e.staff.SettleAdminInvoiceExternally(e.ctx, &api.AdminInvoiceSettleRequest{
		Method: api.AdminInvoiceSettleRequestMethodCash, AmountMinor: 20000, Note: api.NewOptString("half in cash")},
		api.SettleAdminInvoiceExternallyParams{ID: inv.ID, IdempotencyKey: "p-1"})
	got := invoiceAnswer(t, res, err)
	require.Equal(t, api.InvoiceDetailStatusPartiallyPaid, got.Data.Status)
	row := e.db().Invoice.GetX(e.op, inv.ID)
	require.Equal(t, int64(20000), row.AmountPaidMinor)
	require.Equal(t, int64(29900), e.fake.InvoiceAmountDue(*row.ProcessorInvoiceID), "Stripe owes only the rest")
	require.Equal(t, "past_due", string(e.db().Pass.GetX(e.op, e.pass).Status), "the period is not paid yet")

	out, err := e.member.GetMyOutstandingPayments(e.ctx, api.GetMyOutstandingPaymentsParams{XOrganizationID: e.venue.ID})
	require.NoError(t, err)
	require.Len(t, out.Data.Items, 1)
	require.Equal(t, int64(29900), out.Data.Items[0].AmountMinor)
	require.Equal(t, "partially_paid", out.Data.Items[0].Status)
	require.Equal(t, int64(29900), out.Data.Totals[0].AmountMinor)

	st, b := e.rawPost(t, "/admin/billing/invoices/"+inv.ID.String()+"/settle-externally", `{"method":"cash","amount_minor":29901}`)
	require.Equal(t, http.StatusBadRequest, st, b)
	require.Equal(t, int64(20000), e.db().Invoice.GetX(e.op, inv.ID).AmountPaidMinor, "nothing changed")

	e.fake.DeclineRenewals(func(string, int, int) string { return "" })
	_, err = e.member.RetryMyInvoice(e.ctx, api.NewOptInvoiceRetryRequest(api.InvoiceRetryRequest{ExpectedAmountMinor: api.NewOptInt64(29900)}),
		api.RetryMyInvoiceParams{ID: inv.ID, XOrganizationID: e.venue.ID})
	require.NoError(t, err)
	row = e.db().Invoice.GetX(e.op, inv.ID)
	require.Equal(t, "paid", string(row.Status))
	require.Equal(t, row.TotalMinor, row.AmountPaidMinor)
	require.Equal(t, "active", string(e.db().Pass.GetX(e.op, e.pass).Status))
	pays := e.db().Payment.Query().Where(payment.PassID(e.pass), payment.StatusEQ(payment.StatusSucceeded),
		payment.KindEQ(payment.KindRenewal)).AllX(e.op)
	var sum int64
	amounts := []int64{}
	for _, p := range pays {
		sum += p.AmountMinor
		amounts = append(amounts, p.AmountMinor)
	}
	require.ElementsMatch(t, []int64{20000, 29900}, amounts, "the cash part and the card charge of the rest")
	require.Equal(t, row.TotalMinor, sum)
}
