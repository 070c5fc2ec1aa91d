package handlers_test

import (
	"net/http"
	"testing"

	"github.com/google/uuid"
	"github.com/stretchr/testify/require"

	"github.com/venueplatform/venue/ent/booking"
	"github.com/venueplatform/venue/ent/bookingreassignment"
	api "github.com/venueplatform/venue/internal/gen/api"
	"github.com/venueplatform/venue/internal/notify"
)

func attendanceReq(target api.CheckinAttendanceRequestTargetStatus, tok string) *api.CheckinAttendanceRequest {
	return &api.CheckinAttendanceRequest{TargetStatus: target, ExpectedUpdatedAt: tok}
}

func TestAttendanceCorrection(t *testing.T) {
	e := newDeskEnv(t)
	desk := e.staff(t, "desk@desk.example", "bookings.mark_no_show")
	at := func(class, id uuid.UUID) api.CorrectAdminBookingAttendanceParams {
		return api.CorrectAdminBookingAttendanceParams{ClassInstanceId: class, BookingId: id}
	}

	st, err := desk.GetAdminBookingAttendance(e.ctx, api.GetAdminBookingAttendanceParams{ClassInstanceId: e.now, BookingId: e.confirmed})
	require.NoError(t, err)
	require.Equal(t, []api.CheckinAttendanceAllowedTargetsItem{"checked_in", "no-show"}, st.Data.AllowedTargets)
	require.True(t, st.Data.ClipCharged)
	require.True(t, st.Data.NotificationAvailability.Email.Available)
	require.Equal(t, notify.ReasonVenueCapability, st.Data.NotificationAvailability.SMS.ReasonCode.Value)
	future, err := desk.GetAdminBookingAttendance(e.ctx, api.GetAdminBookingAttendanceParams{ClassInstanceId: e.fullClass, BookingId: e.futureBooking})
	require.NoError(t, err)
	require.Empty(t, future.Data.AllowedTargets, "nothing but confirmed before the class starts")
	_, err = desk.GetAdminBookingAttendance(e.ctx, api.GetAdminBookingAttendanceParams{ClassInstanceId: e.otherClass, BookingId: e.otherBooking})
	requireDeskErr(t, err, http.StatusNotFound, "NOT_FOUND")

	tok := e.token(t, e.now, e.confirmed)
	// Refusals change nothing.
	_, err = e.keyClient(t, e.studio.key).CorrectAdminBookingAttendance(e.ctx, attendanceReq("no-show", tok), at(e.now, e.confirmed))
	requireDeskErr(t, err, http.StatusForbidden, "ACCESS_DENIED")
	_, err = desk.CorrectAdminBookingAttendance(e.ctx, attendanceReq("no-show", ""), at(e.now, e.confirmed))
	requireDeskErr(t, err, http.StatusBadRequest, "VALIDATION_ERROR")
	_, err = desk.CorrectAdminBookingAttendance(e.ctx, attendanceReq("no-show", "2020-01-01T00:00:00Z"), at(e.now, e.confirmed))
	es := requireDeskErr(t, err, http.StatusConflict, "STALE_TARGET")
	require.Equal(t, `"`+tok+`"`, string(es.Response.Error.Details.AdditionalProps["current_updated_at"]))
	_, err = desk.CorrectAdminBookingAttendance(e.ctx, attendanceReq("checked_in", e.token(t, e.fullClass, e.futureBooking)), at(e.fullClass, e.futureBooking))
	requireDeskErr(t, err, http.StatusUnprocessableEntity, "FUTURE_ATTENDANCE")
	_, err = desk.CorrectAdminBookingAttendance(e.ctx, attendanceReq("no-show", e.token(t, e.past, e.pastBooking)), at(e.past, e.pastBooking))
	requireDeskErr(t, err, http.StatusUnprocessableEntity, "ENDED_CLASS_CONFIRMATION_REQUIRED")
	noisy := attendanceReq("no-show", tok)
	noisy.Notify = api.NewOptCheckinNotify(api.CheckinNotify{Channels: api.NewOptCheckinNotifyChannels(api.CheckinNotifyChannels{Email: api.NewOptBool(true)})})
	_, err = desk.CorrectAdminBookingAttendance(e.ctx, noisy, at(e.now, e.confirmed))
	es = requireDeskErr(t, err, http.StatusForbidden, "ACCESS_DENIED")
	require.Equal(t, "permission", es.Response.Error.Details.Reason.Value, "notifying needs notifications.send")
	_, err = desk.CorrectAdminBookingAttendance(e.ctx, attendanceReq("no-show", tok), at(e.otherClass, e.otherBooking))
	requireDeskErr(t, err, http.StatusNotFound, "NOT_FOUND")
	require.Equal(t, booking.StatusConfirmed, e.booking(t, e.confirmed).Status)
	require.Equal(t, tok, e.token(t, e.now, e.confirmed))

	// A silent correction: no-show, then checked in; nothing in the outbox.
	res, err := desk.CorrectAdminBookingAttendance(e.ctx, attendanceReq("no-show", tok), at(e.now, e.confirmed))
	require.NoError(t, err)
	require.True(t, res.Data.Changed)
	require.Equal(t, api.CheckinBookingStatusNoShow, res.Data.Booking.Status)
	require.False(t, res.Data.Notifications.Requested)
	require.Zero(t, e.outbox(t))
	require.True(t, e.audited(t, "checkin.attendance.correct", "booking:"+e.confirmed.String()))

	sender := e.staff(t, "sender@desk.example", "bookings.mark_no_show", notify.PermissionSend)
	noisy.TargetStatus, noisy.ExpectedUpdatedAt = "checked_in", res.Data.Booking.UpdatedAt
	res, err = sender.CorrectAdminBookingAttendance(e.ctx, noisy, at(e.now, e.confirmed))
	require.NoError(t, err)
	require.Equal(t, api.CheckinBookingStatusCheckedIn, res.Data.Booking.Status)
	require.True(t, res.Data.Notifications.Requested)
	require.Equal(t, 1, res.Data.Notifications.Queued)
	require.Equal(t, 1, e.outbox(t))

	// An ended class needs the confirmation.
	confirmed := attendanceReq("no-show", e.token(t, e.past, e.pastBooking))
	confirmed.EndedClassConfirmed = api.NewOptBool(true)
	res, err = desk.CorrectAdminBookingAttendance(e.ctx, confirmed, at(e.past, e.pastBooking))
	require.NoError(t, err)
	require.Equal(t, api.CheckinBookingStatusNoShow, res.Data.Booking.Status)

	// Reinstating a late cancellation whose fee was charged needs a refund review first.
	_, err = desk.CorrectAdminBookingAttendance(e.ctx, attendanceReq("checked_in", e.token(t, e.now, e.feeCharged)), at(e.now, e.feeCharged))
	es = requireDeskErr(t, err, http.StatusConflict, "REFUND_REVIEW_REQUIRED")
	require.Equal(t, `"charged"`, string(es.Response.Error.Details.AdditionalProps["fee_status"]))
	require.Equal(t, booking.StatusLateCancelled, e.booking(t, e.feeCharged).Status)
	// An unpaid fee is waived.
	res, err = desk.CorrectAdminBookingAttendance(e.ctx, attendanceReq("checked_in", e.token(t, e.now, e.feeUnpaid)), at(e.now, e.feeUnpaid))
	require.NoError(t, err)
	require.Equal(t, "waived", res.Data.Booking.FeeStatus.Value)
	require.True(t, res.Data.Booking.CancelledAt.Null)
	// A cancellation whose clip was given back takes it again.
	b := e.booking(t, e.restored)
	before := e.clips(t, *b.PassID)
	res, err = desk.CorrectAdminBookingAttendance(e.ctx, attendanceReq("confirmed", e.token(t, e.now, e.restored)), at(e.now, e.restored))
	require.NoError(t, err)
	require.Equal(t, api.CheckinBookingStatusConfirmed, res.Data.Booking.Status)
	require.Equal(t, before-1, e.clips(t, *b.PassID))
	require.True(t, e.booking(t, e.restored).ClipCharged)

	// A cancelled class refuses corrections.
	_, err = desk.CorrectAdminBookingAttendance(e.ctx, attendanceReq("confirmed", "2020-01-01T00:00:00Z"),
		at(e.cancelledClass, uuid.New()))
	requireDeskErr(t, err, http.StatusNotFound, "NOT_FOUND")
	cb := e.db().Booking.Create().SetMemberID(e.member[1]).SetClassInstanceID(e.cancelledClass).
		SetStatus(booking.StatusCancelled).SaveX(e.op)
	_, err = desk.CorrectAdminBookingAttendance(e.ctx, attendanceReq("confirmed", e.token(t, e.cancelledClass, cb.ID)), at(e.cancelledClass, cb.ID))
	requireDeskErr(t, err, http.StatusUnprocessableEntity, "CLASS_CANCELLED")
}

