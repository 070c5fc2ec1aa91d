package handlers_test

import (
	"net/http"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/stretchr/testify/require"

	"github.com/venueplatform/venue/ent"
	"github.com/venueplatform/venue/ent/appointmentpolicy"
	entvisit "github.com/venueplatform/venue/ent/visit"
	api "github.com/venueplatform/venue/internal/gen/api"
)

// TestServiceBundleChanges: staff change a bundle's price, name and items
// (the list replaced whole) and refuse an empty patch, one item, or a
// foreign service with nothing changed; a bundle no visit names is removed
// with its items, one that a visit names is only deactivated; another
// venue's bundle is 404.
func TestServiceBundleChanges(t *testing.T) {
	e := newSchedEnv(t)
	ctx := e.ctx
	staff := e.staff(t, "manager@studio.example", "bookings.manage")
	plain := e.staff(t, "desk@studio.example")
	svc := func(_, name string, minutes int, price int64) *ent.Service {
		return e.db().Service.Create().SetName(name).SetSlug(name).SetDurationMinutes(minutes).
			SetPriceMinor(price).SetCurrency("DKK").SaveX(e.op)
	}
	cut, colour, wash := svc("", "cut", 45, 40000), svc("", "colour", 90, 90000), svc("", "wash", 15, 10000)
	foreign := e.db().Service.Create().SetName("Other").SetSlug("other").SetDurationMinutes(50).
		SetPriceMinor(60000).SetCurrency("DKK").SaveX(e.otherOp)
	item := func(id uuid.UUID) api.ServiceBundleItemRequest { return api.ServiceBundleItemRequest{ServiceID: id} }
	b, err := staff.CreateServiceBundle(ctx, &api.ServiceBundleCreateRequest{Name: "Cut & colour", PriceAmount: 1000,
		Items: []api.ServiceBundleItemRequest{item(cut.ID), item(colour.ID)}}, api.CreateServiceBundleParams{})
	require.NoError(t, err)
	id := b.Data.ID

	upd := func(req api.ServiceBundleUpdateRequest) (*api.ServiceBundleResponse, error) {
		return staff.UpdateServiceBundle(ctx, &req, api.UpdateServiceBundleParams{BundleId: id, IdempotencyKey: api.NewOptString(uuid.NewString())})
	}
	got, err := upd(api.ServiceBundleUpdateRequest{Name: api.NewOptString("Full service"), PriceAmount: api.NewOptFloat64(1200.5),
		Items: []api.ServiceBundleItemRequest{item(wash.ID), item(cut.ID), item(colour.ID)}})
	require.NoError(t, err)
	require.Equal(t, "Full service", got.Data.Name)
	require.Equal(t, int64(120050), got.Data.PriceMinor)
	require.Len(t, got.Data.Items, 3)
	require.Equal(t, wash.ID, got.Data.Items[0].ServiceID)
	require.Equal(t, 150, got.Data.TotalDurationMinutes)
	require.Equal(t, 3, e.db().ServiceBundleItem.Query().CountX(e.op))

	_, err = upd(api.ServiceBundleUpdateRequest{})
	requireErr(t, err, http.StatusBadRequest, "VALIDATION_ERROR")
	_, err = upd(api.ServiceBundleUpdateRequest{Items: []api.ServiceBundleItemRequest{item(cut.ID), item(cut.ID)}})
	requireErr(t, err, http.StatusBadRequest, "VALIDATION_ERROR")
	_, err = upd(api.ServiceBundleUpdateRequest{Items: []api.ServiceBundleItemRequest{item(cut.ID), item(foreign.ID)}})
	requireErr(t, err, http.StatusNotFound, "NOT_FOUND")
	_, err = plain.UpdateServiceBundle(ctx, &api.ServiceBundleUpdateRequest{Name: api.NewOptString("x")}, api.UpdateServiceBundleParams{BundleId: id})
	requireErr(t, err, http.StatusForbidden, "ACCESS_DENIED")
	after := e.db().ServiceBundle.GetX(e.op, id)
	require.Equal(t, "Full service", after.Name, "refusals change nothing")
	require.Equal(t, 3, e.db().ServiceBundleItem.Query().CountX(e.op))

	other := e.db().ServiceBundle.Create().SetName("Theirs").SetPriceMinor(100).SetCurrency("DKK").SaveX(e.otherOp)
	_, err = staff.UpdateServiceBundle(ctx, &api.ServiceBundleUpdateRequest{Name: api.NewOptString("x")}, api.UpdateServiceBundleParams{BundleId: other.ID})
	requireErr(t, err, http.StatusNotFound, "NOT_FOUND")
	_, err = staff.DeleteServiceBundle(ctx, api.DeleteServiceBundleParams{BundleId: other.ID})
	requireErr(t, err, http.StatusNotFound, "NOT_FOUND")

	// A bundle a visit names is deactivated, not removed.
	m := e.db().Member.Query().FirstX(e.op)
	e.db().Visit.Create().SetMemberID(m.ID).SetStartsAt(time.Now()).SetEndsAt(time.Now()).SetTotalPriceMinor(120050).
		SetCurrency("DKK").SetBundleID(id).SetStatus(entvisit.StatusCancelled).ExecX(e.op)
	del, err := staff.DeleteServiceBundle(ctx, api.DeleteServiceBundleParams{BundleId: id})
	require.NoError(t, err)
	require.True(t, del.Data.Deactivated.Value)
	require.False(t, e.db().ServiceBundle.GetX(e.op, id).IsActive)

	spare, err := staff.CreateServiceBundle(ctx, &api.ServiceBundleCreateRequest{Name: "Spare", PriceAmount: 10,
		Items: []api.ServiceBundleItemRequest{item(cut.ID), item(wash.ID)}}, api.CreateServiceBundleParams{})
	require.NoError(t, err)
	del, err = staff.DeleteServiceBundle(ctx, api.DeleteServiceBundleParams{BundleId: spare.Data.ID})
	require.NoError(t, err)
	require.False(t, del.Data.Deactivated.Value)
	require.Zero(t, e.db().ServiceBundle.Query().Where().CountX(e.op)-1, "only the deactivated bundle is left")
	require.Equal(t, 3, e.db().ServiceBundleItem.Query().CountX(e.op), "the removed bundle's items went with it")
	require.Equal(t, 1, e.db().ServiceBundle.Query().CountX(e.otherOp))
}

