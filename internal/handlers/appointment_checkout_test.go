package handlers_test

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/stretchr/testify/require"

	"github.com/venueplatform/venue/ent"
	entappointment "github.com/venueplatform/venue/ent/appointment"
	"github.com/venueplatform/venue/ent/appointmentpolicy"
	"github.com/venueplatform/venue/ent/event"
	"github.com/venueplatform/venue/ent/payment"
	"github.com/venueplatform/venue/ent/paymentattempt"
	entvisit "github.com/venueplatform/venue/ent/visit"
	"github.com/venueplatform/venue/internal/appointments"
	api "github.com/venueplatform/venue/internal/gen/api"
	"github.com/venueplatform/venue/internal/payments/stripetest"
)

// paySalon is a venue taking card payments (a fake Stripe) that takes
// payment for appointments online at booking: a 60-minute massage at 450
// DKK with a 100 DKK deposit, and a 40-minute nail treatment at 200 DKK
// without one, both given by one provider working 9 to 17 every day.
type paySalon struct {
	*payEnv
	massage, nails *ent.Service
	provider       *ent.Instructor
	day            time.Time
}

func newPaySalon(t *testing.T) *paySalon {
	t.Helper()
	e := &paySalon{payEnv: newPayEnv(t, false, false)}
	c, op := e.studio.client, e.op
	e.massage = c.Service.Create().SetName("Massage").SetSlug("massage").SetDurationMinutes(60).
		SetPriceMinor(45000).SetDepositMinor(10000).SetCurrency("DKK").SaveX(op)
	e.nails = c.Service.Create().SetName("Nails").SetSlug("nails").SetDurationMinutes(40).
		SetPriceMinor(20000).SetCurrency("DKK").SetBufferAfterMinutes(5).SaveX(op)
	e.provider = c.Instructor.Create().SetFirstName("Signe").SaveX(op)
	for _, s := range []*ent.Service{e.massage, e.nails} {
		c.ServiceProvider.Create().SetServiceID(s.ID).SetProviderID(e.provider.ID).SetIsPrimary(true).ExecX(op)
	}
	for wd := 0; wd < 7; wd++ {
		c.ProviderHours.Create().SetProviderID(e.provider.ID).SetWeekday(wd).SetStartMinute(9 * 60).SetEndMinute(17 * 60).ExecX(op)
	}
	c.AppointmentPolicy.Create().SetPaymentAtBookingMode(appointmentpolicy.PaymentAtBookingModeOnline).
		SetGroupedVisitsEnabled(true).SetGroupedVisitRefundTerms("Full refund up to 24 hours before.").
		SetGroupedVisitTermsConfirmedAt(time.Now()).ExecX(op)
	e.day = e.today.AddDate(0, 0, 3)
	return e
}

func (e *paySalon) at(hour, minute int) time.Time {
	return time.Date(e.day.Year(), e.day.Month(), e.day.Day(), hour, minute, 0, 0, e.loc)
}

func (e *paySalon) checkout(c *api.Client, start time.Time, due float64, card, key string) (*api.AppointmentCheckoutResponse, error) {
	req := &api.AppointmentCheckoutRequest{ServiceID: e.massage.ID, StartTime: start,
		ProviderID: api.NewOptString("any"), ExpectedAmountDueAtBooking: due}
	if card != "" {
		req.PaymentMethodID = api.NewOptString(card)
	}
	return c.CheckoutAppointment(e.ctx, req, api.CheckoutAppointmentParams{XOrganizationID: e.venue.ID, IdempotencyKey: key})
}

func (e *paySalon) offered(t *testing.T, c *api.Client, start time.Time) bool {
	t.Helper()
	res, err := c.GetAppointmentAvailability(e.ctx, api.GetAppointmentAvailabilityParams{
		XOrganizationID: api.NewOptUUID(e.venue.ID), ServiceID: e.massage.ID,
		From: time.Date(e.day.Year(), e.day.Month(), e.day.Day(), 0, 0, 0, 0, time.UTC)})
	require.NoError(t, err)
	for _, s := range res.Data.Slots {
		if s.StartTime.Equal(start) {
			return true
		}
	}
	return false
}

