package handlers_test

import (
	"encoding/json"
	"net/http"
	"sync"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/stretchr/testify/require"

	entappointment "github.com/venueplatform/venue/ent/appointment"
	"github.com/venueplatform/venue/ent/appointmentpolicy"
	"github.com/venueplatform/venue/ent/auditlog"
	"github.com/venueplatform/venue/ent/event"
	"github.com/venueplatform/venue/ent/payment"
	"github.com/venueplatform/venue/ent/paymentattempt"
	"github.com/venueplatform/venue/ent/refund"
	entvisit "github.com/venueplatform/venue/ent/visit"
	"github.com/venueplatform/venue/internal/appointments"
	api "github.com/venueplatform/venue/internal/gen/api"
)

// cancelPaid cancels appointment id as c, accepting the refund terms or
// not, under key, waiting while the same key is in flight.
func (e *paySalon) cancelPaid(c *api.Client, id uuid.UUID, tok string, accept bool, key string) (*api.AppointmentResponse, error) {
	for attempt := 0; ; attempt++ {
		res, err := c.CancelAppointment(e.ctx, api.CancelAppointmentParams{ID: id, XOrganizationID: e.venue.ID,
			IdempotencyKey: key, UpdatedAt: api.NewOptString(tok), AcceptRefundTerms: api.NewOptBool(accept)})
		if inUseBackoff(err, attempt) {
			continue
		}
		return res, err
	}
}

// runCancelRefunds runs the queued cancel-refund jobs as the server's
// worker would and returns how many there were.
func (e *paySalon) runCancelRefunds(t *testing.T) int {
	t.Helper()
	rows, err := e.pool.Query(e.ctx, `SELECT args::text FROM river_job WHERE kind = 'appointments.cancel_refund' AND state IN ('available', 'scheduled')`)
	require.NoError(t, err)
	var all []string
	for rows.Next() {
		var a string
		require.NoError(t, rows.Scan(&a))
		all = append(all, a)
	}
	require.NoError(t, rows.Err())
	for _, raw := range all {
		var a appointments.CancelRefundArgs
		require.NoError(t, json.Unmarshal([]byte(raw), &a))
		_, err := appointments.RefundCancelled(e.ctx, e.svc, a)
		require.NoError(t, err)
	}
	return len(all)
}

