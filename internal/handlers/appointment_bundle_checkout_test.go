package handlers_test

import (
	"net/http"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/stretchr/testify/require"

	"github.com/venueplatform/venue/ent"
	entappointment "github.com/venueplatform/venue/ent/appointment"
	"github.com/venueplatform/venue/ent/appointmentpolicy"
	"github.com/venueplatform/venue/ent/auditlog"
	entvisit "github.com/venueplatform/venue/ent/visit"
	api "github.com/venueplatform/venue/internal/gen/api"
	"github.com/venueplatform/venue/internal/payments/stripetest"
)

// spaDay is a bundle of the pay salon's massage and nails at 520 DKK: the
// shares are 360 (massage, whose 100 DKK deposit is due) and 160 (nails,
// due whole), so 260 DKK is due at booking.
func (e *paySalon) spaDay(t *testing.T) *ent.ServiceBundle {
	t.Helper()
	c, op := e.studio.client, e.op
	b := c.ServiceBundle.Create().SetName("Spa day").SetPriceMinor(52000).SetCurrency("DKK").SaveX(op)
	c.ServiceBundleItem.Create().SetBundleID(b.ID).SetServiceID(e.massage.ID).SetPosition(0).ExecX(op)
	c.ServiceBundleItem.Create().SetBundleID(b.ID).SetServiceID(e.nails.ID).SetPosition(1).ExecX(op)
	return b
}

func (e *paySalon) bundleCheckout(c *api.Client, bundle uuid.UUID, start time.Time, due float64, card string, key uuid.UUID) (*api.VisitCheckoutResponse, error) {
	req := &api.BundleVisitCheckoutRequest{BundleID: bundle, StartTime: start, ExpectedTotalPriceAmount: 520,
		ExpectedAmountDueAtBooking: due, ExpectedCurrency: "DKK"}
	if card != "" {
		req.PaymentMethodID = api.NewOptString(card)
	}
	return c.CheckoutAppointmentBundle(e.ctx, req, api.CheckoutAppointmentBundleParams{XOrganizationID: e.venue.ID, IdempotencyKey: key})
}

