package handlers_test

import (
	"net/http"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/stretchr/testify/require"

	"github.com/venueplatform/venue/ent/booking"
	"github.com/venueplatform/venue/internal/auth"
	api "github.com/venueplatform/venue/internal/gen/api"
)

// TestStaffWritesAreJWTOnly: the staff operations that take no API-key scope
// (historical corrections, check-in, contact, attendance correction, funding
// reassignment and its close) are JWT-only through the security layer: an API
// key is 403 ACCESS_DENIED reason jwt_only, a staff token with a key is 401
// mixed_credentials, and neither changes anything.
func TestStaffWritesAreJWTOnly(t *testing.T) {
	e := newDeskEnv(t)
	sess := e.signup(t, "mixed@desk.example", goodPassword)
	key := e.keyClient(t, e.studio.key)
	both := e.authEnv.withHeader(t, bearer(sess.AccessToken), "X-API-Key", e.studio.key)
	at := api.CorrectAdminBookingAttendanceParams{ClassInstanceId: e.now, BookingId: e.confirmed}
	attendance := &api.CheckinAttendanceRequest{TargetStatus: api.CheckinAttendanceRequestTargetStatusCheckedIn,
		ExpectedUpdatedAt: time.Now().UTC().Format(time.RFC3339Nano)}
	calls := map[string]func(c *api.Client) error{
		"correctAdminScheduleHistory": func(c *api.Client) error {
			_, err := c.CorrectAdminScheduleHistory(e.ctx, &api.AdminScheduleHistoryRequest{
				Operation: api.AdminScheduleHistoryRequestOperationCOMPLETE, ExpectedUpdatedAt: "x",
				ExpectedStatus: api.ClassStatusScheduled, HistoryReason: "closing the day", EffectiveAt: time.Now().Add(-time.Hour)},
				api.CorrectAdminScheduleHistoryParams{ID: e.past})
			return err
		},
		"checkInAdminBooking": func(c *api.Client) error {
			_, err := c.CheckInAdminBooking(e.ctx, api.OptCheckinCheckInRequest{},
				api.CheckInAdminBookingParams{ClassInstanceId: e.now, BookingId: e.confirmed})
			return err
		},
		"contactAdminCheckinClass": func(c *api.Client) error {
			_, err := c.ContactAdminCheckinClass(e.ctx, &api.CheckinContactRequest{Channel: "email",
				BookingIds: []uuid.UUID{e.confirmed}, Message: "Doors open late"}, api.ContactAdminCheckinClassParams{ClassInstanceId: e.now})
			return err
		},
		"correctAdminBookingAttendance": func(c *api.Client) error {
			_, err := c.CorrectAdminBookingAttendance(e.ctx, attendance, at)
			return err
		},
		"reassignAdminBookingFunding": func(c *api.Client) error {
			_, err := c.ReassignAdminBookingFunding(e.ctx, &api.CheckinReassignRequest{NewPassID: e.passB,
				ExpectedOldPassID: api.NewNilUUID(e.passA), ExpectedUpdatedAt: "x"},
				api.ReassignAdminBookingFundingParams{ClassInstanceId: e.now, BookingId: e.confirmed})
			return err
		},
		"closeAdminBookingFundingAttempt": func(c *api.Client) error {
			_, err := c.CloseAdminBookingFundingAttempt(e.ctx, api.CloseAdminBookingFundingAttemptParams{
				ClassInstanceId: e.now, BookingId: e.confirmed, AttemptId: uuid.New()})
			return err
		},
	}
	for op, call := range calls {
		require.True(t, auth.JWTOnly(op), "%s is marked JWT-only", op)
		es := requireErr(t, call(key), http.StatusForbidden, "ACCESS_DENIED")
		require.Equal(t, auth.ReasonJWTOnly, es.Response.Error.Details.Reason.Value, op)
		es = requireErr(t, call(both), http.StatusUnauthorized, "UNAUTHORIZED")
		require.Equal(t, auth.ReasonMixedCredentials, es.Response.Error.Details.Reason.Value, op)
	}
	b := e.booking(t, e.confirmed)
	require.Equal(t, booking.StatusConfirmed, b.Status, "refused requests change nothing")
	require.Equal(t, e.passA, *b.PassID)
	require.Zero(t, e.db().AuditLog.Query().CountX(e.op))
	// The reads of the same areas still take an API key.
	require.False(t, auth.JWTOnly("getAdminBookingAttendance"))
	require.False(t, auth.JWTOnly("listAdminSchedule"))
	_, err := key.GetAdminBookingAttendance(e.ctx, api.GetAdminBookingAttendanceParams{ClassInstanceId: e.now, BookingId: e.confirmed})
	require.NoError(t, err)
}