func (e *paySalon) events(t *testing.T, typ string) int {
	t.Helper()
	return e.studio.client.Event.Query().Where(event.Type(typ)).CountX(e.op)
}

// TestAppointmentCheckoutDeposit: the quote names the provider, the price,
// the deposit, what is due now and the balance; booking without checkout is
// 402; a stale expected amount holds nothing; the checkout holds the time in
// pending_payment (no one else gets it) and charges the deposit; the confirm
// before the payment finished is 409 PAYMENT_REQUIRES_ACTION; Stripe's event
// (five times) books it once, and the confirm after it finds it booked.
func TestAppointmentCheckoutDeposit(t *testing.T) {
	e := newPaySalon(t)
	other := e.memberClient(t, "other@pay.example")
	start := e.at(10, 0)

	q, err := e.member.GetAppointmentCheckoutQuote(e.ctx, api.GetAppointmentCheckoutQuoteParams{XOrganizationID: e.venue.ID,
		ServiceID: e.massage.ID, ProviderID: api.NewOptString("any"), StartTime: start})
	require.NoError(t, err)
	require.Equal(t, e.provider.ID, q.Data.ProviderID)
	require.Equal(t, int64(45000), q.Data.PriceMinor)
	require.Equal(t, int64(10000), q.Data.DepositMinor.Value)
	require.Equal(t, int64(10000), q.Data.AmountDueAtBookingMinor)
	require.Equal(t, 100.0, q.Data.AmountDueAtBooking)
	require.Equal(t, int64(35000), q.Data.RemainingBalanceMinor)
	require.Equal(t, api.AppointmentCheckoutQuotePaymentOnline, q.Data.Payment)
	require.True(t, q.Data.EndTime.Equal(start.Add(time.Hour)))

	_, err = e.member.CreateAppointment(e.ctx, &api.AppointmentCreateRequest{ServiceID: e.massage.ID, StartTime: start},
		api.CreateAppointmentParams{XOrganizationID: e.venue.ID, IdempotencyKey: uuid.NewString()})
	requireErr(t, err, http.StatusPaymentRequired, "PAYMENT_REQUIRED")

	_, err = e.checkout(e.member, start, 450, "", uuid.NewString())
	requireErr(t, err, http.StatusConflict, "QUOTE_STALE")
	require.Equal(t, 0, e.count(t, "appointments"), "a stale checkout holds nothing")

	e.fake.Script(stripetest.Outcome{Status: "requires_action"})
	key := uuid.NewString()
	res, err := e.checkout(e.member, start, 100, "pm_card_threeDSecure2Required", key)
	require.NoError(t, err)
	ap := res.Data.Appointment
	require.Equal(t, api.AppointmentStatusPendingPayment, ap.Status)
	require.Equal(t, api.AppointmentPaymentOnline, ap.Payment)
	require.Equal(t, int64(10000), ap.AmountDueAtBookingMinor)
	require.False(t, ap.HoldExpiresAt.Null)
	require.Equal(t, api.CheckoutPaymentStatusRequiresAction, res.Data.Payment.Status)
	require.True(t, strings.HasSuffix(res.Data.Payment.ClientSecret.Value, "_secret_fake"))
	require.EqualValues(t, 10000, e.fake.Intent(res.Data.Payment.PaymentIntentID)["amount"])
	require.Equal(t, 0, e.events(t, "appointment.created"), "a hold is not a booking yet")

	// The held time is neither offered nor bookable by another member.
	require.False(t, e.offered(t, other, start))
	_, err = e.checkout(other, start, 100, "pm_card_visa", uuid.NewString())
	requireErr(t, err, http.StatusConflict, "SLOT_UNAVAILABLE")

	// A retry of the same checkout replays it: one appointment, one intent.
	again, err := e.checkout(e.member, start, 100, "pm_card_threeDSecure2Required", key)
	require.NoError(t, err)
	require.Equal(t, ap.ID, again.Data.Appointment.ID)
	require.Len(t, e.fake.Intents(), 1)

	confirm := func(c *api.Client) (api.ConfirmAppointmentCheckoutRes, error) {
		return c.ConfirmAppointmentCheckout(e.ctx, api.ConfirmAppointmentCheckoutParams{ID: ap.ID,
			XOrganizationID: e.venue.ID, IdempotencyKey: uuid.NewString()})
	}
	_, err = confirm(e.member)
	requireErr(t, err, http.StatusConflict, "PAYMENT_REQUIRES_ACTION")
	_, err = confirm(other)
	requireErr(t, err, http.StatusNotFound, "NOT_FOUND")

	succeeded := e.fake.SetStatus(res.Data.Payment.PaymentIntentID, "succeeded")
	for range 5 {
		body, sig := stripetest.Event("evt_appt_ok", "payment_intent.succeeded", payAccount, succeeded, paySecret)
		require.Equal(t, http.StatusOK, e.postEvent(t, body, sig))
	}
	require.Equal(t, 1, e.runEventJobs(t))
	got, err := confirm(e.member)
	require.NoError(t, err)
	ok, isOK := got.(*api.ConfirmAppointmentCheckoutOK)
	require.True(t, isOK, "%T", got)
	require.Equal(t, api.AppointmentCheckoutConfirmStatusBooked, ok.Data.Status)
	require.Equal(t, api.AppointmentStatusBooked, ok.Data.Appointment.Status)
	require.Equal(t, int64(10000), ok.Data.Appointment.AmountPaidMinor)
	require.True(t, ok.Data.Appointment.HoldExpiresAt.Null)
	require.Equal(t, 1, e.count(t, "payments"))
	require.Equal(t, 1, e.events(t, "appointment.created"))
	require.Equal(t, 1, e.events(t, "payment.succeeded"))
	require.Equal(t, paymentattempt.StateSucceeded, e.studio.client.PaymentAttempt.Query().OnlyX(e.op).State)
	require.Len(t, e.fake.Intents(), 1)
}

