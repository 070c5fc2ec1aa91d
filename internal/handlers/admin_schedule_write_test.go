package handlers_test

import (
	"net/http"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/stretchr/testify/require"

	"github.com/venueplatform/venue/ent/booking"
	"github.com/venueplatform/venue/ent/classinstance"
	"github.com/venueplatform/venue/internal/events"
	api "github.com/venueplatform/venue/internal/gen/api"
)

// TestAdminScheduleCancel: the class and its live bookings cancelled with
// clips restored, the webhook event and audit entry, permissions, a second
// cancel refused, venue B's key 404.
func TestAdminScheduleCancel(t *testing.T) {
	e := newSchedEnv(t)
	// A clip-card booking on the class: its clip comes back.
	m := e.db().Member.Query().FirstX(e.op)
	pt := e.db().PassType.Query().FirstX(e.op)
	pass := e.db().Pass.Create().SetMemberID(m.ID).SetPassTypeID(pt.ID).SetValidFrom(e.today).SetClipsRemaining(4).SaveX(e.op)
	b := e.db().Booking.Create().SetMemberID(m.ID).SetClassInstanceID(e.onlineClass).SetPassID(pass.ID).SetClipCharged(true).SaveX(e.op)
	params := api.CancelAdminScheduleItemParams{ID: e.onlineClass}

	_, err := e.keyClient(t, e.otherKey).CancelAdminScheduleItem(e.ctx, &api.AdminScheduleCancelRequest{}, params)
	requireErr(t, err, http.StatusNotFound, "NOT_FOUND")
	_, err = e.keyClient(t, e.studio.key).CancelAdminScheduleItem(e.ctx, &api.AdminScheduleCancelRequest{}, params)
	requireErr(t, err, http.StatusForbidden, "ACCESS_DENIED")
	_, err = e.staff(t, "viewer@example.com", "schedule.view_all").CancelAdminScheduleItem(e.ctx, &api.AdminScheduleCancelRequest{}, params)
	requireErr(t, err, http.StatusForbidden, "ACCESS_DENIED")
	_, err = e.keyClient(t, e.writeKey).CancelAdminScheduleItem(e.ctx, &api.AdminScheduleCancelRequest{
		ExpectedUpdatedAt: api.NewOptString("2020-01-01T00:00:00Z")}, params)
	requireErr(t, err, http.StatusConflict, "STALE_TARGET")
	canceller := e.staff(t, "desk@example.com", "class.cancel")
	_, err = canceller.CancelAdminScheduleItem(e.ctx, &api.AdminScheduleCancelRequest{Notify: notifyOf(true, false, true, false, false)}, params)
	es := requireErr(t, err, http.StatusForbidden, "ACCESS_DENIED")
	require.Equal(t, "permission", es.Response.Error.Details.Reason.Value)
	require.Equal(t, classinstance.StatusScheduled, e.class(t, e.onlineClass).Status)
	require.Empty(t, e.events(t, events.ClassCancelled))

	res, err := canceller.CancelAdminScheduleItem(e.ctx, &api.AdminScheduleCancelRequest{Reason: api.NewOptString("Instructor ill"),
		ExpectedUpdatedAt: api.NewOptString(e.token(t, e.onlineClass))}, params)
	require.NoError(t, err)
	require.Equal(t, api.ClassStatusCancelled, res.Data.Class.Status)
	require.Equal(t, "Instructor ill", res.Data.Class.CancelReason.Value)
	require.False(t, res.Data.Class.CancelledAt.Null)
	require.Equal(t, 2, res.Data.CancelledBookings.Value)
	require.Zero(t, res.Data.Class.BookedCount)
	require.Equal(t, booking.StatusCancelled, e.db().Booking.GetX(e.op, b.ID).Status)
	require.Equal(t, 5, *e.db().Pass.GetX(e.op, pass.ID).ClipsRemaining)
	evs := e.events(t, events.ClassCancelled)
	require.Len(t, evs, 1)
	require.Equal(t, e.onlineClass.String(), evs[0].Payload["class_instance_id"])
	require.Len(t, e.events(t, events.BookingCancelled), 2)
	require.True(t, e.audited(t, "schedule.cancel", "class:"+e.onlineClass.String()))
	require.Zero(t, e.deliveries(t))

	_, err = canceller.CancelAdminScheduleItem(e.ctx, &api.AdminScheduleCancelRequest{}, params)
	requireErr(t, err, http.StatusUnprocessableEntity, "CLASS_CANCELLED")

	// Telling the clients reaches the bookings the cancellation cancels.
	sender := e.staff(t, "sender@example.com", "class.cancel", "notifications.send")
	told, err := sender.CancelAdminScheduleItem(e.ctx, &api.AdminScheduleCancelRequest{Notify: notifyOf(true, false, true, false, false)},
		api.CancelAdminScheduleItemParams{ID: e.fullClass})
	require.NoError(t, err)
	require.Equal(t, 2, told.Data.CancelledBookings.Value)
	require.Equal(t, 3, told.Data.Notifications.Queued, "confirmed, waitlisted and checked-in members")
	require.Equal(t, 3, e.deliveries(t))
	_, err = canceller.CancelAdminScheduleItem(e.ctx, &api.AdminScheduleCancelRequest{}, api.CancelAdminScheduleItemParams{ID: e.past})
	requireErr(t, err, http.StatusUnprocessableEntity, "CLASS_ENDED")
}