// TestMemberCancelAcceptingRefundTerms: a member's cancel of an appointment
// paid online is refused (422 REFUND_REQUIRED, nothing changed) unless it
// accepts the refund the preview shows: the deposit less the service's fee
// inside its window. Ten concurrent retries of the accepting cancel (and
// ten more with fresh keys) cancel once and refund once: one refund row,
// one Stripe refund with its attempt row, one refund.succeeded, one audit
// entry; the queued job run afterwards finds the refund made.
func TestMemberCancelAcceptingRefundTerms(t *testing.T) {
	e := newPaySalon(t)
	c, op := e.studio.client, e.op
	// A 30 DKK fee inside 96 hours: the appointment is 3 days away.
	c.Service.UpdateOne(e.massage).SetCancelFeeMinor(3000).SetCancelWindowHours(96).ExecX(op)

	res, err := e.checkout(e.member, e.at(9, 0), 100, "pm_card_visa", uuid.NewString())
	require.NoError(t, err)
	ap := res.Data.Appointment
	require.Equal(t, api.AppointmentStatusBooked, ap.Status)
	require.Equal(t, int64(10000), ap.AmountPaidMinor)

	pv, err := e.member.PreviewAppointmentCancel(e.ctx, api.PreviewAppointmentCancelParams{ID: ap.ID})
	require.NoError(t, err)
	require.False(t, pv.Data.CanCancel)
	require.Equal(t, api.AppointmentCancelPreviewBlockedReasonRefundRequired, pv.Data.BlockedReason.Value)
	q, ok := pv.Data.Refund.Get()
	require.True(t, ok, "the preview shows the refund")
	require.Equal(t, api.AppointmentRefundQuoteScopeAppointment, q.Scope)
	require.Equal(t, int64(10000), q.PaidMinor)
	require.Equal(t, int64(3000), q.FeeWithheldMinor)
	require.Equal(t, int64(7000), q.AmountMinor)
	require.InDelta(t, 70.0, q.Amount, 1e-9)
	require.True(t, q.Available)
	require.True(t, q.UnavailableReason.Null)

	// Without accepting: refused, nothing changed.
	_, err = e.cancelPaid(e.member, ap.ID, ap.UpdatedAt, false, uuid.NewString())
	requireErr(t, err, http.StatusUnprocessableEntity, "REFUND_REQUIRED")
	require.Equal(t, entappointment.StatusBooked, c.Appointment.GetX(op, ap.ID).Status)
	require.Zero(t, c.Refund.Query().CountX(op))

	// Ten concurrent retries under one key.
	key := uuid.NewString()
	var wg sync.WaitGroup
	answers := make([]*api.AppointmentResponse, 10)
	errs := make([]error, 10)
	for i := range 10 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			answers[i], errs[i] = e.cancelPaid(e.member, ap.ID, ap.UpdatedAt, true, key)
		}()
	}
	wg.Wait()
	for i := range 10 {
		require.NoError(t, errs[i])
		got := answers[i].Data
		require.Equal(t, api.AppointmentStatusCancelled, got.Status)
		rf, ok := got.Refund.Get()
		require.True(t, ok, "every answer (the first and its replays) carries the refund")
		require.Equal(t, api.AppointmentCancelRefundStatusSucceeded, rf.Status)
		require.Equal(t, int64(7000), rf.AmountMinor)
		require.Equal(t, int64(3000), rf.FeeWithheldMinor)
	}
	// Ten more with fresh keys: the appointment moved on.
	for range 10 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, err := e.cancelPaid(e.member, ap.ID, ap.UpdatedAt, true, uuid.NewString())
			es := errorOf(t, err)
			require.Contains(t, []string{"STALE_TARGET", "NOT_CANCELLABLE"}, es.Response.Error.Code)
		}()
	}
	wg.Wait()

	done := c.Appointment.GetX(op, ap.ID)
	require.Equal(t, entappointment.StatusCancelled, done.Status)
	require.Equal(t, int64(3000), *done.CancelFeeMinor, "the fee is recorded, withheld from the payment")
	rows := c.Refund.Query().AllX(op)
	require.Len(t, rows, 1, "one refund")
	require.Equal(t, int64(7000), rows[0].AmountMinor)
	require.Equal(t, refund.StatusSucceeded, rows[0].Status)
	require.Len(t, e.fake.Refunds(), 1, "one Stripe refund")
	require.Equal(t, 1, c.PaymentAttempt.Query().Where(paymentattempt.PurposeEQ(paymentattempt.PurposeRefund),
		paymentattempt.SubjectID(rows[0].ID)).CountX(op), "the Stripe refund is an attempt row")
	pay := c.Payment.GetX(op, rows[0].PaymentID)
	require.Equal(t, payment.StatusPartiallyRefunded, pay.Status)
	require.Equal(t, 1, e.events(t, "refund.succeeded"))
	require.Equal(t, 1, e.events(t, "appointment.cancelled"))
	ev := c.Event.Query().Where(event.Type("appointment.cancelled")).OnlyX(op)
	require.EqualValues(t, 7000, ev.Payload["refund_minor"])
	require.Equal(t, 1, c.AuditLog.Query().Where(auditlog.Action("payment.refunded")).CountX(op))
	require.Equal(t, 1, c.AuditLog.Query().Where(auditlog.Action("appointment.cancelled")).CountX(op))

	// The job queued with the cancel finds the refund made.
	require.Equal(t, 1, e.runCancelRefunds(t))
	require.Equal(t, 1, c.Refund.Query().CountX(op))
	require.Len(t, e.fake.Refunds(), 1)
}