// TestAppointmentCheckoutConfirmFirst: the member's confirm comes before
// Stripe's event and books the appointment; the late event changes nothing.
// A saved card that succeeds at once books at checkout. Nothing due online
// (a venue that is paid at the venue) is refused with nothing held.
func TestAppointmentCheckoutConfirmFirst(t *testing.T) {
	e := newPaySalon(t)
	res, err := e.checkout(e.member, e.at(10, 0), 100, "", uuid.NewString())
	require.NoError(t, err)
	require.Equal(t, api.CheckoutPaymentStatusRequiresPaymentMethod, res.Data.Payment.Status)
	pi := res.Data.Payment.PaymentIntentID
	succeeded := e.fake.SetStatus(pi, "succeeded")
	got, err := e.member.ConfirmAppointmentCheckout(e.ctx, api.ConfirmAppointmentCheckoutParams{ID: res.Data.Appointment.ID,
		XOrganizationID: e.venue.ID, IdempotencyKey: uuid.NewString()})
	require.NoError(t, err)
	require.IsType(t, &api.ConfirmAppointmentCheckoutOK{}, got)
	body, sig := stripetest.Event("evt_late", "payment_intent.succeeded", payAccount, succeeded, paySecret)
	require.Equal(t, http.StatusOK, e.postEvent(t, body, sig))
	e.runEventJobs(t)
	require.Equal(t, 1, e.count(t, "payments"))
	require.Equal(t, 1, e.events(t, "appointment.created"))

	now, err := e.checkout(e.member, e.at(12, 0), 100, "pm_card_visa", uuid.NewString())
	require.NoError(t, err)
	require.Equal(t, api.CheckoutPaymentStatusSucceeded, now.Data.Payment.Status)
	require.True(t, now.Data.Payment.ClientSecret.Null)
	require.Equal(t, api.AppointmentStatusBooked, now.Data.Appointment.Status)
	require.Equal(t, 2, e.count(t, "payments"))

	e.studio.client.AppointmentPolicy.Update().SetPaymentAtBookingMode(appointmentpolicy.PaymentAtBookingModeVenue).ExecX(e.op)
	before := e.count(t, "appointments")
	_, err = e.checkout(e.member, e.at(14, 0), 0, "pm_card_visa", uuid.NewString())
	es := requireErr(t, err, http.StatusUnprocessableEntity, "VALIDATION_FAILED")
	require.Equal(t, "nothing_due_online", es.Response.Error.Details.Reason.Value)
	require.Equal(t, before, e.count(t, "appointments"))
}

