package handlers_test

import (
	"net/http"
	"testing"

	"github.com/google/uuid"
	"github.com/stretchr/testify/require"

	"github.com/venueplatform/venue/ent/booking"
	api "github.com/venueplatform/venue/internal/gen/api"
	"github.com/venueplatform/venue/internal/venue"
	"github.com/venueplatform/venue/internal/viewer"
)

// TestCheckinCrossVenueStaff: a staff member of both venues acting in venue
// A, holding every front-desk permission in both, meets venue B's class,
// booking, location and pass as unknown ones on every front-desk operation,
// and B's booking and pass are unchanged.
func TestCheckinCrossVenueStaff(t *testing.T) {
	e := newDeskEnv(t)
	other, err := venue.BySlug(e.ctx, e.db(), "other-desk")
	require.NoError(t, err)
	otherOp := viewer.NewContext(e.ctx, viewer.Operator{Org: other.ID, Name: "test"})
	perms := []string{"booking.checkin", "bookings.manage", "bookings.mark_no_show", "members.contact", "notifications.send"}
	s := e.signup(t, "both@desk.example", goodPassword)
	enroll(t, e.authEnv, e.op, "both@desk.example", "staff", perms...)
	enroll(t, e.authEnv, otherOp, "both@desk.example", "staff", perms...)
	a := e.client(t, s.AccessToken)
	_, err = a.SetActiveOrganization(e.ctx, &api.ActiveOrganizationRequest{OrganizationID: e.venue.ID})
	require.NoError(t, err)
	before := e.db().Booking.Query().Where(booking.ID(e.otherBooking)).OnlyX(otherOp)
	tok := before.UpdatedAt.UTC().Format("2006-01-02T15:04:05.999999Z07:00")
	notFound := func(err error) {
		t.Helper()
		requireDeskErr(t, err, http.StatusNotFound, "NOT_FOUND")
	}

	list, err := a.ListAdminCheckin(e.ctx, api.ListAdminCheckinParams{})
	require.NoError(t, err)
	for _, c := range list.Data {
		require.NotEqual(t, e.otherClass, c.ID)
	}
	_, err = a.ListAdminCheckin(e.ctx, api.ListAdminCheckinParams{LocationID: api.NewOptUUID(e.otherLocation)})
	notFound(err)
	_, err = a.ListAdminCheckin(e.ctx, api.ListAdminCheckinParams{XLocationID: api.NewOptUUID(e.otherLocation)})
	notFound(err)
	_, err = a.GetAdminCheckinRoster(e.ctx, api.GetAdminCheckinRosterParams{ClassInstanceId: e.otherClass})
	notFound(err)
	for _, p := range []struct{ class, booking uuid.UUID }{{e.otherClass, e.otherBooking}, {e.now, e.otherBooking}} {
		_, err = a.CheckInAdminBooking(e.ctx, api.OptCheckinCheckInRequest{}, api.CheckInAdminBookingParams{ClassInstanceId: p.class, BookingId: p.booking})
		notFound(err)
		_, err = a.GetAdminBookingAttendance(e.ctx, api.GetAdminBookingAttendanceParams{ClassInstanceId: p.class, BookingId: p.booking})
		notFound(err)
		_, err = a.CorrectAdminBookingAttendance(e.ctx, attendanceReq("no-show", tok),
			api.CorrectAdminBookingAttendanceParams{ClassInstanceId: p.class, BookingId: p.booking})
		notFound(err)
		r := &api.CheckinReassignRequest{NewPassID: e.otherPass, ExpectedUpdatedAt: tok}
		r.ExpectedOldPassID.SetTo(e.otherPass)
		_, err = a.ReassignAdminBookingFunding(e.ctx, r, api.ReassignAdminBookingFundingParams{ClassInstanceId: p.class, BookingId: p.booking})
		notFound(err)
		_, err = a.CloseAdminBookingFundingAttempt(e.ctx, api.CloseAdminBookingFundingAttemptParams{ClassInstanceId: p.class,
			BookingId: p.booking, AttemptId: uuid.New()})
		notFound(err)
	}
	_, err = a.ContactAdminCheckinClass(e.ctx, &api.CheckinContactRequest{Channel: "email", BookingIds: []uuid.UUID{e.otherBooking},
		Subject: api.NewOptString("Hello"), Message: "x"}, api.ContactAdminCheckinClassParams{ClassInstanceId: e.otherClass})
	notFound(err)
	_, err = a.ContactAdminCheckinClass(e.ctx, &api.CheckinContactRequest{Channel: "email", BookingIds: []uuid.UUID{e.confirmed, e.otherBooking},
		Subject: api.NewOptString("Hello"), Message: "x"}, api.ContactAdminCheckinClassParams{ClassInstanceId: e.now})
	notFound(err)

	after := e.db().Booking.Query().Where(booking.ID(e.otherBooking)).OnlyX(otherOp)
	require.Equal(t, before.Status, after.Status)
	require.True(t, before.UpdatedAt.Equal(after.UpdatedAt))
	require.Equal(t, 5, *e.db().Pass.GetX(otherOp, e.otherPass).ClipsRemaining)
	require.Zero(t, e.db().NotificationDelivery.Query().CountX(otherOp))
	require.Zero(t, e.db().NotificationDelivery.Query().CountX(e.op), "a refused contact sends to nobody")

	// Acting in venue B, the same person reaches B's roster.
	_, err = a.SetActiveOrganization(e.ctx, &api.ActiveOrganizationRequest{OrganizationID: other.ID})
	require.NoError(t, err)
	roster, err := a.GetAdminCheckinRoster(e.ctx, api.GetAdminCheckinRosterParams{ClassInstanceId: e.otherClass})
	require.NoError(t, err)
	require.Len(t, roster.Data.Bookings, 1)
	_, err = a.GetAdminCheckinRoster(e.ctx, api.GetAdminCheckinRosterParams{ClassInstanceId: e.now})
	notFound(err)
}