// TestMemberCancelRefundRefusals: a payment that cannot go back to its card
// and a cutoff both refuse the accepting cancel, nothing changed; a fee
// above the deposit keeps it all (refund status none).
func TestMemberCancelRefundRefusals(t *testing.T) {
	e := newPaySalon(t)
	c, op := e.studio.client, e.op
	res, err := e.checkout(e.member, e.at(9, 0), 100, "pm_card_visa", uuid.NewString())
	require.NoError(t, err)
	ap := res.Data.Appointment

	// Card payments switched off since: refused with the reason.
	c.VenuePayments.Update().ClearAccountID().ExecX(op)
	pv, err := e.member.PreviewAppointmentCancel(e.ctx, api.PreviewAppointmentCancelParams{ID: ap.ID})
	require.NoError(t, err)
	require.False(t, pv.Data.Refund.Value.Available)
	require.Equal(t, api.AppointmentRefundQuoteUnavailableReasonCardRefundUnavailable, pv.Data.Refund.Value.UnavailableReason.Value)
	_, err = e.cancelPaid(e.member, ap.ID, ap.UpdatedAt, true, uuid.NewString())
	es := requireErr(t, err, http.StatusUnprocessableEntity, "REFUND_REQUIRED")
	require.Equal(t, "card_refund_unavailable", es.Response.Error.Details.Reason.Value)
	require.Equal(t, entappointment.StatusBooked, c.Appointment.GetX(op, ap.ID).Status)
	c.VenuePayments.Update().SetAccountID(payAccount).ExecX(op)

	// Inside the self-service cutoff accepting does not help.
	c.AppointmentPolicy.Update().SetSelfServiceCutoffHours(100).ExecX(op)
	pv, err = e.member.PreviewAppointmentCancel(e.ctx, api.PreviewAppointmentCancelParams{ID: ap.ID})
	require.NoError(t, err)
	require.Equal(t, api.AppointmentCancelPreviewBlockedReasonSelfServiceCutoff, pv.Data.BlockedReason.Value)
	_, err = e.cancelPaid(e.member, ap.ID, ap.UpdatedAt, true, uuid.NewString())
	requireErr(t, err, http.StatusUnprocessableEntity, "SELF_SERVICE_CUTOFF")
	c.AppointmentPolicy.Update().ClearSelfServiceCutoffHours().ExecX(op)

	// A fee above the deposit keeps all of it.
	c.Service.UpdateOne(e.massage).SetCancelFeeMinor(15000).SetCancelWindowHours(96).ExecX(op)
	got, err := e.cancelPaid(e.member, ap.ID, ap.UpdatedAt, true, uuid.NewString())
	require.NoError(t, err)
	rf := got.Data.Refund.Value
	require.Equal(t, api.AppointmentCancelRefundStatusNone, rf.Status)
	require.Zero(t, rf.AmountMinor)
	require.Equal(t, int64(10000), rf.FeeWithheldMinor)
	require.Zero(t, c.Refund.Query().CountX(op))
	require.Empty(t, e.fake.Refunds())
	require.Zero(t, e.runCancelRefunds(t), "nothing to refund, nothing queued")
}

