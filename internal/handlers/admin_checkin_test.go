package handlers_test

import (
	"net/http"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/stretchr/testify/require"

	"github.com/venueplatform/venue/ent/booking"
	"github.com/venueplatform/venue/ent/notificationdelivery"
	api "github.com/venueplatform/venue/internal/gen/api"
	"github.com/venueplatform/venue/internal/notify"
)

func TestCheckinListAndRoster(t *testing.T) {
	e := newDeskEnv(t)
	key := e.keyClient(t, e.studio.key)

	list, err := key.ListAdminCheckin(e.ctx, api.ListAdminCheckinParams{})
	require.NoError(t, err)
	var row *api.CheckinClass
	for i := range list.Data {
		require.NotEqual(t, e.otherClass, list.Data[i].ID)
		if list.Data[i].ID == e.now {
			row = &list.Data[i]
		}
	}
	require.NotNil(t, row, "today's running class is listed")
	require.Equal(t, 2, row.BookedCount)
	require.True(t, row.Started)
	require.False(t, row.Ended)
	require.Equal(t, "Europe/Copenhagen", list.Meta.Timezone)

	// The location comes from the query or the X-Location-ID header; another venue's is 404.
	byHeader, err := key.ListAdminCheckin(e.ctx, api.ListAdminCheckinParams{XLocationID: api.NewOptUUID(e.location)})
	require.NoError(t, err)
	require.Equal(t, e.location, byHeader.Meta.LocationID.Value)
	for _, c := range byHeader.Data {
		require.Equal(t, e.location, c.Location.Value.ID)
	}
	_, err = key.ListAdminCheckin(e.ctx, api.ListAdminCheckinParams{LocationID: api.NewOptUUID(e.otherLocation)})
	requireDeskErr(t, err, http.StatusNotFound, "NOT_FOUND")
	_, err = key.ListAdminCheckin(e.ctx, api.ListAdminCheckinParams{Date: api.NewOptString("tomorrow")})
	es := requireDeskErr(t, err, http.StatusBadRequest, "VALIDATION_ERROR")
	require.Equal(t, "date", es.Response.Error.Details.Parameter.Value)
	// The venue's next date (fullClass is on it): now+24h is still today
	// in the first hour of the day the clocks go back.
	tomorrow := e.today.AddDate(0, 0, 1).Format(time.DateOnly)
	next, err := key.ListAdminCheckin(e.ctx, api.ListAdminCheckinParams{Date: api.NewOptString(tomorrow)})
	require.NoError(t, err)
	ids := []uuid.UUID{}
	for _, c := range next.Data {
		ids = append(ids, c.ID)
	}
	require.Contains(t, ids, e.fullClass)

	// A key without read:bookings, staff without a front-desk permission: refused.
	_, err = e.keyClient(t, e.noBookingsKey).ListAdminCheckin(e.ctx, api.ListAdminCheckinParams{})
	requireDeskErr(t, err, http.StatusForbidden, "ACCESS_DENIED")
	_, err = e.staff(t, "nobody@desk.example").ListAdminCheckin(e.ctx, api.ListAdminCheckinParams{})
	es = requireDeskErr(t, err, http.StatusForbidden, "ACCESS_DENIED")
	require.Equal(t, "permission", es.Response.Error.Details.Reason.Value)
	desk := e.staff(t, "desk@desk.example", "booking.checkin")
	_, err = desk.ListAdminCheckin(e.ctx, api.ListAdminCheckinParams{})
	require.NoError(t, err)

	roster, err := desk.GetAdminCheckinRoster(e.ctx, api.GetAdminCheckinRosterParams{ClassInstanceId: e.now})
	require.NoError(t, err)
	require.Len(t, roster.Data.Bookings, 2, "cancelled rows are hidden by default")
	require.Equal(t, e.confirmed, roster.Data.Bookings[0].ID)
	require.Equal(t, "ana Test", roster.Data.Bookings[0].Member.Name)
	require.Equal(t, e.passA, roster.Data.Bookings[0].Pass.Value.ID)
	require.Equal(t, 5, roster.Data.Bookings[0].Pass.Value.ClipsRemaining.Value)
	require.NotEmpty(t, roster.Data.Bookings[0].UpdatedAt)
	all, err := key.GetAdminCheckinRoster(e.ctx, api.GetAdminCheckinRosterParams{ClassInstanceId: e.now,
		IncludeHistoricalRecords: api.NewOptBool(true)})
	require.NoError(t, err)
	require.Len(t, all.Data.Bookings, 5)
	require.Equal(t, api.CheckinBookingStatusLateCancelled, all.Data.Bookings[2].Status)

	for _, id := range []uuid.UUID{e.otherClass, uuid.New()} {
		_, err = key.GetAdminCheckinRoster(e.ctx, api.GetAdminCheckinRosterParams{ClassInstanceId: id})
		requireDeskErr(t, err, http.StatusNotFound, "NOT_FOUND")
	}
	_, err = e.keyClient(t, e.noBookingsKey).GetAdminCheckinRoster(e.ctx, api.GetAdminCheckinRosterParams{ClassInstanceId: e.now})
	requireDeskErr(t, err, http.StatusForbidden, "ACCESS_DENIED")
}