func TestFundingReassignment(t *testing.T) {
	e := newDeskEnv(t)
	mgr := e.staff(t, "manager@desk.example", "bookings.manage")
	params := api.ReassignAdminBookingFundingParams{ClassInstanceId: e.now, BookingId: e.confirmed}
	req := func(newPass uuid.UUID, old *uuid.UUID) *api.CheckinReassignRequest {
		r := &api.CheckinReassignRequest{NewPassID: newPass, ExpectedUpdatedAt: e.token(t, e.now, e.confirmed)}
		if old != nil {
			r.ExpectedOldPassID.SetTo(*old)
		} else {
			r.ExpectedOldPassID.SetToNull()
		}
		return r
	}
	unchanged := func() {
		t.Helper()
		require.Equal(t, e.passA, *e.booking(t, e.confirmed).PassID)
		require.Equal(t, 5, e.clips(t, e.passA))
		require.Equal(t, 3, e.clips(t, e.passB))
	}

	_, err := e.keyClient(t, e.studio.key).ReassignAdminBookingFunding(e.ctx, req(e.passB, &e.passA), params)
	requireDeskErr(t, err, http.StatusForbidden, "ACCESS_DENIED")
	_, err = e.staff(t, "desk@desk.example", "booking.checkin").ReassignAdminBookingFunding(e.ctx, req(e.passB, &e.passA), params)
	requireDeskErr(t, err, http.StatusForbidden, "ACCESS_DENIED")
	_, err = mgr.ReassignAdminBookingFunding(e.ctx, req(e.passB, &e.passB), params)
	es := requireDeskErr(t, err, http.StatusConflict, "PASS_SHIFT_CONFLICT")
	require.Equal(t, `"`+e.passA.String()+`"`, string(es.Response.Error.Details.AdditionalProps["current_pass_id"]))
	_, err = mgr.ReassignAdminBookingFunding(e.ctx, req(e.passC, &e.passA), params)
	es = requireDeskErr(t, err, http.StatusUnprocessableEntity, "PASS_REASSIGN_ERROR")
	require.Equal(t, "not_members_pass", es.Response.Error.Details.Reason.Value)
	_, err = mgr.ReassignAdminBookingFunding(e.ctx, req(e.passA, &e.passA), params)
	requireDeskErr(t, err, http.StatusUnprocessableEntity, "PASS_REASSIGN_ERROR")
	_, err = mgr.ReassignAdminBookingFunding(e.ctx, req(e.otherPass, &e.passA), params)
	requireDeskErr(t, err, http.StatusNotFound, "NOT_FOUND")
	stale := req(e.passB, &e.passA)
	stale.ExpectedUpdatedAt = "2020-01-01T00:00:00Z"
	_, err = mgr.ReassignAdminBookingFunding(e.ctx, stale, params)
	requireDeskErr(t, err, http.StatusConflict, "STALE_TARGET")
	_, err = mgr.ReassignAdminBookingFunding(e.ctx, req(e.passB, &e.passA), api.ReassignAdminBookingFundingParams{
		ClassInstanceId: e.otherClass, BookingId: e.otherBooking})
	requireDeskErr(t, err, http.StatusNotFound, "NOT_FOUND")
	unchanged()
	require.Zero(t, e.db().BookingReassignment.Query().CountX(e.op), "refusals before the move leave no attempt")

	res, err := mgr.ReassignAdminBookingFunding(e.ctx, req(e.passB, &e.passA), params)
	require.NoError(t, err)
	require.Equal(t, e.passB, res.Data.Booking.Pass.Value.ID)
	require.Equal(t, api.CheckinAttemptStatusApplied, res.Data.Attempt.Status)
	require.True(t, res.Data.Attempt.ClipReturned && res.Data.Attempt.ClipTaken)
	require.Equal(t, 6, e.clips(t, e.passA), "the clip went back")
	require.Equal(t, 2, e.clips(t, e.passB), "and one came from the new pass")
	require.True(t, e.audited(t, "checkin.funding.reassign", "booking:"+e.confirmed.String()))

	// An attempt left pending (the server stopped between recording it and the move) blocks
	// the booking until it is closed; closing records what the booking shows.
	open := e.db().BookingReassignment.Create().SetBookingID(e.confirmed).SetOpenBookingID(e.confirmed).SetOldPassID(e.passB).SetNewPassID(e.passA).SaveX(e.op)
	_, err = mgr.ReassignAdminBookingFunding(e.ctx, req(e.passA, &e.passB), params)
	es = requireDeskErr(t, err, http.StatusServiceUnavailable, "booking_reassign_unresolved")
	require.Equal(t, `"`+open.ID.String()+`"`, string(es.Response.Error.Details.AdditionalProps["attempt_id"]))
	require.Equal(t, e.passB, *e.booking(t, e.confirmed).PassID)

	closeParams := api.CloseAdminBookingFundingAttemptParams{ClassInstanceId: e.now, BookingId: e.confirmed, AttemptId: open.ID}
	_, err = e.keyClient(t, e.studio.key).CloseAdminBookingFundingAttempt(e.ctx, closeParams)
	requireDeskErr(t, err, http.StatusForbidden, "ACCESS_DENIED")
	_, err = mgr.CloseAdminBookingFundingAttempt(e.ctx, api.CloseAdminBookingFundingAttemptParams{ClassInstanceId: e.now,
		BookingId: e.second, AttemptId: open.ID})
	requireDeskErr(t, err, http.StatusNotFound, "NOT_FOUND")
	closed, err := mgr.CloseAdminBookingFundingAttempt(e.ctx, closeParams)
	require.NoError(t, err)
	require.Equal(t, api.CheckinAttemptStatusClosed, closed.Data.Status)
	require.Equal(t, api.CheckinAttemptResolutionNotApplied, closed.Data.Resolution.Value)
	require.Equal(t, bookingreassignment.StatusClosed, e.db().BookingReassignment.GetX(e.op, open.ID).Status)
	require.Nil(t, e.db().BookingReassignment.GetX(e.op, open.ID).OpenBookingID, "a closed attempt no longer holds the booking")
	_, err = mgr.CloseAdminBookingFundingAttempt(e.ctx, closeParams)
	requireDeskErr(t, err, http.StatusUnprocessableEntity, "ATTEMPT_NOT_PENDING")
	_, err = mgr.CloseAdminBookingFundingAttempt(e.ctx, api.CloseAdminBookingFundingAttemptParams{ClassInstanceId: e.otherClass,
		BookingId: e.otherBooking, AttemptId: open.ID})
	requireDeskErr(t, err, http.StatusNotFound, "NOT_FOUND")

	// Unblocked: back to the first pass.
	res, err = mgr.ReassignAdminBookingFunding(e.ctx, req(e.passA, &e.passB), params)
	require.NoError(t, err)
	require.Equal(t, e.passA, res.Data.Booking.Pass.Value.ID)
	require.Equal(t, 5, e.clips(t, e.passA))
	require.Equal(t, 3, e.clips(t, e.passB))
}