// TestAppointmentCheckoutHoldExpires: an expired hold is released by the
// booking that needs its time (cancelled, payment_not_completed); a payment
// that arrives after is recorded and the confirm answers 202
// REFUND_PENDING, leaving the other member's booking alone.
func TestAppointmentCheckoutHoldExpires(t *testing.T) {
	e := newPaySalon(t)
	other := e.memberClient(t, "late@pay.example")
	start := e.at(11, 0)
	res, err := e.checkout(e.member, start, 100, "", uuid.NewString())
	require.NoError(t, err)
	e.studio.client.Appointment.UpdateOneID(res.Data.Appointment.ID).SetHoldExpiresAt(time.Now().Add(-time.Minute)).ExecX(e.op)
	require.True(t, e.offered(t, other, start), "an expired hold is free time")
	taken, err := e.checkout(other, start, 100, "pm_card_visa", uuid.NewString())
	require.NoError(t, err)
	require.Equal(t, api.AppointmentStatusBooked, taken.Data.Appointment.Status)
	old := e.studio.client.Appointment.GetX(e.op, res.Data.Appointment.ID)
	require.Equal(t, entappointment.StatusCancelled, old.Status)
	require.Equal(t, "payment_not_completed", *old.CancelReason)

	succeeded := e.fake.SetStatus(res.Data.Payment.PaymentIntentID, "succeeded")
	body, sig := stripetest.Event("evt_too_late", "payment_intent.succeeded", payAccount, succeeded, paySecret)
	require.Equal(t, http.StatusOK, e.postEvent(t, body, sig))
	require.Equal(t, 1, e.runEventJobs(t))
	got, err := e.member.ConfirmAppointmentCheckout(e.ctx, api.ConfirmAppointmentCheckoutParams{ID: res.Data.Appointment.ID,
		XOrganizationID: e.venue.ID, IdempotencyKey: uuid.NewString()})
	require.NoError(t, err)
	acc, ok := got.(*api.ConfirmAppointmentCheckoutAccepted)
	require.True(t, ok, "%T", got)
	require.Equal(t, api.AppointmentCheckoutConfirmStatusRefundPending, acc.Data.Status)
	require.Equal(t, api.AppointmentCheckoutConfirmCodeREFUNDPENDING, acc.Data.Code.Value)
	require.Equal(t, api.AppointmentStatusCancelled, acc.Data.Appointment.Status)
	require.Equal(t, entappointment.StatusBooked, e.studio.client.Appointment.GetX(e.op, taken.Data.Appointment.ID).Status)
	require.Equal(t, 2, e.count(t, "payments"))

	// The late payment's refund was queued with it, once; until its job runs
	// the confirm says so.
	refund, ok := acc.Data.Refund.Get()
	require.True(t, ok)
	require.Equal(t, api.CheckoutLateRefundStatusQueued, refund.Status)
	require.Equal(t, int64(10000), refund.AmountMinor)
	require.True(t, refund.RefundID.Null)
	require.Zero(t, e.count(t, "refunds"))
	require.Equal(t, http.StatusOK, e.postEvent(t, body, sig), "Stripe delivers the event again")
	e.runEventJobs(t)
	require.Equal(t, 1, e.runLateRefunds(t), "one refund job for the payment, however often it settles")
	require.Equal(t, 1, e.count(t, "refunds"))
	// The job running again (a retry) makes no second refund.
	late := e.studio.client.Payment.Query().Where(payment.ProcessorPaymentID(res.Data.Payment.PaymentIntentID)).OnlyX(e.op)
	require.NoError(t, appointments.RefundLatePayment(e.ctx, e.svc, e.venue.ID, late.ID))
	require.Equal(t, 1, e.count(t, "refunds"))
	refundCreates := 0
	for _, r := range e.fake.Requests() {
		if r.Method == http.MethodPost && strings.HasPrefix(r.Path, "/v1/refunds") {
			refundCreates++
		}
	}
	require.Equal(t, 1, refundCreates, "Stripe saw one refund")
	rf := e.studio.client.Refund.Query().OnlyX(e.op)
	require.Equal(t, int64(10000), rf.AmountMinor)
	require.Equal(t, appointments.LateRefundReason, rf.Reason)

	got, err = e.member.ConfirmAppointmentCheckout(e.ctx, api.ConfirmAppointmentCheckoutParams{ID: res.Data.Appointment.ID,
		XOrganizationID: e.venue.ID, IdempotencyKey: uuid.NewString()})
	require.NoError(t, err)
	acc, ok = got.(*api.ConfirmAppointmentCheckoutAccepted)
	require.True(t, ok, "%T", got)
	refund, _ = acc.Data.Refund.Get()
	require.Equal(t, api.CheckoutLateRefundStatus(rf.Status), refund.Status)
	require.Equal(t, rf.ID, refund.RefundID.Value)
	require.NotEqual(t, api.CheckoutLateRefundStatusQueued, refund.Status)
	_, booked := got.(*api.ConfirmAppointmentCheckoutOK)
	require.False(t, booked)
}

