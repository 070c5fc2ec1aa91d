package handlers_test

import (
	"net/http"
	"testing"

	"github.com/google/uuid"
	"github.com/stretchr/testify/require"

	entappointment "github.com/venueplatform/venue/ent/appointment"
	"github.com/venueplatform/venue/ent/appointmentpolicy"
	entvisit "github.com/venueplatform/venue/ent/visit"
	api "github.com/venueplatform/venue/internal/gen/api"
)

// TestAppointmentSettingsUnavailable: a venue that offers classes only, or
// that cannot take card payments yet, may not switch to taking payment at
// booking (403 APPOINTMENT_SETTINGS_UNAVAILABLE, nothing changed), while
// paying at the venue and the other settings stay settable; a venue
// offering appointments with a connected account may.
func TestAppointmentSettingsUnavailable(t *testing.T) {
	e := newPayEnv(t, false, true)
	staff := e.staffClient(t, "settings@unpaid.example", "settings.business")
	patch := func(c *api.Client, m api.AppointmentPoliciesUpdateRequestPaymentAtBookingMode) (*api.AppointmentPoliciesResponse, error) {
		return c.UpdateAppointmentPolicies(e.ctx, &api.AppointmentPoliciesUpdateRequest{
			PaymentAtBookingMode: api.NewOptAppointmentPoliciesUpdateRequestPaymentAtBookingMode(m), SlotIntervalMinutes: api.NewOptInt(30)},
			api.UpdateAppointmentPoliciesParams{})
	}
	offer := func(c *api.Client, m api.BookingOfferingUpdateRequestMode) {
		_, err := c.UpdateBookingOffering(e.ctx, &api.BookingOfferingUpdateRequest{Mode: m}, api.UpdateBookingOfferingParams{})
		require.NoError(t, err)
	}
	// Classes only (the default): refused before the payments are asked.
	for _, m := range []api.AppointmentPoliciesUpdateRequestPaymentAtBookingMode{
		api.AppointmentPoliciesUpdateRequestPaymentAtBookingModeOnline, api.AppointmentPoliciesUpdateRequestPaymentAtBookingModeClientChoice} {
		_, err := patch(staff, m)
		es := requireErr(t, err, http.StatusForbidden, "APPOINTMENT_SETTINGS_UNAVAILABLE")
		require.Equal(t, "appointments_not_offered", es.Response.Error.Details.Reason.Value)
		require.JSONEq(t, `"classes"`, string(es.Response.Error.Details.AdditionalProps["offering_mode"]))
	}
	pol, err := staff.GetAppointmentPolicies(e.ctx)
	require.NoError(t, err)
	require.False(t, pol.Data.RowPresent, "nothing was saved")
	cutoff, err := staff.UpdateAppointmentPolicies(e.ctx, &api.AppointmentPoliciesUpdateRequest{SelfServiceCutoffHours: api.NewOptNilInt(2)},
		api.UpdateAppointmentPoliciesParams{})
	require.NoError(t, err, "the other settings are prepared while classes only are offered")
	require.Equal(t, 2, cutoff.Data.SelfServiceCutoffHours.Value)
	require.Equal(t, "venue", string(cutoff.Data.PaymentAtBookingMode))

	offer(staff, api.BookingOfferingUpdateRequestModeBoth)
	for _, m := range []api.AppointmentPoliciesUpdateRequestPaymentAtBookingMode{
		api.AppointmentPoliciesUpdateRequestPaymentAtBookingModeOnline, api.AppointmentPoliciesUpdateRequestPaymentAtBookingModeClientChoice} {
		_, err := patch(staff, m)
		es := requireErr(t, err, http.StatusForbidden, "APPOINTMENT_SETTINGS_UNAVAILABLE")
		require.Equal(t, "card_payments_unavailable", es.Response.Error.Details.Reason.Value)
	}
	pol, err = staff.GetAppointmentPolicies(e.ctx)
	require.NoError(t, err)
	require.Equal(t, 15, pol.Data.SlotIntervalMinutes, "nothing was saved")
	ok, err := patch(staff, api.AppointmentPoliciesUpdateRequestPaymentAtBookingModeVenue)
	require.NoError(t, err)
	require.Equal(t, 30, ok.Data.SlotIntervalMinutes)

	paid := newPaySalon(t)
	owner := paid.staffClient(t, "settings@paid.example", "settings.business")
	_, err = owner.UpdateAppointmentPolicies(paid.ctx, &api.AppointmentPoliciesUpdateRequest{
		PaymentAtBookingMode: api.NewOptAppointmentPoliciesUpdateRequestPaymentAtBookingMode(api.AppointmentPoliciesUpdateRequestPaymentAtBookingModeClientChoice)},
		api.UpdateAppointmentPoliciesParams{})
	requireErr(t, err, http.StatusForbidden, "APPOINTMENT_SETTINGS_UNAVAILABLE")
	_, err = owner.UpdateBookingOffering(paid.ctx, &api.BookingOfferingUpdateRequest{Mode: api.BookingOfferingUpdateRequestModeAppointments},
		api.UpdateBookingOfferingParams{})
	require.NoError(t, err)
	res, err := owner.UpdateAppointmentPolicies(paid.ctx, &api.AppointmentPoliciesUpdateRequest{
		PaymentAtBookingMode: api.NewOptAppointmentPoliciesUpdateRequestPaymentAtBookingMode(api.AppointmentPoliciesUpdateRequestPaymentAtBookingModeClientChoice)},
		api.UpdateAppointmentPoliciesParams{})
	require.NoError(t, err)
	require.Equal(t, "client_choice", string(res.Data.PaymentAtBookingMode))
}