// TestFundingReassignmentConcurrent: the same reassignment sent eight times at once moves the
// funding exactly once; the others are refused without touching a pass.
func TestFundingReassignmentConcurrent(t *testing.T) {
	e := newDeskEnv(t)
	mgr := e.staff(t, "manager@desk.example", "bookings.manage")
	req := &api.CheckinReassignRequest{NewPassID: e.passB, ExpectedUpdatedAt: e.token(t, e.now, e.confirmed)}
	req.ExpectedOldPassID.SetTo(e.passA)
	params := api.ReassignAdminBookingFundingParams{ClassInstanceId: e.now, BookingId: e.confirmed}
	const n = 8
	errs := make(chan error, n)
	for range n {
		go func() {
			_, err := mgr.ReassignAdminBookingFunding(e.ctx, req, params)
			errs <- err
		}()
	}
	ok := 0
	for range n {
		err := <-errs
		if err == nil {
			ok++
			continue
		}
		es := errorOf(t, err)
		require.Contains(t, []string{"STALE_TARGET", "booking_reassign_unresolved", "PASS_SHIFT_CONFLICT"}, es.Response.Error.Code)
	}
	require.Equal(t, 1, ok)
	require.Equal(t, e.passB, *e.booking(t, e.confirmed).PassID)
	require.Equal(t, 6, e.clips(t, e.passA))
	require.Equal(t, 2, e.clips(t, e.passB))
	require.Zero(t, e.db().BookingReassignment.Query().Where(bookingreassignment.StatusEQ(bookingreassignment.StatusPending)).CountX(e.op))
}
