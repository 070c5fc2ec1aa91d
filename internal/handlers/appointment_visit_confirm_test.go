package handlers_test

import (
	"net/http"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/stretchr/testify/require"

	entappointment "github.com/venueplatform/venue/ent/appointment"
	entvisit "github.com/venueplatform/venue/ent/visit"
	api "github.com/venueplatform/venue/internal/gen/api"
)

// visitCheckout holds a massage and nails visit at start for c, paid by the
// payment sheet (no card given).
func (e *paySalon) visitCheckout(t *testing.T, c *api.Client, start time.Time) api.VisitCheckout {
	t.Helper()
	res, err := c.CheckoutAppointmentVisit(e.ctx, &api.VisitCheckoutRequest{
		Services:  []api.VisitServiceRequest{{ServiceID: e.massage.ID}, {ServiceID: e.nails.ID}},
		StartTime: start, ExpectedTotalPriceAmount: 650, ExpectedAmountDueAtBooking: 300, ExpectedCurrency: "DKK"},
		api.CheckoutAppointmentVisitParams{XOrganizationID: e.venue.ID, IdempotencyKey: uuid.New()})
	require.NoError(t, err)
	require.Equal(t, api.VisitStatusPendingPayment, res.Data.Visit.Status)
	return res.Data
}

// TestVisitCheckoutConfirmCodes: the visit confirm answers the contract's
// codes: 409 PAYMENT_REQUIRES_ACTION before the card is confirmed, 202
// VISIT_FINALIZE_RETRY while the payment is processing, 200 booked once it
// succeeded; and 202 VISIT_REFUND_PENDING (refund queued) for a payment that
// lands after the visit's hold was released and its time taken.
func TestVisitCheckoutConfirmCodes(t *testing.T) {
	e := newPaySalon(t)
	confirm := func(id uuid.UUID) (api.ConfirmAppointmentVisitCheckoutRes, error) {
		return e.member.ConfirmAppointmentVisitCheckout(e.ctx, api.ConfirmAppointmentVisitCheckoutParams{VisitId: id,
			XOrganizationID: e.venue.ID, IdempotencyKey: uuid.NewString()})
	}
	held := e.visitCheckout(t, e.member, e.at(9, 0))
	_, err := confirm(held.Visit.ID)
	requireErr(t, err, http.StatusConflict, "PAYMENT_REQUIRES_ACTION")

	e.fake.SetStatus(held.Payment.PaymentIntentID, "processing")
	got, err := confirm(held.Visit.ID)
	require.NoError(t, err)
	acc, ok := got.(*api.ConfirmAppointmentVisitCheckoutAccepted)
	require.True(t, ok, "%T", got)
	require.Equal(t, api.VisitCheckoutConfirmStatusFinalizing, acc.Data.Status)
	require.Equal(t, api.VisitCheckoutConfirmCodeVISITFINALIZERETRY, acc.Data.Code.Value)
	require.Equal(t, api.VisitStatusPendingPayment, acc.Data.Visit.Status)

	e.fake.SetStatus(held.Payment.PaymentIntentID, "succeeded")
	got, err = confirm(held.Visit.ID)
	require.NoError(t, err)
	booked, ok := got.(*api.ConfirmAppointmentVisitCheckoutOK)
	require.True(t, ok, "%T", got)
	require.Equal(t, api.VisitCheckoutConfirmStatusBooked, booked.Data.Status)
	require.Equal(t, api.VisitStatusBooked, booked.Data.Visit.Status)
	require.Equal(t, int64(30000), booked.Data.Visit.AmountPaidMinor)

	// A hold that expired, whose time another member took; its payment
	// lands afterwards.
	late := e.visitCheckout(t, e.member, e.at(13, 0))
	c, op := e.studio.client, e.op
	past := time.Now().Add(-time.Minute)
	c.Visit.UpdateOneID(late.Visit.ID).SetHoldExpiresAt(past).ExecX(op)
	c.Appointment.Update().Where(entappointment.VisitID(late.Visit.ID)).SetHoldExpiresAt(past).ExecX(op)
	other := e.memberClient(t, "taker@pay.example")
	taken, err := e.checkout(other, e.at(13, 0), 100, "pm_card_visa", uuid.NewString())
	require.NoError(t, err)
	require.Equal(t, api.AppointmentStatusBooked, taken.Data.Appointment.Status)
	require.Equal(t, entvisit.StatusCancelled, c.Visit.GetX(op, late.Visit.ID).Status)

	e.fake.SetStatus(late.Payment.PaymentIntentID, "succeeded")
	got, err = confirm(late.Visit.ID)
	require.NoError(t, err)
	acc, ok = got.(*api.ConfirmAppointmentVisitCheckoutAccepted)
	require.True(t, ok, "%T", got)
	require.Equal(t, api.VisitCheckoutConfirmStatusRefundPending, acc.Data.Status)
	require.Equal(t, api.VisitCheckoutConfirmCodeVISITREFUNDPENDING, acc.Data.Code.Value)
	require.Equal(t, api.VisitStatusCancelled, acc.Data.Visit.Status)
	rf, ok := acc.Data.Refund.Get()
	require.True(t, ok)
	require.Equal(t, api.CheckoutLateRefundStatusQueued, rf.Status)
	require.Equal(t, int64(30000), rf.AmountMinor)
	require.Equal(t, entappointment.StatusBooked, c.Appointment.GetX(op, taken.Data.Appointment.ID).Status)
}