// TestVisitCancelAcceptingRefundTerms: a visit paid online is cancelled by
// the member only by accepting the venue's confirmed grouped-visit terms
// (none confirmed: REFUND_REQUIRED, reason no_refund_terms); the whole
// payment less fees goes back once.
func TestVisitCancelAcceptingRefundTerms(t *testing.T) {
	e := newPaySalon(t)
	c, op := e.studio.client, e.op
	vres, err := e.member.CheckoutAppointmentVisit(e.ctx, &api.VisitCheckoutRequest{
		Services:  []api.VisitServiceRequest{{ServiceID: e.massage.ID}, {ServiceID: e.nails.ID}},
		StartTime: e.at(11, 0), ExpectedTotalPriceAmount: 650, ExpectedAmountDueAtBooking: 300, ExpectedCurrency: "DKK",
		PaymentMethodID: api.NewOptString("pm_card_visa")},
		api.CheckoutAppointmentVisitParams{XOrganizationID: e.venue.ID, IdempotencyKey: uuid.New()})
	require.NoError(t, err)
	v := vres.Data.Visit
	require.Equal(t, api.VisitStatusBooked, v.Status)
	cancel := func(accept bool) (*api.VisitResponse, error) {
		return e.member.CancelAppointmentVisit(e.ctx, api.CancelAppointmentVisitParams{VisitId: v.ID, XOrganizationID: e.venue.ID,
			IdempotencyKey: uuid.NewString(), UpdatedAt: api.NewOptString(v.UpdatedAt), AcceptRefundTerms: api.NewOptBool(accept)})
	}

	pv, err := e.member.PreviewAppointmentCancel(e.ctx, api.PreviewAppointmentCancelParams{ID: v.Appointments[0].ID})
	require.NoError(t, err)
	q := pv.Data.Refund.Value
	require.Equal(t, api.AppointmentRefundQuoteScopeVisit, q.Scope)
	require.Equal(t, int64(30000), q.AmountMinor)
	require.Equal(t, "Full refund up to 24 hours before.", q.Terms.Value)
	require.True(t, q.Available)

	_, err = cancel(false)
	requireErr(t, err, http.StatusUnprocessableEntity, "REFUND_REQUIRED")

	// No confirmed terms: nothing to accept.
	c.AppointmentPolicy.Update().ClearGroupedVisitRefundTerms().ClearGroupedVisitTermsConfirmedAt().ExecX(op)
	_, err = cancel(true)
	es := requireErr(t, err, http.StatusUnprocessableEntity, "REFUND_REQUIRED")
	require.Equal(t, "no_refund_terms", es.Response.Error.Details.Reason.Value)
	require.Equal(t, entvisit.StatusBooked, c.Visit.GetX(op, v.ID).Status)
	c.AppointmentPolicy.Update().SetGroupedVisitRefundTerms("Full refund up to 24 hours before.").
		SetGroupedVisitTermsConfirmedAt(time.Now()).ExecX(op)

	// The token also goes by the contract's name, expected_updated_at; two
	// different tokens are refused.
	_, err = e.member.CancelAppointmentVisit(e.ctx, api.CancelAppointmentVisitParams{VisitId: v.ID, XOrganizationID: e.venue.ID,
		IdempotencyKey: uuid.NewString(), UpdatedAt: api.NewOptString(v.UpdatedAt),
		ExpectedUpdatedAt: api.NewOptString(time.Now().UTC().Format(time.RFC3339Nano)), AcceptRefundTerms: api.NewOptBool(true)})
	requireErr(t, err, http.StatusBadRequest, "VALIDATION_ERROR")
	require.Equal(t, entvisit.StatusBooked, c.Visit.GetX(op, v.ID).Status)
	got, err := e.member.CancelAppointmentVisit(e.ctx, api.CancelAppointmentVisitParams{VisitId: v.ID, XOrganizationID: e.venue.ID,
		IdempotencyKey: uuid.NewString(), ExpectedUpdatedAt: api.NewOptString(v.UpdatedAt), AcceptRefundTerms: api.NewOptBool(true)})
	require.NoError(t, err)
	require.Equal(t, api.VisitStatusCancelled, got.Data.Status)
	rf := got.Data.Refund.Value
	require.Equal(t, api.AppointmentCancelRefundStatusSucceeded, rf.Status)
	require.Equal(t, int64(30000), rf.AmountMinor)
	for _, ap := range got.Data.Appointments {
		require.Equal(t, api.AppointmentStatusCancelled, ap.Status)
	}
	require.Equal(t, 1, c.Refund.Query().Where(refund.AmountMinor(30000), refund.StatusEQ(refund.StatusSucceeded)).CountX(op))
	require.Len(t, e.fake.Refunds(), 1)
	require.Equal(t, 1, c.AuditLog.Query().Where(auditlog.Action("visit.refund_decided")).CountX(op))
	require.Equal(t, 1, e.runCancelRefunds(t))
	require.Len(t, e.fake.Refunds(), 1, "the job finds the refund made")
}