// TestBundleCheckout: a bundle owing money at booking is 402 without
// checkout; a stale expected amount holds nothing; the checkout holds the
// visit and both appointments in pending_payment and charges the massage's
// deposit plus the nails' share (one intent, replayed by a retry); the
// held time is nobody else's; the confirm before the payment is 409
// PAYMENT_REQUIRES_ACTION; Stripe's event (three times) books it once and
// the confirm finds it booked; a saved card books at once; a venue paid at
// the venue owes nothing online (422, nothing held).
func TestBundleCheckout(t *testing.T) {
	e := newPaySalon(t)
	b := e.spaDay(t)
	other := e.memberClient(t, "rival@pay.example")
	e.studio.client.AppointmentPolicy.Update().SetGroupedVisitsEnabled(false).ExecX(e.op)
	start := e.at(10, 0)

	_, err := e.member.BookAppointmentBundle(e.ctx, &api.BundleVisitCreateRequest{BundleID: b.ID, StartTime: start,
		ExpectedTotalPriceAmount: 520, ExpectedAmountDueAtBooking: 260, ExpectedCurrency: "DKK"},
		api.BookAppointmentBundleParams{XOrganizationID: e.venue.ID, IdempotencyKey: uuid.New()})
	requireErr(t, err, http.StatusPaymentRequired, "PAYMENT_REQUIRED")

	_, err = e.bundleCheckout(e.member, b.ID, start, 520, "", uuid.New())
	es := requireErr(t, err, http.StatusConflict, "QUOTE_STALE")
	require.JSONEq(t, "26000", string(es.Response.Error.Details.AdditionalProps["due_minor"]))
	require.Equal(t, 0, e.count(t, "appointments"), "a stale checkout holds nothing")
	require.Equal(t, 0, e.count(t, "visits"))

	key := uuid.New()
	res, err := e.bundleCheckout(e.member, b.ID, start, 260, "", key)
	require.NoError(t, err)
	v := res.Data.Visit
	require.Equal(t, api.VisitStatusPendingPayment, v.Status)
	require.Equal(t, b.ID, v.BundleID.Value)
	require.Equal(t, int64(52000), v.TotalPriceMinor)
	require.Len(t, v.Appointments, 2)
	for _, ap := range v.Appointments {
		require.Equal(t, api.AppointmentStatusPendingPayment, ap.Status)
		require.Equal(t, api.AppointmentPaymentOnline, ap.Payment)
	}
	require.Equal(t, int64(10000), v.Appointments[0].AmountDueAtBookingMinor, "the massage's deposit")
	require.Equal(t, int64(16000), v.Appointments[1].AmountDueAtBookingMinor, "the nails' whole share")
	require.Equal(t, api.CheckoutPaymentStatusRequiresPaymentMethod, res.Data.Payment.Status)
	require.Equal(t, int64(26000), res.Data.Payment.AmountMinor)
	require.EqualValues(t, 26000, e.fake.Intent(res.Data.Payment.PaymentIntentID)["amount"])
	require.Equal(t, 0, e.events(t, "appointment.created"), "a hold is not a booking yet")

	again, err := e.bundleCheckout(e.member, b.ID, start, 260, "", key)
	require.NoError(t, err)
	require.Equal(t, v.ID, again.Data.Visit.ID)
	require.Len(t, e.fake.Intents(), 1, "a retry never charges twice")
	require.Equal(t, 2, e.count(t, "appointments"), "nor holds twice")

	_, err = e.bundleCheckout(other, b.ID, start, 260, "pm_card_visa", uuid.New())
	requireErr(t, err, http.StatusConflict, "SLOT_UNAVAILABLE")

	confirm := func(c *api.Client) (api.ConfirmAppointmentVisitCheckoutRes, error) {
		return c.ConfirmAppointmentVisitCheckout(e.ctx, api.ConfirmAppointmentVisitCheckoutParams{VisitId: v.ID,
			XOrganizationID: e.venue.ID, IdempotencyKey: uuid.NewString()})
	}
	_, err = confirm(e.member)
	requireErr(t, err, http.StatusConflict, "PAYMENT_REQUIRES_ACTION")
	_, err = confirm(other)
	requireErr(t, err, http.StatusNotFound, "NOT_FOUND")

	succeeded := e.fake.SetStatus(res.Data.Payment.PaymentIntentID, "succeeded")
	for range 3 {
		body, sig := stripetest.Event("evt_bundle_ok", "payment_intent.succeeded", payAccount, succeeded, paySecret)
		require.Equal(t, http.StatusOK, e.postEvent(t, body, sig))
	}
	require.Equal(t, 1, e.runEventJobs(t))
	got, err := confirm(e.member)
	require.NoError(t, err)
	ok, isOK := got.(*api.ConfirmAppointmentVisitCheckoutOK)
	require.True(t, isOK, "%T", got)
	require.Equal(t, api.VisitCheckoutConfirmStatusBooked, ok.Data.Status)
	require.Equal(t, api.VisitStatusBooked, ok.Data.Visit.Status)
	require.Equal(t, int64(26000), ok.Data.Visit.AmountPaidMinor)
	for _, ap := range ok.Data.Visit.Appointments {
		require.Equal(t, api.AppointmentStatusBooked, ap.Status)
	}
	require.Equal(t, 1, e.count(t, "payments"))
	require.Equal(t, 2, e.events(t, "appointment.created"))
	require.Equal(t, 1, e.events(t, "payment.succeeded"))

	// A saved card that succeeds at once books the bundle at checkout.
	now, err := e.bundleCheckout(e.member, b.ID, e.at(13, 0), 260, "pm_card_visa", uuid.New())
	require.NoError(t, err)
	require.Equal(t, api.CheckoutPaymentStatusSucceeded, now.Data.Payment.Status)
	require.Equal(t, api.VisitStatusBooked, now.Data.Visit.Status)
	require.Equal(t, 2, e.count(t, "payments"))
	require.Equal(t, 2, e.studio.client.Appointment.Query().Where(entappointment.VisitID(now.Data.Visit.ID),
		entappointment.StatusEQ(entappointment.StatusBooked)).CountX(e.op))

	// Paid at the venue: nothing is due online and nothing is held.
	e.studio.client.AppointmentPolicy.Update().SetPaymentAtBookingMode(appointmentpolicy.PaymentAtBookingModeVenue).ExecX(e.op)
	before := e.count(t, "appointments")
	_, err = e.bundleCheckout(e.member, b.ID, e.at(15, 0), 0, "pm_card_visa", uuid.New())
	es = requireErr(t, err, http.StatusUnprocessableEntity, "VALIDATION_FAILED")
	require.Equal(t, "nothing_due_online", es.Response.Error.Details.Reason.Value)
	require.Equal(t, before, e.count(t, "appointments"))
	require.Equal(t, 0, e.studio.client.Visit.Query().Where(entvisit.StatusEQ(entvisit.StatusPendingPayment)).CountX(e.op))
}

