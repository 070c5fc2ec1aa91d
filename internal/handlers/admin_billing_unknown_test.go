package handlers_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/require"

	api "github.com/venueplatform/venue/internal/gen/api"
)

// invoiceAnswer is the invoice of a settle-externally or comp answer that
// must be the 200 (not the typed 409).
func invoiceAnswer(t *testing.T, res any, err error) *api.InvoiceDetailResponse {
	t.Helper()
	require.NoError(t, err)
	out, ok := res.(*api.InvoiceDetailResponse)
	require.True(t, ok, "want the invoice, got %T %+v", res, res)
	return out
}

// requireUnknownAnswer: res is the typed 409 UNKNOWN_WRITE_OUTCOME answer
// the operation names in the OpenAPI document (write_state unknown).
func requireUnknownAnswer(t *testing.T, res any, err error) {
	t.Helper()
	require.NoError(t, err, "the 409 is a declared answer, not an error")
	lost, ok := res.(*api.ErrorResponse)
	require.True(t, ok, "want the typed 409, got %T", res)
	require.Equal(t, "UNKNOWN_WRITE_OUTCOME", lost.Error.Code)
	require.NotEmpty(t, lost.Error.Details.RequestID)
	require.JSONEq(t, `"unknown"`, string(lost.Error.Details.AdditionalProps["write_state"]))
}

// TestSettleAndCompLostAnswerIsTyped: the failed-renewal settlement and
// comp name 409 UNKNOWN_WRITE_OUTCOME in the OpenAPI document; when Stripe's
// answer to the invoice's out-of-band payment is lost, the generated client
// reads it as that declared answer (not an undeclared error), and Stripe's
// event then records the settlement once.
func TestSettleAndCompLostAnswerIsTyped(t *testing.T) {
	e := newLifeEnv(t)
	inv := e.renew(t, true)
	e.fake.DropInvoicePays(10)
	res, err := e.staff.SettleAdminInvoiceExternally(e.ctx, &api.AdminInvoiceSettleRequest{
		Method: api.AdminInvoiceSettleRequestMethodCash, AmountMinor: inv.TotalMinor - inv.AmountPaidMinor},
		api.SettleAdminInvoiceExternallyParams{ID: inv.ID, IdempotencyKey: "lost-s"})
	requireUnknownAnswer(t, res, err)
	e.fake.DropInvoicePays(0)
	_, err = e.clock.Deliver(context.Background())
	require.NoError(t, err)
	require.Equal(t, "paid", string(e.db().Invoice.GetX(e.op, inv.ID).Status), "Stripe's event records it")

	inv2 := e.renew(t, true)
	require.NotEqual(t, inv.ID, inv2.ID)
	e.fake.DropInvoicePays(10)
	cres, err := e.staff.CompAdminInvoice(e.ctx, &api.AdminInvoiceCompRequest{Reason: "injury"},
		api.CompAdminInvoiceParams{ID: inv2.ID, IdempotencyKey: "lost-c"})
	requireUnknownAnswer(t, cres, err)
	e.fake.DropInvoicePays(0)
}