// TestStaffCancelRefund: staff choose to refund with a cancel; it needs
// their refund permission and a payment made online, refusals change
// nothing, and the refund (whole, no fee) happens once.
func TestStaffCancelRefund(t *testing.T) {
	e := newPaySalon(t)
	c, op := e.studio.client, e.op
	c.Service.UpdateOne(e.massage).SetCancelFeeMinor(3000).SetCancelWindowHours(96).ExecX(op)
	res, err := e.checkout(e.member, e.at(9, 0), 100, "pm_card_visa", uuid.NewString())
	require.NoError(t, err)
	ap := res.Data.Appointment
	act := func(s *api.Client, id uuid.UUID, tok string, action api.AdminAppointmentActionRequestAction, refundIt bool, key string) (*api.AppointmentResponse, error) {
		return s.ActOnAdminAppointment(e.ctx, &api.AdminAppointmentActionRequest{Action: action, ExpectedUpdatedAt: tok,
			RefundPayment: api.NewOptBool(refundIt)}, api.ActOnAdminAppointmentParams{ID: id, IdempotencyKey: api.NewOptString(key)})
	}

	desk := e.bookingsStaff(t)
	_, err = act(desk, ap.ID, ap.UpdatedAt, api.AdminAppointmentActionRequestActionCancel, true, uuid.NewString())
	requireErr(t, err, http.StatusForbidden, "ACCESS_DENIED")
	_, err = act(desk, ap.ID, ap.UpdatedAt, api.AdminAppointmentActionRequestActionCheckIn, true, uuid.NewString())
	requireErr(t, err, http.StatusBadRequest, "VALIDATION_ERROR")
	require.Equal(t, entappointment.StatusBooked, c.Appointment.GetX(op, ap.ID).Status, "nothing changed")

	manager := e.staffClient(t, "manager@pay.example", "bookings.manage", "billing.refunds.full")
	key := uuid.NewString()
	got, err := act(manager, ap.ID, ap.UpdatedAt, api.AdminAppointmentActionRequestActionCancel, true, key)
	require.NoError(t, err)
	require.Equal(t, api.AppointmentStatusCancelled, got.Data.Status)
	rf := got.Data.Refund.Value
	require.Equal(t, api.AppointmentCancelRefundStatusSucceeded, rf.Status)
	require.Equal(t, int64(10000), rf.AmountMinor, "staff give it all back")
	again, err := act(manager, ap.ID, ap.UpdatedAt, api.AdminAppointmentActionRequestActionCancel, true, key)
	require.NoError(t, err, "a retry replays")
	require.Equal(t, rf, again.Data.Refund.Value)
	require.Len(t, e.fake.Refunds(), 1)
	require.Equal(t, payment.StatusRefunded, c.Payment.Query().Where(payment.KindEQ(payment.KindAppointment)).OnlyX(op).Status)

	// Paid at the venue: nothing to refund.
	c.AppointmentPolicy.Update().SetPaymentAtBookingMode(appointmentpolicy.PaymentAtBookingModeVenue).ExecX(op)
	booked, err := e.member.CreateAppointment(e.ctx, &api.AppointmentCreateRequest{ServiceID: e.nails.ID, StartTime: e.at(13, 0)},
		api.CreateAppointmentParams{XOrganizationID: e.venue.ID, IdempotencyKey: uuid.NewString()})
	require.NoError(t, err)
	_, err = act(manager, booked.Data.ID, booked.Data.UpdatedAt, api.AdminAppointmentActionRequestActionCancel, true, uuid.NewString())
	es := requireErr(t, err, http.StatusUnprocessableEntity, "VALIDATION_FAILED")
	require.Equal(t, "not_paid_online", es.Response.Error.Details.Reason.Value)
	require.Equal(t, entappointment.StatusBooked, c.Appointment.GetX(op, booked.Data.ID).Status)
	c.AppointmentPolicy.Update().SetPaymentAtBookingMode(appointmentpolicy.PaymentAtBookingModeOnline).ExecX(op)

	// A whole visit, refunded by staff.
	vres, err := e.member.CheckoutAppointmentVisit(e.ctx, &api.VisitCheckoutRequest{
		Services:  []api.VisitServiceRequest{{ServiceID: e.massage.ID}, {ServiceID: e.nails.ID}},
		StartTime: e.at(14, 0), ExpectedTotalPriceAmount: 650, ExpectedAmountDueAtBooking: 300, ExpectedCurrency: "DKK",
		PaymentMethodID: api.NewOptString("pm_card_visa")},
		api.CheckoutAppointmentVisitParams{XOrganizationID: e.venue.ID, IdempotencyKey: uuid.New()})
	require.NoError(t, err)
	v := vres.Data.Visit
	_, err = act(manager, v.Appointments[0].ID, v.Appointments[0].UpdatedAt, api.AdminAppointmentActionRequestActionCancel, true, uuid.NewString())
	es = requireErr(t, err, http.StatusUnprocessableEntity, "VALIDATION_FAILED")
	require.Equal(t, "visit_payment", es.Response.Error.Details.Reason.Value)
	gone, err := manager.CancelAdminVisit(e.ctx, api.CancelAdminVisitParams{VisitId: v.ID, ExpectedUpdatedAt: api.NewOptString(v.UpdatedAt),
		RefundPayment: api.NewOptBool(true), IdempotencyKey: api.NewOptString(uuid.NewString())})
	require.NoError(t, err)
	require.Equal(t, api.VisitStatusCancelled, gone.Data.Status)
	require.Equal(t, int64(30000), gone.Data.Refund.Value.AmountMinor)
	require.Equal(t, api.AppointmentCancelRefundStatusSucceeded, gone.Data.Refund.Value.Status)
	require.Len(t, e.fake.Refunds(), 2)
	require.Equal(t, 2, e.runCancelRefunds(t))
	require.Len(t, e.fake.Refunds(), 2, "the jobs find the refunds made")
}