func TestCheckinCheckIn(t *testing.T) {
	e := newDeskEnv(t)
	params := api.CheckInAdminBookingParams{ClassInstanceId: e.now, BookingId: e.confirmed}
	none := api.OptCheckinCheckInRequest{}

	_, err := e.keyClient(t, e.studio.key).CheckInAdminBooking(e.ctx, none, params)
	es := requireDeskErr(t, err, http.StatusForbidden, "ACCESS_DENIED")
	require.Equal(t, "jwt_only", es.Response.Error.Details.Reason.Value)
	_, err = e.staff(t, "viewer@desk.example", "schedule.view_all").CheckInAdminBooking(e.ctx, none, params)
	requireDeskErr(t, err, http.StatusForbidden, "ACCESS_DENIED")
	require.Equal(t, booking.StatusConfirmed, e.booking(t, e.confirmed).Status)

	desk := e.staff(t, "desk@desk.example", "booking.checkin")
	stale := api.NewOptCheckinCheckInRequest(api.CheckinCheckInRequest{ExpectedUpdatedAt: api.NewOptString("2020-01-01T00:00:00Z")})
	_, err = desk.CheckInAdminBooking(e.ctx, stale, params)
	requireDeskErr(t, err, http.StatusConflict, "STALE_TARGET")
	require.Equal(t, booking.StatusConfirmed, e.booking(t, e.confirmed).Status, "a stale token changes nothing")

	tok := api.NewOptCheckinCheckInRequest(api.CheckinCheckInRequest{ExpectedUpdatedAt: api.NewOptString(e.token(t, e.now, e.confirmed))})
	res, err := desk.CheckInAdminBooking(e.ctx, tok, params)
	require.NoError(t, err)
	require.True(t, res.Data.Changed)
	require.Equal(t, api.CheckinBookingStatusCheckedIn, res.Data.Booking.Status)
	require.False(t, res.Data.Booking.CheckedInAt.Null)
	require.True(t, e.audited(t, "checkin.check_in", "booking:"+e.confirmed.String()))
	again, err := desk.CheckInAdminBooking(e.ctx, none, params)
	require.NoError(t, err)
	require.False(t, again.Data.Changed)

	_, err = desk.CheckInAdminBooking(e.ctx, none, api.CheckInAdminBookingParams{ClassInstanceId: e.fullClass, BookingId: e.futureBooking})
	es = requireDeskErr(t, err, http.StatusUnprocessableEntity, "CHECKIN_CLOSED")
	require.Contains(t, es.Response.Error.Details.AdditionalProps, "opens_at")
	_, err = desk.CheckInAdminBooking(e.ctx, none, api.CheckInAdminBookingParams{ClassInstanceId: e.now, BookingId: e.restored})
	requireDeskErr(t, err, http.StatusUnprocessableEntity, "INVALID_TRANSITION")
	_, err = desk.CheckInAdminBooking(e.ctx, none, api.CheckInAdminBookingParams{ClassInstanceId: e.past, BookingId: e.pastBooking})
	requireDeskErr(t, err, http.StatusUnprocessableEntity, "CHECKIN_CLOSED")

	// Bookings live under their class: another class's booking, another venue's class or booking are 404.
	for _, p := range []api.CheckInAdminBookingParams{
		{ClassInstanceId: e.now, BookingId: e.pastBooking},
		{ClassInstanceId: e.otherClass, BookingId: e.otherBooking},
		{ClassInstanceId: e.now, BookingId: e.otherBooking},
	} {
		_, err = desk.CheckInAdminBooking(e.ctx, none, p)
		requireDeskErr(t, err, http.StatusNotFound, "NOT_FOUND")
	}
	require.Equal(t, booking.StatusConfirmed, e.booking(t, e.pastBooking).Status)
}