// TestPaidCancelRefusals: a member may not cancel what was paid online: an
// appointment or a visit (422 REFUND_REQUIRED) or any part of a combo
// package (422 PACKAGE_REQUIRES_STAFF); the cancel preview says so and
// nothing changes; staff cancel the package's visit. An unpaid package
// stays a visit the member cancels whole.
func TestPaidCancelRefusals(t *testing.T) {
	e := newPaySalon(t)
	cancel := func(id uuid.UUID, tok string) (*api.AppointmentResponse, error) {
		return e.member.CancelAppointment(e.ctx, api.CancelAppointmentParams{ID: id, XOrganizationID: e.venue.ID,
			IdempotencyKey: uuid.NewString(), UpdatedAt: api.NewOptString(tok)})
	}
	cancelVisit := func(id uuid.UUID, tok string) (*api.VisitResponse, error) {
		return e.member.CancelAppointmentVisit(e.ctx, api.CancelAppointmentVisitParams{VisitId: id, XOrganizationID: e.venue.ID,
			IdempotencyKey: uuid.NewString(), UpdatedAt: api.NewOptString(tok)})
	}
	preview := func(id uuid.UUID) api.AppointmentCancelPreview {
		p, err := e.member.PreviewAppointmentCancel(e.ctx, api.PreviewAppointmentCancelParams{ID: id})
		require.NoError(t, err)
		return p.Data
	}

	// One appointment, its deposit paid online.
	single, err := e.checkout(e.member, e.at(9, 0), 100, "pm_card_visa", uuid.NewString())
	require.NoError(t, err)
	ap := single.Data.Appointment
	require.Equal(t, api.AppointmentStatusBooked, ap.Status)
	pv := preview(ap.ID)
	require.False(t, pv.CanCancel)
	require.Equal(t, api.AppointmentCancelPreviewBlockedReasonRefundRequired, pv.BlockedReason.Value)
	require.False(t, pv.PackageLinked)
	_, err = cancel(ap.ID, ap.UpdatedAt)
	es := requireErr(t, err, http.StatusUnprocessableEntity, "REFUND_REQUIRED")
	require.JSONEq(t, "10000", string(es.Response.Error.Details.AdditionalProps["paid_minor"]))
	require.Equal(t, entappointment.StatusBooked, e.studio.client.Appointment.GetX(e.op, ap.ID).Status)

	// A visit paid online.
	vres, err := e.member.CheckoutAppointmentVisit(e.ctx, &api.VisitCheckoutRequest{
		Services:  []api.VisitServiceRequest{{ServiceID: e.massage.ID}, {ServiceID: e.nails.ID}},
		StartTime: e.at(11, 0), ExpectedTotalPriceAmount: 650, ExpectedAmountDueAtBooking: 300, ExpectedCurrency: "DKK",
		PaymentMethodID: api.NewOptString("pm_card_visa")},
		api.CheckoutAppointmentVisitParams{XOrganizationID: e.venue.ID, IdempotencyKey: uuid.New()})
	require.NoError(t, err)
	_, err = cancelVisit(vres.Data.Visit.ID, vres.Data.Visit.UpdatedAt)
	requireErr(t, err, http.StatusUnprocessableEntity, "REFUND_REQUIRED")
	require.Equal(t, entvisit.StatusBooked, e.studio.client.Visit.GetX(e.op, vres.Data.Visit.ID).Status)

	// A combo package paid online.
	b := e.spaDay(t)
	pkg, err := e.bundleCheckout(e.member, b.ID, e.at(14, 0), 260, "pm_card_visa", uuid.New())
	require.NoError(t, err)
	v := pkg.Data.Visit
	require.Equal(t, api.VisitStatusBooked, v.Status)
	first := v.Appointments[0]
	pv = preview(first.ID)
	require.True(t, pv.PackageLinked)
	require.True(t, pv.VisitLinked)
	require.Equal(t, api.AppointmentCancelPreviewBlockedReasonPackageRequiresStaff, pv.BlockedReason.Value)
	_, err = cancel(first.ID, first.UpdatedAt)
	requireErr(t, err, http.StatusUnprocessableEntity, "PACKAGE_REQUIRES_STAFF")
	_, err = cancelVisit(v.ID, v.UpdatedAt)
	requireErr(t, err, http.StatusUnprocessableEntity, "PACKAGE_REQUIRES_STAFF")
	require.Equal(t, 2, e.studio.client.Appointment.Query().Where(entappointment.VisitID(v.ID),
		entappointment.StatusEQ(entappointment.StatusBooked)).CountX(e.op), "nothing was cancelled")
	staff := e.bookingsStaff(t)
	done, err := staff.CancelAdminVisit(e.ctx, api.CancelAdminVisitParams{VisitId: v.ID, ExpectedUpdatedAt: api.NewOptString(v.UpdatedAt)})
	require.NoError(t, err)
	require.Equal(t, api.VisitStatusCancelled, done.Data.Status)

	// Paid at the venue, a package is a visit the member cancels whole.
	e.studio.client.AppointmentPolicy.Update().SetPaymentAtBookingMode(appointmentpolicy.PaymentAtBookingModeVenue).ExecX(e.op)
	booked, err := e.member.BookAppointmentBundle(e.ctx, &api.BundleVisitCreateRequest{BundleID: b.ID, StartTime: e.at(14, 0),
		ExpectedTotalPriceAmount: 520, ExpectedAmountDueAtBooking: 0, ExpectedCurrency: "DKK"},
		api.BookAppointmentBundleParams{XOrganizationID: e.venue.ID, IdempotencyKey: uuid.New()})
	require.NoError(t, err)
	pv = preview(booked.Data.Appointments[0].ID)
	require.True(t, pv.PackageLinked)
	require.Equal(t, api.AppointmentCancelPreviewBlockedReasonGroupedVisitRequiresVisitAction, pv.BlockedReason.Value)
	gone, err := cancelVisit(booked.Data.ID, booked.Data.UpdatedAt)
	require.NoError(t, err)
	require.Equal(t, api.VisitStatusCancelled, gone.Data.Status)
}