// TestAdminScheduleSubstitute: the channel rules, the same instructor and a
// foreign instructor refused, the change with its event.
func TestAdminScheduleSubstitute(t *testing.T) {
	e := newSchedEnv(t)
	sub := e.db().Instructor.Create().SetFirstName("Sofie").SetEmail("sofie@example.com").SaveX(e.op)
	mgr := e.staff(t, "mgr@example.com", "scheduling.manage", "notifications.send")
	params := api.SubstituteAdminScheduleInstructorParams{ID: e.fullClass}
	req := func(in uuid.UUID, n api.OptAdminScheduleNotify) *api.AdminScheduleSubstituteRequest {
		return &api.AdminScheduleSubstituteRequest{InstructorID: in, Notify: n}
	}

	_, err := mgr.SubstituteAdminScheduleInstructor(e.ctx, req(sub.ID, notifyOf(true, false, false, true, false)), params)
	es := requireErr(t, err, http.StatusUnprocessableEntity, "CHANNEL_NOT_ALLOWED")
	require.Contains(t, string(es.Response.Error.Details.AdditionalProps["channel"]), "sms")
	_, err = mgr.SubstituteAdminScheduleInstructor(e.ctx, req(sub.ID, notifyOf(true, false, true, false, false)), params)
	requireErr(t, err, http.StatusUnprocessableEntity, "CHANNEL_NOT_ALLOWED")
	_, err = mgr.SubstituteAdminScheduleInstructor(e.ctx, req(sub.ID, notifyOf(false, true, false, false, true)), params)
	requireErr(t, err, http.StatusUnprocessableEntity, "CHANNEL_NOT_ALLOWED")
	_, err = mgr.SubstituteAdminScheduleInstructor(e.ctx, req(sub.ID, notifyOf(true, false, false, false, false)), params)
	requireErr(t, err, http.StatusBadRequest, "CHANNEL_REQUIRED")
	_, err = mgr.SubstituteAdminScheduleInstructor(e.ctx, req(e.instructor, api.OptAdminScheduleNotify{}), params)
	requireErr(t, err, http.StatusUnprocessableEntity, "VALIDATION_FAILED")
	_, err = mgr.SubstituteAdminScheduleInstructor(e.ctx, req(e.otherInstr, api.OptAdminScheduleNotify{}), params)
	requireErr(t, err, http.StatusNotFound, "NOT_FOUND")
	_, err = e.keyClient(t, e.otherKey).SubstituteAdminScheduleInstructor(e.ctx, req(e.otherInstr, api.OptAdminScheduleNotify{}), params)
	requireErr(t, err, http.StatusNotFound, "NOT_FOUND")
	require.Equal(t, e.instructor, *e.class(t, e.fullClass).InstructorID)
	require.Zero(t, e.deliveries(t))

	res, err := mgr.SubstituteAdminScheduleInstructor(e.ctx, req(sub.ID, notifyOf(true, true, true, false, true)), params)
	require.NoError(t, err)
	require.Equal(t, sub.ID, res.Data.Class.Instructor.Value.ID)
	require.True(t, res.Data.Notifications.Requested)
	require.Equal(t, 1, res.Data.Notifications.Queued, "the substitute by e-mail; clients have no push device")
	require.Equal(t, 1, e.deliveries(t))
	require.True(t, e.audited(t, "schedule.substitute", "class:"+e.fullClass.String()))
	require.Len(t, e.events(t, events.ClassUpdated), 1)
}