// TestServiceDeposit: staff set a service's own deposit rule over REST; a
// percentage, a fixed amount and none each change what the checkout quote
// and the bundle checkout charge; a negative, zero, over-precise or
// too-large amount, another currency, a percentage above 100 and fields
// the kind does not take are 400 and change nothing; members may not.
func TestServiceDeposit(t *testing.T) {
	e := newPaySalon(t)
	staff := e.bookingsStaff(t)
	owner := e.staffClient(t, "settings@pay.example", "settings.business")
	put := func(c *api.Client, req api.ServiceDepositRequest) (*api.ServiceDepositResponse, error) {
		return c.SetServiceDeposit(e.ctx, &req, api.SetServiceDepositParams{ID: e.massage.ID})
	}
	due := func() int64 {
		q, err := e.member.GetAppointmentCheckoutQuote(e.ctx, api.GetAppointmentCheckoutQuoteParams{XOrganizationID: e.venue.ID,
			ServiceID: e.massage.ID, StartTime: e.at(10, 0)})
		require.NoError(t, err)
		require.Equal(t, q.Data.PriceMinor-q.Data.AmountDueAtBookingMinor, q.Data.RemainingBalanceMinor)
		return q.Data.AmountDueAtBookingMinor
	}

	got, err := staff.GetServiceDeposit(e.ctx, api.GetServiceDepositParams{ID: e.massage.ID})
	require.NoError(t, err)
	require.Equal(t, api.ServiceDepositKindFixed, got.Data.Kind)
	require.Equal(t, int64(10000), got.Data.AmountMinor.Value)
	require.Equal(t, 100.0, got.Data.Amount.Value)
	require.True(t, got.Data.Percent.Null)

	pct, err := put(staff, api.ServiceDepositRequest{Kind: api.ServiceDepositRequestKindPercent, Percent: api.NewOptFloat64(12.5)})
	require.NoError(t, err)
	require.Equal(t, api.ServiceDepositKindPercent, pct.Data.Kind)
	require.Equal(t, 12.5, pct.Data.Percent.Value)
	require.True(t, pct.Data.AmountMinor.Null)
	require.Equal(t, int64(5625), due(), "12.5% of 450 DKK")

	refused := []api.ServiceDepositRequest{
		{Kind: api.ServiceDepositRequestKindFixed, Amount: api.NewOptFloat64(50), Currency: api.NewOptString("EUR")},
		{Kind: api.ServiceDepositRequestKindFixed, Amount: api.NewOptFloat64(500), Currency: api.NewOptString("DKK")},
		{Kind: api.ServiceDepositRequestKindFixed, Amount: api.NewOptFloat64(0), Currency: api.NewOptString("DKK")},
		{Kind: api.ServiceDepositRequestKindFixed, Amount: api.NewOptFloat64(-5), Currency: api.NewOptString("DKK")},
		{Kind: api.ServiceDepositRequestKindFixed, Amount: api.NewOptFloat64(10.005), Currency: api.NewOptString("DKK")},
		{Kind: api.ServiceDepositRequestKindFixed, Amount: api.NewOptFloat64(50)},
		{Kind: api.ServiceDepositRequestKindPercent, Percent: api.NewOptFloat64(100.5)},
		{Kind: api.ServiceDepositRequestKindPercent, Percent: api.NewOptFloat64(0)},
		{Kind: api.ServiceDepositRequestKindPercent, Percent: api.NewOptFloat64(10), Currency: api.NewOptString("DKK")},
		{Kind: api.ServiceDepositRequestKindNone, Amount: api.NewOptFloat64(10)},
	}
	for i, req := range refused {
		_, err := put(staff, req)
		requireErr(t, err, http.StatusBadRequest, "VALIDATION_ERROR")
		svc := e.studio.client.Service.GetX(e.op, e.massage.ID)
		require.Nil(t, svc.DepositMinor, "refusal %d changed nothing", i)
		require.Equal(t, 1250, *svc.DepositPercentBp, "refusal %d changed nothing", i)
	}
	_, err = put(e.member, api.ServiceDepositRequest{Kind: api.ServiceDepositRequestKindNone})
	requireErr(t, err, http.StatusForbidden, "ACCESS_DENIED")
	_, err = staff.SetServiceDeposit(e.ctx, &api.ServiceDepositRequest{Kind: api.ServiceDepositRequestKindNone},
		api.SetServiceDepositParams{ID: uuid.New()})
	requireErr(t, err, http.StatusNotFound, "NOT_FOUND")

	fixed, err := put(owner, api.ServiceDepositRequest{Kind: api.ServiceDepositRequestKindFixed, Amount: api.NewOptFloat64(120.5),
		Currency: api.NewOptString("DKK")})
	require.NoError(t, err)
	require.Equal(t, int64(12050), fixed.Data.AmountMinor.Value)
	require.Equal(t, int64(12050), due())

	none, err := put(staff, api.ServiceDepositRequest{Kind: api.ServiceDepositRequestKindNone})
	require.NoError(t, err)
	require.Equal(t, api.ServiceDepositKindNone, none.Data.Kind)
	require.Equal(t, int64(45000), due(), "without a deposit the whole price is due")
	require.Equal(t, 3, e.studio.client.AuditLog.Query().Where(auditlog.Action("service.deposit_updated")).CountX(e.op))

	// A percentage applies to a bundle's share: 20% of the massage's 360
	// DKK share plus the nails' 160.
	_, err = put(staff, api.ServiceDepositRequest{Kind: api.ServiceDepositRequestKindPercent, Percent: api.NewOptFloat64(20)})
	require.NoError(t, err)
	b := e.spaDay(t)
	_, err = e.bundleCheckout(e.member, b.ID, e.at(10, 0), 260, "pm_card_visa", uuid.New())
	es := requireErr(t, err, http.StatusConflict, "QUOTE_STALE")
	require.JSONEq(t, "23200", string(es.Response.Error.Details.AdditionalProps["due_minor"]))
	res, err := e.bundleCheckout(e.member, b.ID, e.at(10, 0), 232, "pm_card_visa", uuid.New())
	require.NoError(t, err)
	require.Equal(t, int64(23200), res.Data.Payment.AmountMinor)
	require.Equal(t, api.VisitStatusBooked, res.Data.Visit.Status)
}