// TestVariantDeposit: staff set a variant's own deposit over REST (more
// than its price is 400 and nothing changes; null inherits the service's
// again), and the member's checkout quote of that variant takes it.
func TestVariantDeposit(t *testing.T) {
	e := newPaySalon(t)
	staff := e.bookingsStaff(t)
	v, err := staff.CreateServiceVariant(e.ctx, &api.ServiceVariantCreateRequest{Name: "Long", DurationMinutes: 90, PriceAmount: 600,
		DepositAmount: api.NewOptNilFloat64(150)}, api.CreateServiceVariantParams{ID: e.massage.ID})
	require.NoError(t, err)
	require.Equal(t, int64(15000), v.Data.DepositMinor.Value)
	require.Equal(t, 150.0, v.Data.DepositAmount.Value)
	_, err = staff.CreateServiceVariant(e.ctx, &api.ServiceVariantCreateRequest{Name: "Odd", DurationMinutes: 30, PriceAmount: 50,
		DepositAmount: api.NewOptNilFloat64(60)}, api.CreateServiceVariantParams{ID: e.massage.ID})
	requireErr(t, err, http.StatusBadRequest, "VALIDATION_ERROR")
	_, err = staff.UpdateServiceVariant(e.ctx, &api.ServiceVariantUpdateRequest{PriceAmount: api.NewOptFloat64(100)},
		api.UpdateServiceVariantParams{ID: e.massage.ID, VariantId: v.Data.ID})
	requireErr(t, err, http.StatusBadRequest, "VALIDATION_ERROR")
	require.Equal(t, int64(60000), e.studio.client.ServiceVariant.GetX(e.op, v.Data.ID).PriceMinor, "nothing changed")

	quote := func() *api.AppointmentCheckoutQuoteResponse {
		q, err := e.member.GetAppointmentCheckoutQuote(e.ctx, api.GetAppointmentCheckoutQuoteParams{XOrganizationID: e.venue.ID,
			ServiceID: e.massage.ID, VariantID: api.NewOptUUID(v.Data.ID), StartTime: e.at(10, 0)})
		require.NoError(t, err)
		return q
	}
	q := quote()
	require.Equal(t, int64(60000), q.Data.PriceMinor)
	require.Equal(t, int64(15000), q.Data.AmountDueAtBookingMinor, "the variant's own deposit")
	require.Equal(t, int64(45000), q.Data.RemainingBalanceMinor)

	cleared, err := staff.UpdateServiceVariant(e.ctx, &api.ServiceVariantUpdateRequest{DepositAmount: api.OptNilFloat64{Set: true, Null: true}},
		api.UpdateServiceVariantParams{ID: e.massage.ID, VariantId: v.Data.ID})
	require.NoError(t, err)
	require.True(t, cleared.Data.DepositAmount.Null)
	require.Equal(t, int64(10000), quote().Data.AmountDueAtBookingMinor, "the service's deposit applies again")
}