// runLateRefunds runs the queued late-payment refund jobs as the server's
// worker would and returns how many there were.
func (e *payEnv) runLateRefunds(t *testing.T) int {
	t.Helper()
	rows, err := e.pool.Query(e.ctx, `SELECT args->>'payment_id', args->>'organization_id' FROM river_job WHERE kind = 'appointments.late_refund' AND state = 'available'`)
	require.NoError(t, err)
	var jobs [][2]uuid.UUID
	for rows.Next() {
		var p, o string
		require.NoError(t, rows.Scan(&p, &o))
		jobs = append(jobs, [2]uuid.UUID{uuid.MustParse(p), uuid.MustParse(o)})
	}
	require.NoError(t, rows.Err())
	for _, j := range jobs {
		require.NoError(t, appointments.RefundLatePayment(e.ctx, e.svc, j[1], j[0]))
	}
	_, err = e.pool.Exec(e.ctx, `UPDATE river_job SET state = 'completed', finalized_at = now() WHERE kind = 'appointments.late_refund' AND state = 'available'`)
	require.NoError(t, err)
	return len(jobs)
}

// TestVisitPlanCheckoutReschedule: the plan lists the starts from which the
// services fit in sequence, with the venue's refund terms and the amounts
// due; a visit owing money is 402 without checkout; the visit checkout
// charges the sum of the deposits and prices once and books every service;
// the visit moves all or nothing with its expected_updated_at.
func TestVisitPlanCheckoutReschedule(t *testing.T) {
	e := newPaySalon(t)
	other := e.memberClient(t, "blocker@pay.example")
	services := []api.VisitServiceRequest{{ServiceID: e.massage.ID}, {ServiceID: e.nails.ID}}
	plan, err := e.member.PlanAppointmentVisit(e.ctx, &api.VisitPlanRequest{Date: time.Date(e.day.Year(), e.day.Month(), e.day.Day(), 0, 0, 0, 0, time.UTC),
		Services: services}, api.PlanAppointmentVisitParams{XOrganizationID: e.venue.ID})
	require.NoError(t, err)
	require.True(t, plan.Data.Capability.Enabled)
	require.Equal(t, 8, plan.Data.MaxServices)
	require.Equal(t, "Full refund up to 24 hours before.", plan.Data.RefundTerms.Value)
	require.NotEmpty(t, plan.Data.Candidates)
	first := plan.Data.Candidates[0]
	require.True(t, first.StartTime.Equal(e.at(9, 0)))
	require.Len(t, first.Items, 2)
	require.True(t, first.Items[1].StartTime.Equal(e.at(10, 0)))
	require.Equal(t, int64(65000), first.TotalPriceMinor)
	require.Equal(t, int64(30000), first.AmountDueAtBookingMinor, "the massage's deposit and the whole nails price")
	last := plan.Data.Candidates[len(plan.Data.Candidates)-1]
	require.False(t, last.EndTime.After(e.at(17, 0)), "every candidate ends inside the working hours")

	visitReq := &api.VisitCreateRequest{Services: services, StartTime: first.StartTime,
		ExpectedTotalPriceAmount: first.TotalPriceAmount, ExpectedAmountDueAtBooking: first.AmountDueAtBooking, ExpectedCurrency: "DKK"}
	_, err = e.member.CreateAppointmentVisit(e.ctx, visitReq, api.CreateAppointmentVisitParams{XOrganizationID: e.venue.ID, IdempotencyKey: uuid.New()})
	requireErr(t, err, http.StatusPaymentRequired, "PAYMENT_REQUIRED")
	require.Equal(t, 0, e.count(t, "appointments"))

	res, err := e.member.CheckoutAppointmentVisit(e.ctx, &api.VisitCheckoutRequest{Services: services, StartTime: first.StartTime,
		ExpectedTotalPriceAmount: first.TotalPriceAmount, ExpectedAmountDueAtBooking: first.AmountDueAtBooking,
		ExpectedCurrency: "DKK", PaymentMethodID: api.NewOptString("pm_card_visa")},
		api.CheckoutAppointmentVisitParams{XOrganizationID: e.venue.ID, IdempotencyKey: uuid.New()})
	require.NoError(t, err)
	require.Equal(t, api.CheckoutPaymentStatusSucceeded, res.Data.Payment.Status)
	require.Equal(t, int64(30000), res.Data.Payment.AmountMinor)
	require.EqualValues(t, 30000, e.fake.Intent(res.Data.Payment.PaymentIntentID)["amount"])
	v := res.Data.Visit
	require.Equal(t, api.VisitStatusBooked, v.Status)
	require.Equal(t, int64(30000), v.AmountPaidMinor)
	require.Len(t, v.Appointments, 2)
	for _, ap := range v.Appointments {
		require.Equal(t, api.AppointmentStatusBooked, ap.Status)
	}
	require.Equal(t, 1, e.count(t, "payments"))
	require.Equal(t, 2, e.events(t, "appointment.created"))
	got, err := e.member.ConfirmAppointmentVisitCheckout(e.ctx, api.ConfirmAppointmentVisitCheckoutParams{VisitId: v.ID,
		XOrganizationID: e.venue.ID, IdempotencyKey: uuid.NewString()})
	require.NoError(t, err)
	require.IsType(t, &api.ConfirmAppointmentVisitCheckoutOK{}, got)

	// The plan from the visit counts its own time as free.
	again, err := e.member.PlanAppointmentVisit(e.ctx, &api.VisitPlanRequest{Date: time.Date(e.day.Year(), e.day.Month(), e.day.Day(), 0, 0, 0, 0, time.UTC),
		Services: services, FromVisitID: api.NewOptUUID(v.ID)}, api.PlanAppointmentVisitParams{XOrganizationID: e.venue.ID})
	require.NoError(t, err)
	require.True(t, again.Data.Candidates[0].StartTime.Equal(e.at(9, 0)))

	move := func(c *api.Client, start time.Time, tok string) (*api.VisitResponse, error) {
		return c.RescheduleAppointmentVisit(e.ctx, &api.VisitRescheduleRequest{StartTime: start, ExpectedUpdatedAt: tok},
			api.RescheduleAppointmentVisitParams{VisitId: v.ID, XOrganizationID: e.venue.ID, IdempotencyKey: uuid.NewString()})
	}
	_, err = move(e.member, e.at(13, 0), time.Now().UTC().Format(time.RFC3339Nano))
	requireErr(t, err, http.StatusConflict, "STALE_TARGET")
	_, err = move(other, e.at(13, 0), v.UpdatedAt)
	requireErr(t, err, http.StatusNotFound, "NOT_FOUND")
	// Another member holds 14:15, where the nails would go after a 13:15 massage: nothing moves.
	_, err = e.checkout(other, e.at(14, 15), 100, "pm_card_visa", uuid.NewString())
	require.NoError(t, err)
	_, err = move(e.member, e.at(13, 15), v.UpdatedAt)
	es := requireErr(t, err, http.StatusConflict, "SLOT_UNAVAILABLE")
	require.JSONEq(t, "1", string(es.Response.Error.Details.AdditionalProps["service_index"]))
	require.Equal(t, 2, e.studio.client.Appointment.Query().Where(entappointment.VisitID(v.ID), entappointment.StatusEQ(entappointment.StatusBooked)).CountX(e.op))

	moved, err := move(e.member, e.at(11, 0), v.UpdatedAt)
	require.NoError(t, err)
	require.True(t, moved.Data.StartTime.Equal(e.at(11, 0)))
	require.Len(t, moved.Data.Appointments, 2)
	require.True(t, moved.Data.Appointments[1].StartTime.Equal(e.at(12, 0)))
	for _, ap := range moved.Data.Appointments {
		require.Equal(t, api.AppointmentPaymentOnline, ap.Payment)
		require.Equal(t, api.AppointmentStatusBooked, ap.Status)
	}
	require.Equal(t, int64(10000), moved.Data.Appointments[0].AmountPaidMinor, "the paid deposit moves with the appointment")
	old := e.studio.client.Appointment.Query().Where(entappointment.VisitID(v.ID), entappointment.StatusEQ(entappointment.StatusRescheduled)).AllX(e.op)
	require.Len(t, old, 2)
	for _, ap := range old {
		require.NotNil(t, ap.RescheduledToID)
	}
	require.Equal(t, 2, e.events(t, "appointment.rescheduled"))
	require.Equal(t, entvisit.StatusBooked, e.studio.client.Visit.GetX(e.op, v.ID).Status)
	_, err = move(e.member, e.at(15, 0), v.UpdatedAt)
	requireErr(t, err, http.StatusConflict, "STALE_TARGET")

	// Nine services are refused by the input gate; nothing is booked.
	nine := make([]api.VisitServiceRequest, 9)
	for i := range nine {
		nine[i] = api.VisitServiceRequest{ServiceID: e.nails.ID}
	}
	before := e.count(t, "appointments")
	_, err = e.member.CheckoutAppointmentVisit(e.ctx, &api.VisitCheckoutRequest{Services: nine, StartTime: e.at(9, 0),
		ExpectedCurrency: "DKK"}, api.CheckoutAppointmentVisitParams{XOrganizationID: e.venue.ID, IdempotencyKey: uuid.New()})
	require.Error(t, err)
	require.Equal(t, before, e.count(t, "appointments"))
}
