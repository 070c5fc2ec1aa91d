package handlers_test

import (
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/stretchr/testify/require"

	"github.com/venueplatform/venue/ent"
	"github.com/venueplatform/venue/ent/auditlog"
	"github.com/venueplatform/venue/ent/booking"
	"github.com/venueplatform/venue/ent/passtype"
	"github.com/venueplatform/venue/internal/events"
	api "github.com/venueplatform/venue/internal/gen/api"
	"github.com/venueplatform/venue/internal/members"
)

// TestAdminScheduleHistoryRestoreReinstatesBookings: a class cancelled by
// mistake and restored gives its seats back. The bookings the cancellation
// cancelled that held a seat are confirmed again and take their clip again
// (or are listed as uncharged when the pass has none left); a waitlisted one,
// one beyond the capacity, and one the member cancelled stay cancelled.
func TestAdminScheduleHistoryRestoreReinstatesBookings(t *testing.T) {
	e := newSchedEnv(t)
	c, op := e.db(), e.op
	now := time.Now()
	start := e.today.AddDate(0, 0, -3).Add(9 * time.Hour)
	cls := c.ClassInstance.Create().SetClassTypeID(e.classType).SetStartTime(start).SetEndTime(start.Add(time.Hour)).
		SetCapacity(2).SetInstructorID(e.instructor).SaveX(op)
	pt := c.PassType.Query().Where(passtype.Slug("ten")).OnlyX(op)
	var m []uuid.UUID
	for _, name := range []string{"ann", "ben", "cal", "dan"} {
		en, err := members.Enroll(op, c, members.EnrollParams{Email: name + "@restore.example", FirstName: name})
		require.NoError(t, err)
		m = append(m, en.Member.ID)
	}
	newPass := func(member uuid.UUID, clips int) *ent.Pass {
		return c.Pass.Create().SetMemberID(member).SetPassTypeID(pt.ID).SetValidFrom(now.AddDate(0, 0, -30)).
			SetClipsRemaining(clips).SaveX(op)
	}
	passA, passB := newPass(m[0], 5), newPass(m[1], 1)
	a := c.Booking.Create().SetMemberID(m[0]).SetClassInstanceID(cls.ID).SetPassID(passA.ID).SetClipCharged(true).SaveX(op)
	b := c.Booking.Create().SetMemberID(m[1]).SetClassInstanceID(cls.ID).SetPassID(passB.ID).SetClipCharged(true).SaveX(op)
	w := c.Booking.Create().SetMemberID(m[2]).SetClassInstanceID(cls.ID).SetStatus(booking.StatusWaitlisted).
		SetWaitlistPosition(1).SaveX(op)
	self := c.Booking.Create().SetMemberID(m[3]).SetClassInstanceID(cls.ID).SetStatus(booking.StatusCancelled).
		SetCancelledAt(now.AddDate(0, 0, -4)).SetCancelReason("member").SaveX(op)

	h := e.staff(t, "restore@example.com", "scheduling.manage", "scheduling.manage_history")
	params := api.CorrectAdminScheduleHistoryParams{ID: cls.ID}
	body := func(op api.AdminScheduleHistoryRequestOperation, status api.ClassStatus) *api.AdminScheduleHistoryRequest {
		return &api.AdminScheduleHistoryRequest{Operation: op, ExpectedUpdatedAt: e.token(t, cls.ID), ExpectedStatus: status,
			HistoryReason: "Recorded against the wrong class", EffectiveAt: start}
	}
	res, err := h.CorrectAdminScheduleHistory(e.ctx, body(api.AdminScheduleHistoryRequestOperationCANCEL, api.ClassStatusScheduled), params)
	require.NoError(t, err)
	require.Equal(t, 3, res.Data.CancelledBookings.Value)
	require.Equal(t, 6, *c.Pass.GetX(op, passA.ID).ClipsRemaining, "the cancellation gave the clips back")
	// Meanwhile B spends the clip the cancellation gave back.
	c.Pass.UpdateOneID(passB.ID).SetClipsRemaining(0).ExecX(op)

	// A preview says what would happen and changes nothing.
	pv := body(api.AdminScheduleHistoryRequestOperationRESTORE, api.ClassStatusCancelled)
	pv.Intent = api.NewOptAdminScheduleHistoryRequestIntent(api.AdminScheduleHistoryRequestIntentPreview)
	prev, err := h.CorrectAdminScheduleHistory(e.ctx, pv, params)
	require.NoError(t, err)
	require.False(t, prev.Data.Applied)
	require.ElementsMatch(t, []uuid.UUID{a.ID, b.ID}, prev.Data.ReinstatedBookingIds)
	require.Equal(t, booking.StatusCancelled, c.Booking.GetX(op, a.ID).Status)

	res, err = h.CorrectAdminScheduleHistory(e.ctx, body(api.AdminScheduleHistoryRequestOperationRESTORE, api.ClassStatusCancelled), params)
	require.NoError(t, err)
	require.True(t, res.Data.Applied)
	require.Equal(t, api.ClassStatusCompleted, res.Data.Class.Status)
	require.Equal(t, []uuid.UUID{a.ID, b.ID}, res.Data.ReinstatedBookingIds)
	require.Equal(t, []uuid.UUID{b.ID}, res.Data.UnchargedBookingIds)
	require.Equal(t, []api.AdminScheduleHistoryLeftCancelled{{BookingID: w.ID, Reason: "waitlisted"}}, res.Data.LeftCancelled)
	require.Equal(t, 2, res.Data.Class.BookedCount)

	ra, rb := c.Booking.GetX(op, a.ID), c.Booking.GetX(op, b.ID)
	require.Equal(t, booking.StatusConfirmed, ra.Status)
	require.Nil(t, ra.CancelledAt)
	require.Nil(t, ra.CancelReason)
	require.True(t, ra.ClipCharged)
	require.Equal(t, 5, *c.Pass.GetX(op, passA.ID).ClipsRemaining, "the clip is taken again")
	require.Equal(t, booking.StatusConfirmed, rb.Status)
	require.False(t, rb.ClipCharged, "no clip was left to take")
	require.Equal(t, 0, *c.Pass.GetX(op, passB.ID).ClipsRemaining)
	require.Equal(t, booking.StatusCancelled, c.Booking.GetX(op, w.ID).Status)
	require.Equal(t, "member", *c.Booking.GetX(op, self.ID).CancelReason, "a member's own cancellation is not undone")
	require.Zero(t, e.deliveries(t), "corrections are silent")

	entry := c.AuditLog.Query().Where(auditlog.Action("schedule.history.restore"), auditlog.Target("class:"+cls.ID.String())).OnlyX(op)
	require.ElementsMatch(t, []any{a.ID.String(), b.ID.String()}, entry.Details["reinstated_booking_ids"])
	var restored *ent.Event
	for _, ev := range e.events(t, events.ClassUpdated) {
		if ev.Payload["class_instance_id"] == cls.ID.String() {
			restored = ev
		}
	}
	require.NotNil(t, restored)
	require.Len(t, restored.Payload["reinstated_booking_ids"], 2)

	// Capacity: cancelled again and restored after a seat-holding booking
	// appeared, only one seat is left to give back.
	res, err = h.CorrectAdminScheduleHistory(e.ctx, body(api.AdminScheduleHistoryRequestOperationCANCEL, api.ClassStatusCompleted), params)
	require.NoError(t, err)
	require.Equal(t, 2, res.Data.CancelledBookings.Value)
	c.Booking.UpdateOneID(self.ID).SetStatus(booking.StatusCheckedIn).ClearCancelledAt().ClearCancelReason().ExecX(op)
	res, err = h.CorrectAdminScheduleHistory(e.ctx, body(api.AdminScheduleHistoryRequestOperationRESTORE, api.ClassStatusCancelled), params)
	require.NoError(t, err)
	require.Equal(t, []uuid.UUID{a.ID}, res.Data.ReinstatedBookingIds)
	require.ElementsMatch(t, []api.AdminScheduleHistoryLeftCancelled{{BookingID: b.ID, Reason: "capacity"},
		{BookingID: w.ID, Reason: "waitlisted"}}, res.Data.LeftCancelled)
}