// TestAdminScheduleBulk: request-wide checks (size, duplicates, venue scope)
// change nothing; then per-row results; bulk cancel's push rule; an
// idempotent retry replays.
func TestAdminScheduleBulk(t *testing.T) {
	e := newSchedEnv(t)
	w := e.keyClient(t, e.writeKey)
	set := api.NewOptAdminScheduleBulkSet(api.AdminScheduleBulkSet{Capacity: api.NewOptInt(1)})

	_, err := w.BulkEditAdminSchedule(e.ctx, &api.AdminScheduleBulkEditRequest{InstanceIds: []uuid.UUID{}, Set: set}, api.BulkEditAdminScheduleParams{})
	requireErr(t, err, http.StatusBadRequest, "VALIDATION_ERROR")
	many := make([]uuid.UUID, 51)
	for i := range many {
		many[i] = uuid.New()
	}
	_, err = w.BulkEditAdminSchedule(e.ctx, &api.AdminScheduleBulkEditRequest{InstanceIds: many, Set: set}, api.BulkEditAdminScheduleParams{})
	requireErr(t, err, http.StatusBadRequest, "VALIDATION_ERROR")
	_, err = w.BulkEditAdminSchedule(e.ctx, &api.AdminScheduleBulkEditRequest{InstanceIds: []uuid.UUID{e.onlineClass, e.onlineClass}, Set: set}, api.BulkEditAdminScheduleParams{})
	requireErr(t, err, http.StatusBadRequest, "VALIDATION_ERROR")
	_, err = w.BulkEditAdminSchedule(e.ctx, &api.AdminScheduleBulkEditRequest{InstanceIds: []uuid.UUID{e.onlineClass}}, api.BulkEditAdminScheduleParams{})
	requireErr(t, err, http.StatusBadRequest, "VALIDATION_ERROR")
	es := func() *api.ErrorStatusCode {
		_, err := w.BulkEditAdminSchedule(e.ctx, &api.AdminScheduleBulkEditRequest{InstanceIds: []uuid.UUID{e.onlineClass, e.otherClass}, Set: set}, api.BulkEditAdminScheduleParams{})
		return requireErr(t, err, http.StatusUnprocessableEntity, "CLASS_SCOPE_MISMATCH")
	}()
	require.Contains(t, string(es.Response.Error.Details.AdditionalProps["class_ids"]), e.otherClass.String())
	_, err = w.BulkEditAdminSchedule(e.ctx, &api.AdminScheduleBulkEditRequest{InstanceIds: []uuid.UUID{e.onlineClass},
		Time: api.NewOptAdminScheduleBulkTime(api.AdminScheduleBulkTime{Start: "18:00", End: "17:00"})}, api.BulkEditAdminScheduleParams{})
	requireErr(t, err, http.StatusBadRequest, "VALIDATION_ERROR")
	require.Equal(t, 10, e.class(t, e.onlineClass).Capacity)

	// Per row: the full class refuses capacity 1 (two seats held), the
	// online class takes it and moves to 18:00 venue time.
	res, err := w.BulkEditAdminSchedule(e.ctx, &api.AdminScheduleBulkEditRequest{
		InstanceIds: []uuid.UUID{e.fullClass, e.onlineClass, e.past},
		Set:         set,
		Time:        api.NewOptAdminScheduleBulkTime(api.AdminScheduleBulkTime{Start: "18:00", End: "19:15"}),
	}, api.BulkEditAdminScheduleParams{})
	require.NoError(t, err)
	require.Equal(t, 1, res.Data.Succeeded)
	require.Equal(t, 2, res.Data.Failed)
	rs := res.Data.Results
	require.Equal(t, e.fullClass, rs[0].ID)
	require.Equal(t, api.AdminScheduleBulkResultStatusFailed, rs[0].Status)
	require.Equal(t, "CAPACITY_BELOW_BOOKED", rs[0].Error.Value.Code)
	require.Equal(t, api.AdminScheduleBulkResultStatusUpdated, rs[1].Status)
	require.Equal(t, 1, rs[1].Class.Value.Capacity)
	local := rs[1].Class.Value.StartTime.In(e.loc)
	require.Equal(t, 18, local.Hour())
	require.Equal(t, e.today.AddDate(0, 0, 2).Day(), local.Day())
	require.Equal(t, 75*time.Minute, rs[1].Class.Value.EndTime.Sub(rs[1].Class.Value.StartTime))
	require.Equal(t, "CLASS_ENDED", rs[2].Error.Value.Code)
	require.Equal(t, 2, e.class(t, e.fullClass).Capacity)

	// A stale token fails its row only.
	res, err = w.BulkEditAdminSchedule(e.ctx, &api.AdminScheduleBulkEditRequest{InstanceIds: []uuid.UUID{e.onlineClass}, Set: set,
		ExpectedUpdatedAt: api.NewOptAdminScheduleBulkEditRequestExpectedUpdatedAt(api.AdminScheduleBulkEditRequestExpectedUpdatedAt{
			e.onlineClass.String(): "2020-01-01T00:00:00Z"})}, api.BulkEditAdminScheduleParams{})
	require.NoError(t, err)
	require.Equal(t, "STALE_TARGET", res.Data.Results[0].Error.Value.Code)

	// Bulk cancel: push without clients is refused; then per-row results,
	// replayed on an idempotent retry.
	mgr := e.staff(t, "mgr@example.com", "scheduling.manage", "notifications.send")
	_, err = mgr.BulkCancelAdminSchedule(e.ctx, &api.AdminScheduleBulkCancelRequest{InstanceIds: []uuid.UUID{e.fullClass},
		Notify: notifyOf(false, true, false, false, true)}, api.BulkCancelAdminScheduleParams{})
	requireErr(t, err, http.StatusUnprocessableEntity, "CHANNEL_NOT_ALLOWED")
	_, err = w.BulkCancelAdminSchedule(e.ctx, &api.AdminScheduleBulkCancelRequest{InstanceIds: []uuid.UUID{e.fullClass, e.otherClass}}, api.BulkCancelAdminScheduleParams{})
	requireErr(t, err, http.StatusUnprocessableEntity, "CLASS_SCOPE_MISMATCH")
	require.Equal(t, classinstance.StatusScheduled, e.class(t, e.fullClass).Status)
	key := api.NewOptString("bulk-cancel-1")
	body := &api.AdminScheduleBulkCancelRequest{InstanceIds: []uuid.UUID{e.fullClass, e.cancelledClass}, Reason: api.NewOptString("Closed")}
	res, err = w.BulkCancelAdminSchedule(e.ctx, body, api.BulkCancelAdminScheduleParams{IdempotencyKey: key})
	require.NoError(t, err)
	require.Equal(t, api.AdminScheduleBulkResultStatusCancelled, res.Data.Results[0].Status)
	require.Equal(t, 2, res.Data.Results[0].CancelledBookings.Value)
	require.Equal(t, "CLASS_CANCELLED", res.Data.Results[1].Error.Value.Code)
	again, err := w.BulkCancelAdminSchedule(e.ctx, body, api.BulkCancelAdminScheduleParams{IdempotencyKey: key})
	require.NoError(t, err)
	require.Equal(t, res.Data.Results[0].Status, again.Data.Results[0].Status, "replayed, not run again")
	require.Len(t, e.events(t, events.ClassCancelled), 1)
	require.True(t, e.audited(t, "schedule.cancel", "class:"+e.fullClass.String()))
}

