package handlers_test

import (
	"testing"

	"github.com/google/uuid"
	"github.com/stretchr/testify/require"

	"github.com/venueplatform/venue/ent/invoice"
	"github.com/venueplatform/venue/ent/latefee"
	api "github.com/venueplatform/venue/internal/gen/api"
	"github.com/venueplatform/venue/internal/payments/stripetest"
)

// declinedLateFee is a lateFeeEnv whose renewal Stripe's retry paid and
// whose automatic late fee charge after it was declined (insufficient
// funds): the renewal is paid, the fee pending. It returns the fee's id.
func declinedLateFee(t *testing.T) (*lifeEnv, uuid.UUID) {
	t.Helper()
	e, invID := lateFeeEnv(t)
	evs := e.stripeRetryPays(t, invID)
	e.fake.Script(stripetest.Outcome{Decline: "insufficient_funds"})
	e.postAll(t, evs)
	require.Equal(t, invoice.StatusPaid, e.db().Invoice.GetX(e.op, invID).Status)
	fee := e.db().LateFee.Query().OnlyX(e.op)
	require.Equal(t, latefee.StatusPending, fee.Status)
	return e, fee.ID
}

func (e *lifeEnv) outstanding(t *testing.T) api.OutstandingPaymentsResponseData {
	t.Helper()
	res, err := e.member.GetMyOutstandingPayments(e.ctx, api.GetMyOutstandingPaymentsParams{XOrganizationID: e.venue.ID})
	require.NoError(t, err)
	return res.Data
}

func (e *lifeEnv) failedPayments(t *testing.T) []api.FailedPayment {
	t.Helper()
	res, err := e.member.ListMyFailedPayments(e.ctx, api.ListMyFailedPaymentsParams{XOrganizationID: e.venue.ID})
	require.NoError(t, err)
	return res.Data
}

// requireDeclinedFeeItem checks the member's outstanding list is the one
// declined late fee, every field of the contract's item shape.
func requireDeclinedFeeItem(t *testing.T, e *lifeEnv, feeID uuid.UUID) {
	t.Helper()
	fee := e.db().LateFee.GetX(e.op, feeID)
	inv := e.db().Invoice.GetX(e.op, fee.InvoiceID)
	out := e.outstanding(t)
	require.Equal(t, 1, out.Count)
	require.Len(t, out.Items, 1)
	require.Equal(t, []api.OutstandingTotal{{Currency: fee.Currency, Amount: 50, AmountMinor: 5000, Count: 1}}, out.Totals)
	it := out.Items[0]
	require.Equal(t, api.OutstandingItemKindDeclinedOneOffCharge, it.Kind)
	require.Equal(t, feeID, it.ID)
	require.True(t, it.PaymentID.IsNull())
	require.Equal(t, "late_fee_pending", it.StateKey)
	require.Equal(t, e.venue.ID, it.OrganizationID)
	require.Equal(t, "Late fee for invoice "+inv.Number, it.Title)
	require.Equal(t, "pending", it.Status)
	require.Equal(t, 50.0, it.Amount)
	require.Equal(t, int64(5000), it.AmountMinor)
	require.Equal(t, fee.Currency, it.Currency)
	require.False(t, it.FailedAt.IsNull())
	require.Equal(t, fee.AppliedAt.UTC().Format("2006-01-02"), it.DueDate.Format("2006-01-02"))
	require.GreaterOrEqual(t, it.DaysOverdue, 0)
	require.Equal(t, "card_declined", it.FailureCode.Value)
	require.Equal(t, "The card was declined.", it.FailureMessage.Value)
	require.Equal(t, "insufficient_funds", it.DeclineCode.Value)
	require.Equal(t, api.OutstandingItemNextStepContactVenue, it.NextStep.Value)
	require.Equal(t, inv.Number, it.InvoiceNumber.Value)
	require.Equal(t, 50.0, it.LateFeeAmount.Value)
	require.True(t, it.NextBillingDate.IsNull())
	require.Equal(t, api.OutstandingActionTypeUpdatePaymentMethod, it.Action.Type)
	require.Equal(t, "POST", it.Action.Method)
	require.Equal(t, "/api/v1/me/payment-methods", it.Action.Path)
	require.True(t, it.Action.ConfirmPath.IsNull())
	require.False(t, it.Action.AcceptsPaymentMethodID)
	require.Equal(t, "/api/v1/me/payment-methods", it.Action.PaymentMethodsPath)
	require.NotNil(t, it.CardsOnFile, "the member's cards are read")
}

// requireFeeDecline checks the member's failed payments hold the fee's
// declined charge with next_step want (nil: null).
func requireFeeDecline(t *testing.T, e *lifeEnv, feeID uuid.UUID, want *api.FailedPaymentNextStep) {
	t.Helper()
	fee := e.db().LateFee.GetX(e.op, feeID)
	var found *api.FailedPayment
	for _, r := range e.failedPayments(t) {
		if r.AmountMinor == 5000 && r.InvoiceID.Value == fee.InvoiceID {
			found = &r
		}
	}
	require.NotNil(t, found, "the declined fee charge is a failed payment")
	require.Equal(t, "insufficient_funds", found.DeclineCode.Value)
	require.Equal(t, *fee.PassID, found.PassID.Value)
	if want == nil {
		require.True(t, found.NextStep.IsNull())
	} else {
		require.Equal(t, *want, found.NextStep.Value)
	}
}

// TestDeclinedLateFeeWaived: the automatic late fee charge after Stripe's
// retry is declined: the member's outstanding payments show the fee (an
// item of its own, the renewal being paid) and the failed payments its
// declined charge; once staff waive it, it leaves the outstanding list and
// the failed payment no longer asks for anything.
func TestDeclinedLateFeeWaived(t *testing.T) {
	e, feeID := declinedLateFee(t)
	requireDeclinedFeeItem(t, e, feeID)
	contact := api.FailedPaymentNextStepContactVenue
	requireFeeDecline(t, e, feeID, &contact)

	_, err := e.boss.WaiveAdminLateFee(e.ctx, api.OptWaiveLateFeeRequest{},
		api.WaiveAdminLateFeeParams{ID: e.pass, IdempotencyKey: uuid.NewString()})
	require.NoError(t, err)
	out := e.outstanding(t)
	require.Zero(t, out.Count)
	require.Empty(t, out.Items)
	require.Empty(t, out.Totals)
	requireFeeDecline(t, e, feeID, nil)
}

// TestDeclinedLateFeeSettled: the declined fee the member sees is settled
// by staff charging the saved card: it leaves the member's outstanding
// list, and its earlier declined charge no longer asks for anything.
func TestDeclinedLateFeeSettled(t *testing.T) {
	e, feeID := declinedLateFee(t)
	requireDeclinedFeeItem(t, e, feeID)

	res, err := e.settleFee(e.boss, e.pass, uuid.NewString())
	require.NoError(t, err)
	require.Equal(t, api.LateFeeSettleChargeStatusPaid, res.Data.ChargeStatus)
	require.Equal(t, latefee.StatusPaid, e.db().LateFee.GetX(e.op, feeID).Status)
	out := e.outstanding(t)
	require.Zero(t, out.Count)
	require.Empty(t, out.Items)
	requireFeeDecline(t, e, feeID, nil)
}