// TestBookBundle: a member lists the venue's active bundles and books one as
// a visit priced at the bundle's price (shared over its services in
// proportion to their prices), all or nothing; payment due at booking is
// 402, changed totals 409 QUOTE_STALE, an inactive bundle 404, a taken
// second service books none; staff cancel the whole visit without a fee.
func TestBookBundle(t *testing.T) {
	e := newPaySalon(t)
	c, op := e.studio.client, e.op
	b := c.ServiceBundle.Create().SetName("Spa day").SetPriceMinor(52000).SetCurrency("DKK").SaveX(op)
	c.ServiceBundleItem.Create().SetBundleID(b.ID).SetServiceID(e.massage.ID).SetPosition(0).ExecX(op)
	c.ServiceBundleItem.Create().SetBundleID(b.ID).SetServiceID(e.nails.ID).SetPosition(1).ExecX(op)
	hidden := c.ServiceBundle.Create().SetName("Old").SetPriceMinor(100).SetCurrency("DKK").SetIsActive(false).SaveX(op)
	c.AppointmentPolicy.Update().SetGroupedVisitsEnabled(false).ExecX(op)

	list, err := e.member.ListAppointmentBundles(e.ctx, api.ListAppointmentBundlesParams{XOrganizationID: e.venue.ID})
	require.NoError(t, err)
	require.Len(t, list.Data, 1)
	require.Equal(t, b.ID, list.Data[0].ID)

	book := func(bundle uuid.UUID, start time.Time, total, due float64) (*api.VisitResponse, error) {
		return e.member.BookAppointmentBundle(e.ctx, &api.BundleVisitCreateRequest{BundleID: bundle, StartTime: start,
			ExpectedTotalPriceAmount: total, ExpectedAmountDueAtBooking: due, ExpectedCurrency: "DKK"},
			api.BookAppointmentBundleParams{XOrganizationID: e.venue.ID, IdempotencyKey: uuid.New()})
	}
	_, err = book(b.ID, e.at(10, 0), 520, 0)
	requireErr(t, err, http.StatusPaymentRequired, "PAYMENT_REQUIRED")
	c.AppointmentPolicy.Update().SetPaymentAtBookingMode(appointmentpolicy.PaymentAtBookingModeVenue).ExecX(op)
	_, err = book(b.ID, e.at(10, 0), 650, 0)
	requireErr(t, err, http.StatusConflict, "QUOTE_STALE")
	_, err = book(hidden.ID, e.at(10, 0), 1, 0)
	requireErr(t, err, http.StatusNotFound, "NOT_FOUND")

	// Someone holds 11:00-11:40: the nails after a 10:00 massage collide.
	blocker := e.memberClient(t, "blocker@pay.example")
	_, err = blocker.CreateAppointment(e.ctx, &api.AppointmentCreateRequest{ServiceID: e.nails.ID, StartTime: e.at(11, 0),
		ProviderID: api.NewOptString(e.provider.ID.String())}, api.CreateAppointmentParams{XOrganizationID: e.venue.ID, IdempotencyKey: uuid.NewString()})
	require.NoError(t, err)
	before := e.count(t, "appointments")
	_, err = book(b.ID, e.at(10, 0), 520, 0)
	es := requireErr(t, err, http.StatusConflict, "SLOT_UNAVAILABLE")
	require.JSONEq(t, "1", string(es.Response.Error.Details.AdditionalProps["service_index"]))
	require.Equal(t, before, e.count(t, "appointments"), "none of the bundle's services is booked")

	v, err := book(b.ID, e.at(13, 0), 520, 0)
	require.NoError(t, err)
	require.Equal(t, b.ID, v.Data.BundleID.Value)
	require.Equal(t, int64(52000), v.Data.TotalPriceMinor)
	require.Len(t, v.Data.Appointments, 2)
	// 520 over 450 + 200: 360 and 160.
	require.Equal(t, int64(36000), v.Data.Appointments[0].PriceMinor)
	require.Equal(t, int64(16000), v.Data.Appointments[1].PriceMinor)
	require.True(t, v.Data.Appointments[1].StartTime.Equal(e.at(14, 0)))

	staff := e.bookingsStaff(t)
	_, err = staff.CancelAdminVisit(e.ctx, api.CancelAdminVisitParams{VisitId: v.Data.ID})
	requireErr(t, err, http.StatusBadRequest, "VALIDATION_ERROR")
	_, err = staff.CancelAdminVisit(e.ctx, api.CancelAdminVisitParams{VisitId: v.Data.ID, ExpectedUpdatedAt: api.NewOptString("2020-01-01T00:00:00.000000Z")})
	requireErr(t, err, http.StatusConflict, "STALE_TARGET")
	moved, err := staff.RescheduleAdminVisit(e.ctx, &api.VisitRescheduleRequest{StartTime: e.at(15, 0), ExpectedUpdatedAt: v.Data.UpdatedAt},
		api.RescheduleAdminVisitParams{VisitId: v.Data.ID})
	require.NoError(t, err)
	require.True(t, moved.Data.StartTime.Equal(e.at(15, 0)))
	require.Equal(t, int64(36000), moved.Data.Appointments[0].PriceMinor, "the bundle's price moves with it")
	done, err := staff.CancelAdminVisit(e.ctx, api.CancelAdminVisitParams{VisitId: v.Data.ID, ExpectedUpdatedAt: api.NewOptString(moved.Data.UpdatedAt)})
	require.NoError(t, err)
	require.Equal(t, api.VisitStatusCancelled, done.Data.Status)
	cancelled := 0
	for _, ap := range done.Data.Appointments {
		require.Contains(t, []api.AppointmentStatus{api.AppointmentStatusCancelled, api.AppointmentStatusRescheduled}, ap.Status)
		if ap.Status == api.AppointmentStatusCancelled {
			cancelled++
			fee := e.studio.client.Appointment.GetX(e.op, ap.ID).CancelFeeMinor
			require.True(t, fee == nil || *fee == 0, "staff cancels carry no fee")
		}
	}
	require.Equal(t, 2, cancelled)
}

// bookingsStaff is a member of staff of the pay salon holding
// bookings.manage.
func (e *paySalon) bookingsStaff(t *testing.T) *api.Client {
	t.Helper()
	email := "desk-" + uuid.NewString()[:8] + "@pay.example"
	s := e.signup(t, email, goodPassword)
	enroll(t, e.authEnv, e.op, email, "staff", "bookings.manage")
	c := e.client(t, s.AccessToken)
	_, err := c.SetActiveOrganization(e.ctx, &api.ActiveOrganizationRequest{OrganizationID: e.venue.ID})
	require.NoError(t, err)
	return c
}