// TestAdminScheduleAvailability: 1 to 200 distinct classes, foreign ones
// CLASS_SCOPE_MISMATCH, entries per audience and channel.
func TestAdminScheduleAvailability(t *testing.T) {
	e := newSchedEnv(t)
	key := e.keyClient(t, e.studio.key)
	ask := func(ids ...uuid.UUID) (*api.AdminScheduleAvailabilityResponse, error) {
		return key.AdminScheduleNotificationAvailability(e.ctx, &api.AdminScheduleAvailabilityRequest{InstanceIds: ids, Action: api.AdminScheduleActionSubstitute})
	}
	_, err := ask()
	requireErr(t, err, http.StatusBadRequest, "VALIDATION_ERROR")
	many := make([]uuid.UUID, 201)
	for i := range many {
		many[i] = uuid.New()
	}
	_, err = ask(many...)
	requireErr(t, err, http.StatusBadRequest, "VALIDATION_ERROR")
	_, err = ask(e.fullClass, e.otherClass)
	requireErr(t, err, http.StatusUnprocessableEntity, "CLASS_SCOPE_MISMATCH")
	_, err = e.staff(t, "clerk@example.com", "pos.sell").AdminScheduleNotificationAvailability(e.ctx,
		&api.AdminScheduleAvailabilityRequest{InstanceIds: []uuid.UUID{e.fullClass}, Action: api.AdminScheduleActionCancel})
	requireErr(t, err, http.StatusForbidden, "ACCESS_DENIED")

	got, err := ask(e.fullClass, e.onlineClass)
	require.NoError(t, err)
	require.Equal(t, api.AdminScheduleActionSubstitute, got.Data.Action)
	require.Len(t, got.Data.Items, 2)
	full := got.Data.Items[0]
	require.Equal(t, e.fullClass, full.ID)
	require.False(t, full.Availability.Clients.Email.Available)
	require.Equal(t, "unsupported", full.Availability.Clients.Email.ReasonCode.Value)
	require.False(t, full.Availability.Clients.SMS.Available)
	require.Equal(t, 3, full.Availability.Clients.Push.Total)
	require.Equal(t, "no_recipients", got.Data.Items[1].Availability.Instructor.Email.ReasonCode.Value)
}
