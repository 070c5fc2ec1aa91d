package handlers_test

import (
	"net/http"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/stretchr/testify/require"

	api "github.com/venueplatform/venue/internal/gen/api"
)

// TestStaffSetsUpASalon: a staff member with bookings.manage and
// settings.business sets up a service's variant, a provider's assignment,
// working hours and time off, the policies and the offering mode over REST;
// the readiness report follows each step; bad input changes nothing; a
// member of staff without the permission, and another venue's ids, are
// refused.
func TestStaffSetsUpASalon(t *testing.T) {
	e := newSchedEnv(t)
	ctx := e.ctx
	staff := e.staff(t, "manager@studio.example", "bookings.manage", "settings.business", "staff.view")
	plain := e.staff(t, "desk@studio.example")
	svc := e.db().Service.Create().SetName("Facial").SetSlug("facial").SetDurationMinutes(50).
		SetPriceMinor(60000).SetCurrency("DKK").SaveX(e.op)
	provider := e.instructor

	ready, err := staff.GetAppointmentReadiness(ctx)
	require.NoError(t, err)
	require.Equal(t, api.AppointmentReadinessStatusIncomplete, ready.Data.Status)
	require.Equal(t, []string{"appointments_not_offered", "service_with_provider", "provider_working_hours"}, ready.Data.Missing)

	// Variants.
	v, err := staff.CreateServiceVariant(ctx, &api.ServiceVariantCreateRequest{Name: "Express", DurationMinutes: 30, PriceAmount: 399.5},
		api.CreateServiceVariantParams{ID: svc.ID})
	require.NoError(t, err)
	require.Equal(t, int64(39950), v.Data.PriceMinor)
	require.InDelta(t, 399.5, v.Data.PriceAmount, 0.001)
	require.Equal(t, "DKK", v.Data.Currency)
	_, err = staff.UpdateServiceVariant(ctx, &api.ServiceVariantUpdateRequest{}, api.UpdateServiceVariantParams{ID: svc.ID, VariantId: v.Data.ID})
	requireErr(t, err, http.StatusBadRequest, "VALIDATION_ERROR")
	upd, err := staff.UpdateServiceVariant(ctx, &api.ServiceVariantUpdateRequest{DurationMinutes: api.NewOptInt(35)},
		api.UpdateServiceVariantParams{ID: svc.ID, VariantId: v.Data.ID})
	require.NoError(t, err)
	require.Equal(t, 35, upd.Data.DurationMinutes)
	list, err := staff.ListServiceVariants(ctx, api.ListServiceVariantsParams{ID: svc.ID})
	require.NoError(t, err)
	require.Len(t, list.Data, 1)
	_, err = plain.ListServiceVariants(ctx, api.ListServiceVariantsParams{ID: svc.ID})
	es := requireErr(t, err, http.StatusForbidden, "ACCESS_DENIED")
	require.Equal(t, "missing_permission", es.Response.Error.Details.Reason.Or(""))
	_, err = staff.ListServiceVariants(ctx, api.ListServiceVariantsParams{ID: uuid.New()})
	requireErr(t, err, http.StatusNotFound, "NOT_FOUND")

	// Provider assignment: custom price, then back to inheriting.
	as, err := staff.AssignServiceProvider(ctx, &api.ServiceProviderRequest{IsPrimary: api.NewOptBool(true),
		CustomPriceAmount: api.NewOptNilFloat64(650)}, api.AssignServiceProviderParams{ID: svc.ID, ProviderId: provider})
	require.NoError(t, err)
	require.True(t, as.Data.IsPrimary)
	require.Equal(t, int64(65000), as.Data.CustomPriceMinor.Value)
	_, err = staff.UpdateServiceProvider(ctx, &api.ServiceProviderRequest{}, api.UpdateServiceProviderParams{ID: svc.ID, ProviderId: provider})
	requireErr(t, err, http.StatusBadRequest, "VALIDATION_ERROR")
	var null api.OptNilFloat64
	null.SetToNull()
	as, err = staff.UpdateServiceProvider(ctx, &api.ServiceProviderRequest{CustomPriceAmount: null},
		api.UpdateServiceProviderParams{ID: svc.ID, ProviderId: provider})
	require.NoError(t, err)
	require.True(t, as.Data.CustomPriceMinor.Null)
	require.True(t, as.Data.CustomPriceAmount.Null)
	_, err = staff.UpdateServiceProvider(ctx, &api.ServiceProviderRequest{IsActive: api.NewOptBool(true)},
		api.UpdateServiceProviderParams{ID: svc.ID, ProviderId: e.otherInstr})
	requireErr(t, err, http.StatusNotFound, "NOT_FOUND")
	_, err = staff.AssignServiceProvider(ctx, &api.ServiceProviderRequest{}, api.AssignServiceProviderParams{ID: svc.ID, ProviderId: e.otherInstr})
	requireErr(t, err, http.StatusNotFound, "NOT_FOUND")
	mine, err := staff.ListStaffServices(ctx, api.ListStaffServicesParams{ProviderId: provider})
	require.NoError(t, err)
	require.Len(t, mine.Data, 1)
	require.Equal(t, "Facial", mine.Data[0].ServiceName)
	require.Len(t, mine.Data[0].Variants, 1)

	// Working hours: overlapping spans and a span ending before it starts change nothing.
	_, err = staff.SetProviderWorkingHours(ctx, &api.WorkingHoursRequest{Hours: []api.WorkingHoursSpan{
		{Weekday: 1, Start: "09:00", End: "12:00"}, {Weekday: 1, Start: "11:00", End: "15:00"}}},
		api.SetProviderWorkingHoursParams{ProviderId: provider})
	requireErr(t, err, http.StatusBadRequest, "VALIDATION_ERROR")
	_, err = staff.SetProviderWorkingHours(ctx, &api.WorkingHoursRequest{Hours: []api.WorkingHoursSpan{
		{Weekday: 2, Start: "12:00", End: "09:00"}}}, api.SetProviderWorkingHoursParams{ProviderId: provider})
	requireErr(t, err, http.StatusBadRequest, "VALIDATION_ERROR")
	wh, err := staff.GetProviderWorkingHours(ctx, api.GetProviderWorkingHoursParams{ProviderId: provider})
	require.NoError(t, err)
	require.Empty(t, wh.Data.Hours)
	wh, err = staff.SetProviderWorkingHours(ctx, &api.WorkingHoursRequest{Hours: []api.WorkingHoursSpan{
		{Weekday: 1, Start: "09:00", End: "12:00"}, {Weekday: 1, Start: "13:00", End: "24:00"}}},
		api.SetProviderWorkingHoursParams{ProviderId: provider})
	require.NoError(t, err)
	require.Len(t, wh.Data.Hours, 2)
	require.Equal(t, "24:00", wh.Data.Hours[1].End)

	// Time off.
	start := e.today.AddDate(0, 0, 7).Add(9 * time.Hour)
	_, err = staff.AddProviderTimeOff(ctx, &api.TimeOffRequest{StartsAt: start, EndsAt: start.Add(-time.Hour)},
		api.AddProviderTimeOffParams{ProviderId: provider})
	requireErr(t, err, http.StatusBadRequest, "INVALID_RANGE")
	off, err := staff.AddProviderTimeOff(ctx, &api.TimeOffRequest{StartsAt: start, EndsAt: start.Add(8 * time.Hour),
		Reason: api.NewOptString("course")}, api.AddProviderTimeOffParams{ProviderId: provider})
	require.NoError(t, err)
	offs, err := staff.ListProviderTimeOff(ctx, api.ListProviderTimeOffParams{ProviderId: provider})
	require.NoError(t, err)
	require.Len(t, offs.Data, 1)
	_, err = staff.DeleteProviderTimeOff(ctx, api.DeleteProviderTimeOffParams{ProviderId: provider, TimeOffId: off.Data.ID})
	require.NoError(t, err)
	_, err = staff.DeleteProviderTimeOff(ctx, api.DeleteProviderTimeOffParams{ProviderId: provider, TimeOffId: off.Data.ID})
	requireErr(t, err, http.StatusNotFound, "NOT_FOUND")

	// Policies and offering.
	pol, err := staff.GetAppointmentPolicies(ctx)
	require.NoError(t, err)
	require.False(t, pol.Data.RowPresent)
	require.Equal(t, 15, pol.Data.SlotIntervalMinutes)
	pol, err = staff.UpdateAppointmentPolicies(ctx, &api.AppointmentPoliciesUpdateRequest{SlotIntervalMinutes: api.NewOptInt(30),
		SelfServiceCutoffHours: api.NewOptNilInt(4)}, api.UpdateAppointmentPoliciesParams{})
	require.NoError(t, err)
	require.True(t, pol.Data.RowPresent)
	require.Equal(t, 30, pol.Data.SlotIntervalMinutes)
	require.Equal(t, 4, pol.Data.SelfServiceCutoffHours.Value)
	_, err = staff.UpdateAppointmentPolicies(ctx, &api.AppointmentPoliciesUpdateRequest{}, api.UpdateAppointmentPoliciesParams{})
	requireErr(t, err, http.StatusBadRequest, "VALIDATION_ERROR")
	off2, err := staff.UpdateBookingOffering(ctx, &api.BookingOfferingUpdateRequest{Mode: api.BookingOfferingUpdateRequestModeBoth},
		api.UpdateBookingOfferingParams{})
	require.NoError(t, err)
	require.Equal(t, api.BookingOfferingModeBoth, off2.Data.Mode)
	require.Equal(t, e.venue.ID, off2.Data.OrganizationID)

	ready, err = staff.GetAppointmentReadiness(ctx)
	require.NoError(t, err)
	require.Equal(t, api.AppointmentReadinessStatusReady, ready.Data.Status)
	require.Empty(t, ready.Data.Missing)

	// Removing the provider makes the venue incomplete again.
	_, err = staff.RemoveServiceProvider(ctx, api.RemoveServiceProviderParams{ID: svc.ID, ProviderId: provider})
	require.NoError(t, err)
	ready, err = staff.GetAppointmentReadiness(ctx)
	require.NoError(t, err)
	require.Equal(t, []string{"service_with_provider", "provider_working_hours"}, ready.Data.Missing)
	dv, err := staff.DeleteServiceVariant(ctx, api.DeleteServiceVariantParams{ID: svc.ID, VariantId: v.Data.ID})
	require.NoError(t, err)
	require.False(t, dv.Data.Deactivated.Value)
	require.True(t, e.audited(t, "service_variant.created", "service_variant:"+v.Data.ID.String()))
}

