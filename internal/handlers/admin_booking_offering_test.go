package handlers_test

import (
	"net/http"
	"testing"

	"github.com/stretchr/testify/require"

	api "github.com/venueplatform/venue/internal/gen/api"
)

// TestBookingOfferingResource: the offering carries what follows from its
// mode (business type, operations, surfaces, modules) and the counts of
// active services and providers, on GET and on the PATCH that changes it.
func TestBookingOfferingResource(t *testing.T) {
	e := newSchedEnv(t)
	staff := e.staff(t, "offering@studio.example", "settings.business")
	got, err := staff.GetBookingOffering(e.ctx)
	require.NoError(t, err)
	o := got.Data
	require.Equal(t, api.BookingOfferingModeClasses, o.Mode)
	require.Equal(t, api.BookingOfferingBusinessTypeStudio, o.BusinessType.Value)
	require.True(t, o.Operations.Value.Classes.Enabled)
	require.False(t, o.Operations.Value.Appointments.Enabled)
	require.True(t, o.Operations.Value.Appointments.ManagementEnabled, "a salon prepares its book in every mode")
	require.Equal(t, api.BookingOfferingOperationsAppointmentsVisibilityHidden, o.Operations.Value.Appointments.Visibility)
	require.Zero(t, o.Operations.Value.Appointments.ServiceCount)
	require.False(t, o.VenueSurfaces.Value.Appointments)
	require.True(t, o.VenueSurfaces.Value.CheckIn)
	require.Equal(t, []api.BookingOfferingActiveModulesItem{api.BookingOfferingActiveModulesItemClasses, api.BookingOfferingActiveModulesItemPos}, o.ActiveModules)
	require.False(t, o.RefreshFailed.Set)

	svc := e.db().Service.Create().SetName("Massage").SetSlug("offer-massage").SetDurationMinutes(60).
		SetPriceMinor(50000).SetCurrency("DKK").SaveX(e.op)
	e.db().Service.Create().SetName("Old").SetSlug("offer-old").SetDurationMinutes(30).
		SetPriceMinor(1000).SetCurrency("DKK").SetIsActive(false).SaveX(e.op)
	e.db().ServiceProvider.Create().SetServiceID(svc.ID).SetProviderID(e.instructor).ExecX(e.op)

	both, err := staff.UpdateBookingOffering(e.ctx, &api.BookingOfferingUpdateRequest{Mode: api.BookingOfferingUpdateRequestModeBoth},
		api.UpdateBookingOfferingParams{})
	require.NoError(t, err)
	o = both.Data
	require.Equal(t, api.BookingOfferingBusinessTypeHybrid, o.BusinessType.Value)
	require.Equal(t, api.BookingOfferingBookingModeBoth, o.BookingMode.Value)
	require.Equal(t, 1, o.Operations.Value.Appointments.ServiceCount, "inactive services are not counted")
	require.Equal(t, 1, o.Operations.Value.Appointments.ProviderCount)
	require.Equal(t, []api.BookingOfferingActiveModulesItem{api.BookingOfferingActiveModulesItemClasses,
		api.BookingOfferingActiveModulesItemAppointments, api.BookingOfferingActiveModulesItemPos}, o.ActiveModules)

	salon, err := staff.UpdateBookingOffering(e.ctx, &api.BookingOfferingUpdateRequest{Mode: api.BookingOfferingUpdateRequestModeAppointments},
		api.UpdateBookingOfferingParams{})
	require.NoError(t, err)
	o = salon.Data
	require.Equal(t, api.BookingOfferingBusinessTypeSalon, o.BusinessType.Value)
	require.False(t, o.VenueSurfaces.Value.Schedule)
	require.False(t, o.VerticalModules.Value.Classes)
	require.True(t, o.VerticalModules.Value.Appointments)
	read, err := staff.GetBookingOffering(e.ctx)
	require.NoError(t, err)
	require.Equal(t, o, read.Data)
}

// TestAppointmentReadinessQueryFailed: a readiness report that cannot be
// read is 503 QUERY_FAILED with no internal text, and reads again once the
// database answers.
func TestAppointmentReadinessQueryFailed(t *testing.T) {
	e := newSchedEnv(t)
	staff := e.staff(t, "ready@studio.example", "bookings.manage")
	_, err := e.pool.Exec(e.ctx, `ALTER TABLE services RENAME TO services_away`)
	require.NoError(t, err)
	_, err = staff.GetAppointmentReadiness(e.ctx)
	es := requireErr(t, err, http.StatusServiceUnavailable, "QUERY_FAILED")
	require.NotContains(t, es.Response.Error.Message, "services")
	_, err = e.pool.Exec(e.ctx, `ALTER TABLE services_away RENAME TO services`)
	require.NoError(t, err)
	got, err := staff.GetAppointmentReadiness(e.ctx)
	require.NoError(t, err)
	require.Equal(t, api.AppointmentReadinessStatusIncomplete, got.Data.Status)
	require.Contains(t, got.Data.Missing, "active_service")
}