func TestCheckinContact(t *testing.T) {
	e := newDeskEnv(t)
	req := &api.CheckinContactRequest{Channel: api.CheckinContactRequestChannelEmail, BookingIds: []uuid.UUID{e.confirmed, e.second},
		Subject: api.NewOptString("Studio is warm today"), Message: "Bring water."}
	params := api.ContactAdminCheckinClassParams{ClassInstanceId: e.now}

	_, err := e.keyClient(t, e.studio.key).ContactAdminCheckinClass(e.ctx, req, params)
	requireDeskErr(t, err, http.StatusForbidden, "ACCESS_DENIED")
	_, err = e.staff(t, "contact@desk.example", "members.contact").ContactAdminCheckinClass(e.ctx, req, params)
	es := requireDeskErr(t, err, http.StatusForbidden, "ACCESS_DENIED")
	require.Equal(t, "permission", es.Response.Error.Details.Reason.Value)
	require.Zero(t, e.outbox(t), "nothing is sent unless allowed")

	desk := e.staff(t, "desk@desk.example", "members.contact", notify.PermissionSend)
	res, err := desk.ContactAdminCheckinClass(e.ctx, req, params)
	require.NoError(t, err)
	require.Equal(t, 2, res.Data.Sent)
	require.Empty(t, res.Data.Skipped)
	rows := e.db().NotificationDelivery.Query().AllX(e.op)
	require.Len(t, rows, 2)
	for _, r := range rows {
		require.Equal(t, notificationdelivery.StatusPending, r.Status)
		require.Equal(t, "checkin.contact", r.Kind)
		require.Equal(t, "Studio is warm today", r.Subject)
		require.Equal(t, e.now, *r.ClassInstanceID)
	}
	require.True(t, e.audited(t, "checkin.contact", "class:"+e.now.String()))

	// A retry with the same Idempotency-Key replays the answer and sends nothing again.
	keyed := api.ContactAdminCheckinClassParams{ClassInstanceId: e.now, IdempotencyKey: api.NewOptString("contact-1")}
	first, err := desk.ContactAdminCheckinClass(e.ctx, req, keyed)
	require.NoError(t, err)
	replay, err := desk.ContactAdminCheckinClass(e.ctx, req, keyed)
	require.NoError(t, err)
	require.Equal(t, first.Data, replay.Data)
	require.Equal(t, 4, e.outbox(t))

	// The members have no phone number: SMS skips them with the reason.
	sms := &api.CheckinContactRequest{Channel: api.CheckinContactRequestChannelSMS, BookingIds: []uuid.UUID{e.confirmed}, Message: "Late?"}
	res, err = desk.ContactAdminCheckinClass(e.ctx, sms, params)
	require.NoError(t, err)
	require.Zero(t, res.Data.Sent)
	require.Equal(t, []api.CheckinSkipped{{BookingID: e.confirmed, MemberID: e.member[0], Channel: api.CheckinSkippedChannelSMS,
		Reason: notify.ReasonVenueCapability}}, res.Data.Skipped, "SMS is off until the venue switches it on")

	before := e.outbox(t)
	for _, bad := range []struct {
		req    *api.CheckinContactRequest
		status int
		code   string
	}{
		{&api.CheckinContactRequest{Channel: "email", BookingIds: []uuid.UUID{e.confirmed}, Message: "x"}, 400, "VALIDATION_ERROR"},
		{&api.CheckinContactRequest{Channel: "sms", BookingIds: []uuid.UUID{e.confirmed, e.confirmed}, Message: "x"}, 400, "VALIDATION_ERROR"},
		{&api.CheckinContactRequest{Channel: "sms", BookingIds: []uuid.UUID{e.confirmed, e.pastBooking}, Message: "x"}, 404, "NOT_FOUND"},
		{&api.CheckinContactRequest{Channel: "sms", BookingIds: []uuid.UUID{e.confirmed, e.otherBooking}, Message: "x"}, 404, "NOT_FOUND"},
	} {
		_, err = desk.ContactAdminCheckinClass(e.ctx, bad.req, params)
		requireDeskErr(t, err, bad.status, bad.code)
	}
	_, err = desk.ContactAdminCheckinClass(e.ctx, &api.CheckinContactRequest{Channel: "sms", BookingIds: []uuid.UUID{e.otherBooking},
		Message: "x"}, api.ContactAdminCheckinClassParams{ClassInstanceId: e.otherClass})
	requireDeskErr(t, err, http.StatusNotFound, "NOT_FOUND")
	require.Equal(t, before, e.outbox(t), "bad input sends nothing")
}

func TestCheckinContactRateLimit(t *testing.T) {
	e := newDeskEnv(t)
	desk := e.staff(t, "desk@desk.example", "members.contact", notify.PermissionSend)
	req := &api.CheckinContactRequest{Channel: api.CheckinContactRequestChannelEmail, BookingIds: []uuid.UUID{e.confirmed},
		Subject: api.NewOptString("Hi"), Message: "See you."}
	params := api.ContactAdminCheckinClassParams{ClassInstanceId: e.now}
	for range 20 {
		_, err := desk.ContactAdminCheckinClass(e.ctx, req, params)
		require.NoError(t, err)
	}
	_, err := desk.ContactAdminCheckinClass(e.ctx, req, params)
	requireDeskErr(t, err, http.StatusTooManyRequests, "RATE_LIMITED")
	require.Equal(t, 20, e.outbox(t))
	// Other staff members have their own window.
	_, err = e.staff(t, "other@desk.example", "members.contact", notify.PermissionSend).ContactAdminCheckinClass(e.ctx, req, params)
	require.NoError(t, err)
}