// TestStaffRooms: settings.business creates and changes rooms; lowering a
// room's capacity under an upcoming class's saves the room and answers 409
// ROOM_CAPACITY_PARTIAL with saved true; an empty patch changes nothing.
func TestStaffRooms(t *testing.T) {
	e := newSchedEnv(t)
	ctx := e.ctx
	staff := e.staff(t, "owner2@studio.example", "settings.business")
	created, err := staff.CreateAdminRoom(ctx, &api.AdminRoomCreateRequest{Name: "Treatment 1", Capacity: 2,
		RoomType: api.NewOptString("treatment")}, api.CreateAdminRoomParams{})
	require.NoError(t, err)
	require.Equal(t, e.location, created.Data.LocationID)
	require.True(t, created.Data.IsActive)
	rooms, err := staff.ListAdminRooms(ctx)
	require.NoError(t, err)
	require.Len(t, rooms.Data, 2)

	_, err = staff.UpdateAdminRoom(ctx, &api.AdminRoomUpdateRequest{}, api.UpdateAdminRoomParams{RoomId: e.room})
	requireErr(t, err, http.StatusBadRequest, "VALIDATION_ERROR")
	// The studio's room holds the 20-place classes of the schedule: 10 is below them.
	start := e.today.AddDate(0, 0, 3).Add(9 * time.Hour)
	e.db().ClassInstance.Create().SetClassTypeID(e.classType).SetRoomID(e.room).SetLocationID(e.location).
		SetStartTime(start).SetEndTime(start.Add(time.Hour)).SetCapacity(20).ExecX(e.op)
	_, err = staff.UpdateAdminRoom(ctx, &api.AdminRoomUpdateRequest{Capacity: api.NewOptInt(10)}, api.UpdateAdminRoomParams{RoomId: e.room})
	es := requireErr(t, err, http.StatusConflict, "ROOM_CAPACITY_PARTIAL")
	require.JSONEq(t, "true", string(es.Response.Error.Details.AdditionalProps["saved"]))
	got, err := staff.GetAdminRoom(ctx, api.GetAdminRoomParams{RoomId: e.room})
	require.NoError(t, err)
	require.Equal(t, 10, got.Data.Capacity, "the room was saved")
	ok, err := staff.UpdateAdminRoom(ctx, &api.AdminRoomUpdateRequest{Name: api.NewOptString("Studio One")}, api.UpdateAdminRoomParams{RoomId: e.room})
	require.NoError(t, err)
	require.Equal(t, "Studio One", ok.Data.Name)
	_, err = staff.GetAdminRoom(ctx, api.GetAdminRoomParams{RoomId: uuid.New()})
	requireErr(t, err, http.StatusNotFound, "NOT_FOUND")
}
