package handlers_test

import (
	"context"
	"net/http"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/stretchr/testify/require"

	"github.com/venueplatform/venue/ent/auditlog"
	entbooking "github.com/venueplatform/venue/ent/booking"
	"github.com/venueplatform/venue/ent/event"
	"github.com/venueplatform/venue/internal/booking"
	api "github.com/venueplatform/venue/internal/gen/api"
	"github.com/venueplatform/venue/internal/scope"
)

func bookReq(class uuid.UUID) *api.BookingCreateRequest {
	return &api.BookingCreateRequest{ClassInstanceID: class}
}

func inVenue(org uuid.UUID) api.CreateBookingParams {
	return api.CreateBookingParams{XOrganizationID: api.NewOptUUID(org)}
}

// TestBookingMemberFlow: a member books (201 confirmed, clip taken, event and
// audit entry), reads it alone and in the list, cannot book twice, and
// cancels on time (clip back); another user's booking is 404 for every
// operation.
func TestBookingMemberFlow(t *testing.T) {
	e := newBookEnv(t, "studio")
	ctx := context.Background()
	cl := e.class(t, e.op, e.classType, 48*time.Hour, 3)
	ana := e.member(t, e.op, "ana@example.com", e.ten, ptrInt(5))
	bo := e.member(t, e.op, "bo@example.com", e.ten, ptrInt(5))

	res, err := ana.c.CreateBooking(ctx, bookReq(cl.ID), inVenue(e.venue.ID))
	require.NoError(t, err)
	b := res.Data
	require.Equal(t, api.BookingStatusConfirmed, b.Status)
	require.True(t, b.ClipCharged)
	require.Equal(t, ana.pass.ID, b.PassID.Value)
	require.Equal(t, "member", b.BookedVia.Value)
	require.True(t, b.Watch.Null, "in-person classes have no live-watch window")
	require.Equal(t, 4, *e.client.Pass.GetX(e.op, ana.pass.ID).ClipsRemaining)
	require.Equal(t, 1, e.client.Event.Query().Where(event.Type("booking.created")).CountX(e.op))
	require.Equal(t, 1, e.client.AuditLog.Query().Where(auditlog.Action("booking.created"), auditlog.Target("booking:"+b.ID.String())).CountX(e.op))

	_, err = ana.c.CreateBooking(ctx, bookReq(cl.ID), inVenue(e.venue.ID))
	requireCode(t, err, http.StatusConflict, booking.CodeAlreadyBooked)

	got, err := ana.c.GetBooking(ctx, api.GetBookingParams{ID: b.ID})
	require.NoError(t, err)
	require.Equal(t, b.ID, got.Data.ID)
	list, err := ana.c.ListBookings(ctx, api.ListBookingsParams{})
	require.NoError(t, err)
	require.Len(t, list.Data, 1)

	// Owner scope: another member of the same venue sees nothing of it.
	_, err = bo.c.GetBooking(ctx, api.GetBookingParams{ID: b.ID})
	requireCode(t, err, http.StatusNotFound, "NOT_FOUND")
	_, err = bo.c.CancelBooking(ctx, api.CancelBookingParams{ID: b.ID})
	requireCode(t, err, http.StatusNotFound, "NOT_FOUND")
	_, err = bo.c.AdmitBookingWatch(ctx, api.AdmitBookingWatchParams{ID: b.ID})
	requireCode(t, err, http.StatusNotFound, "NOT_FOUND")
	list, err = bo.c.ListBookings(ctx, api.ListBookingsParams{})
	require.NoError(t, err)
	require.Empty(t, list.Data)

	can, err := ana.c.CancelBooking(ctx, api.CancelBookingParams{ID: b.ID})
	require.NoError(t, err)
	require.Equal(t, api.BookingStatusCancelled, can.Data.Booking.Status)
	require.False(t, can.Data.Late)
	require.True(t, can.Data.ClipRestored)
	require.Equal(t, 5, *e.client.Pass.GetX(e.op, ana.pass.ID).ClipsRemaining)
	_, err = ana.c.CancelBooking(ctx, api.CancelBookingParams{ID: b.ID})
	requireCode(t, err, http.StatusUnprocessableEntity, booking.CodeNotCancellable)

	// Booking needs a venue, and a relationship with it.
	_, err = ana.c.CreateBooking(ctx, bookReq(cl.ID), api.CreateBookingParams{})
	requireCode(t, err, http.StatusBadRequest, "VALIDATION_ERROR")
	stranger := e.member(t, e.venueB(t, "elsewhere").op, "x@example.com", nil, nil)
	_, err = stranger.c.CreateBooking(ctx, bookReq(cl.ID), inVenue(e.venue.ID))
	requireCode(t, err, http.StatusForbidden, "ACCESS_DENIED")
	// A member names nobody else.
	_, err = ana.c.CreateBooking(ctx, &api.BookingCreateRequest{ClassInstanceID: cl.ID, MemberID: api.NewOptUUID(bo.m.ID)}, inVenue(e.venue.ID))
	requireCode(t, err, http.StatusBadRequest, "VALIDATION_ERROR")
	// Unlisted and cancelled classes.
	_, err = ana.c.CreateBooking(ctx, bookReq(e.unlisted), inVenue(e.venue.ID))
	requireCode(t, err, http.StatusNotFound, booking.CodeClassNotFound)
	_, err = ana.c.CreateBooking(ctx, bookReq(e.cancelledClass), inVenue(e.venue.ID))
	requireCode(t, err, http.StatusUnprocessableEntity, booking.CodeClassNotBookable)
}

// TestBookingWaitlistPromotionLate: a full class waitlists (201, position,
// no clip); a cancellation promotes the first in line, charging their clip
// then; a cancellation inside the late window is late-cancelled with the
// venue's fee and the clip kept.
func TestBookingWaitlistPromotionLate(t *testing.T) {
	e := newBookEnv(t, "studio")
	ctx := context.Background()
	cl := e.class(t, e.op, e.classType, 48*time.Hour, 1)
	a := e.member(t, e.op, "a@example.com", e.ten, ptrInt(3))
	b := e.member(t, e.op, "b@example.com", e.ten, ptrInt(3))
	first, err := a.c.CreateBooking(ctx, bookReq(cl.ID), inVenue(e.venue.ID))
	require.NoError(t, err)
	wait, err := b.c.CreateBooking(ctx, bookReq(cl.ID), inVenue(e.venue.ID))
	require.NoError(t, err)
	require.Equal(t, api.BookingStatusWaitlisted, wait.Data.Status)
	require.Equal(t, 1, wait.Data.WaitlistPosition.Value)
	require.False(t, wait.Data.ClipCharged)
	require.Equal(t, 3, *e.client.Pass.GetX(e.op, b.pass.ID).ClipsRemaining)

	can, err := a.c.CancelBooking(ctx, api.CancelBookingParams{ID: first.Data.ID})
	require.NoError(t, err)
	require.Equal(t, 1, can.Data.PromotedCount)
	got, err := b.c.GetBooking(ctx, api.GetBookingParams{ID: wait.Data.ID})
	require.NoError(t, err)
	require.Equal(t, api.BookingStatusConfirmed, got.Data.Status)
	require.True(t, got.Data.WaitlistPosition.Null)
	require.False(t, got.Data.PromotedAt.Null)
	require.Equal(t, 2, *e.client.Pass.GetX(e.op, b.pass.ID).ClipsRemaining)
	require.Equal(t, 1, e.client.Event.Query().Where(event.Type("booking.promoted")).CountX(e.op))

	// Late: a class in 3 hours, with a 75.00 fee.
	pol := booking.DefaultPolicy()
	pol.LateCancelFeeMinor = 7500
	require.NoError(t, booking.SetPolicy(e.op, e.client, pol))
	soon := e.class(t, e.op, e.classType, 3*time.Hour, 5)
	bk, err := a.c.CreateBooking(ctx, bookReq(soon.ID), inVenue(e.venue.ID))
	require.NoError(t, err)
	late, err := a.c.CancelBooking(ctx, api.CancelBookingParams{ID: bk.Data.ID})
	require.NoError(t, err)
	require.True(t, late.Data.Late)
	require.False(t, late.Data.ClipRestored)
	require.Equal(t, api.BookingStatusLateCancelled, late.Data.Booking.Status)
	require.Equal(t, int64(7500), late.Data.Booking.LateCancelFeeMinor.Value)
	require.Equal(t, api.BookingItemFeeStatusUnpaid, late.Data.Booking.FeeStatus.Value)
	require.Equal(t, 2, *e.client.Pass.GetX(e.op, a.pass.ID).ClipsRemaining, "one clip forfeited, one restored earlier")
	require.Equal(t, 1, e.client.AuditLog.Query().Where(auditlog.Action("booking.late_cancelled")).CountX(e.op))
}

// TestBookingAPIKey: a write key books a client by client id or member id
// and cancels; a read key reads but cannot book; another venue's key sees
// none of it (bookings, classes, members are 404).
func TestBookingAPIKey(t *testing.T) {
	e := newBookEnv(t, "studio")
	ctx := context.Background()
	cl := e.class(t, e.op, e.classType, 48*time.Hour, 3)
	ana := e.member(t, e.op, "ana@example.com", e.ten, ptrInt(5))
	clientID := "C-0042"
	e.client.Member.UpdateOneID(ana.m.ID).SetClientDisplayID(clientID).ExecX(e.op)
	write := e.keyClient(t, e.op, scope.WriteSchedule, scope.ReadBookings)
	read := e.keyClient(t, e.op, scope.ReadBookings)

	res, err := write.CreateBooking(ctx, &api.BookingCreateRequest{ClassInstanceID: cl.ID, ClientID: api.NewOptString(clientID)}, api.CreateBookingParams{})
	require.NoError(t, err)
	require.Equal(t, ana.m.ID, res.Data.MemberID)
	require.Equal(t, "api_key", res.Data.BookedVia.Value)
	got, err := read.GetBooking(ctx, api.GetBookingParams{ID: res.Data.ID})
	require.NoError(t, err)
	require.Equal(t, res.Data.ID, got.Data.ID)
	_, err = read.CreateBooking(ctx, &api.BookingCreateRequest{ClassInstanceID: cl.ID, MemberID: api.NewOptUUID(ana.m.ID)}, api.CreateBookingParams{})
	requireCode(t, err, http.StatusForbidden, "ACCESS_DENIED")
	_, err = write.CreateBooking(ctx, &api.BookingCreateRequest{ClassInstanceID: cl.ID}, api.CreateBookingParams{})
	requireCode(t, err, http.StatusBadRequest, "VALIDATION_ERROR")
	_, err = write.CreateBooking(ctx, &api.BookingCreateRequest{ClassInstanceID: cl.ID, ClientID: api.NewOptString("nobody")}, api.CreateBookingParams{})
	requireCode(t, err, http.StatusNotFound, booking.CodeClientNotFound)

	b := e.venueB(t, "other")
	bWrite := e.keyClient(t, b.op, scope.WriteSchedule, scope.ReadBookings)
	_, err = bWrite.GetBooking(ctx, api.GetBookingParams{ID: res.Data.ID})
	requireCode(t, err, http.StatusNotFound, "NOT_FOUND")
	_, err = bWrite.CancelBooking(ctx, api.CancelBookingParams{ID: res.Data.ID})
	requireCode(t, err, http.StatusNotFound, "NOT_FOUND")
	_, err = bWrite.CreateBooking(ctx, &api.BookingCreateRequest{ClassInstanceID: cl.ID, MemberID: api.NewOptUUID(ana.m.ID)}, api.CreateBookingParams{})
	requireCode(t, err, http.StatusNotFound, booking.CodeClientNotFound)
	bMember := e.member(t, b.op, "b@example.com", b.ten, ptrInt(2))
	_, err = bWrite.CreateBooking(ctx, &api.BookingCreateRequest{ClassInstanceID: cl.ID, MemberID: api.NewOptUUID(bMember.m.ID)}, api.CreateBookingParams{})
	requireCode(t, err, http.StatusNotFound, booking.CodeClassNotFound)
	_, err = write.CreateBooking(ctx, &api.BookingCreateRequest{ClassInstanceID: b.class.ID, MemberID: api.NewOptUUID(ana.m.ID)}, api.CreateBookingParams{})
	requireCode(t, err, http.StatusNotFound, booking.CodeClassNotFound)

	can, err := write.CancelBooking(ctx, api.CancelBookingParams{ID: res.Data.ID})
	require.NoError(t, err)
	require.Equal(t, api.BookingStatusCancelled, can.Data.Booking.Status)
}

// TestBookingCrossVenueMember: a user related to two venues books in each
// under the right header only; venue B's class through venue A is 404, and
// the list narrows by organization_id.
func TestBookingCrossVenueMember(t *testing.T) {
	e := newBookEnv(t, "studio")
	ctx := context.Background()
	b := e.venueB(t, "other")
	ana := e.member(t, e.op, "ana@example.com", e.ten, ptrInt(5))
	// The same user, a member of venue B too, with a pass there.
	e.member(t, b.op, "ana@example.com", b.ten, ptrInt(5))
	cl := e.class(t, e.op, e.classType, 48*time.Hour, 3)

	_, err := ana.c.CreateBooking(ctx, bookReq(b.class.ID), inVenue(e.venue.ID))
	requireCode(t, err, http.StatusNotFound, booking.CodeClassNotFound)
	_, err = ana.c.CreateBooking(ctx, bookReq(cl.ID), inVenue(b.org))
	requireCode(t, err, http.StatusNotFound, booking.CodeClassNotFound)
	inA, err := ana.c.CreateBooking(ctx, bookReq(cl.ID), inVenue(e.venue.ID))
	require.NoError(t, err)
	inB, err := ana.c.CreateBooking(ctx, &api.BookingCreateRequest{ClassInstanceID: b.class.ID, OrganizationID: api.NewOptUUID(b.org)}, api.CreateBookingParams{})
	require.NoError(t, err)
	require.Equal(t, b.org, inB.Data.OrganizationID)

	all, err := ana.c.ListBookings(ctx, api.ListBookingsParams{})
	require.NoError(t, err)
	require.Len(t, all.Data, 2)
	onlyB, err := ana.c.ListBookings(ctx, api.ListBookingsParams{OrganizationID: api.NewOptUUID(b.org)})
	require.NoError(t, err)
	require.Len(t, onlyB.Data, 1)
	require.Equal(t, inB.Data.ID, onlyB.Data[0].ID)
	// Cancelling in venue B acts in venue B (the booking's venue).
	_, err = ana.c.CancelBooking(ctx, api.CancelBookingParams{ID: inB.Data.ID})
	require.NoError(t, err)
	require.Equal(t, entbooking.StatusConfirmed, e.client.Booking.GetX(e.op, inA.Data.ID).Status)
}

// TestBookingListPagination: cursor pages, a tampered cursor, cycle dates
// needing organization_id, and the cycle window.
func TestBookingListPagination(t *testing.T) {
	e := newBookEnv(t, "studio")
	ctx := context.Background()
	ana := e.member(t, e.op, "ana@example.com", e.ten, ptrInt(10))
	var ids []uuid.UUID
	// One class at noon on each of the venue's next five days: steps of 24
	// hours from now land two on one date, or none, across a change of the
	// clocks, and the cycle below names a date.
	for i := range 5 {
		cl := e.classAt(t, e.op, e.classType, e.today.AddDate(0, 0, i+1).Add(12*time.Hour), 3)
		r, err := ana.c.CreateBooking(ctx, bookReq(cl.ID), inVenue(e.venue.ID))
		require.NoError(t, err)
		ids = append(ids, r.Data.ID)
	}
	var seen []uuid.UUID
	p := api.ListBookingsParams{Limit: api.NewOptInt(2)}
	for {
		page, err := ana.c.ListBookings(ctx, p)
		require.NoError(t, err)
		for _, b := range page.Data {
			seen = append(seen, b.ID)
		}
		if !page.Meta.HasMore {
			require.True(t, page.Meta.NextCursor.Null)
			break
		}
		p.After = api.NewOptString(page.Meta.NextCursor.Value)
	}
	require.Equal(t, ids, seen, "ordered by class start")

	_, err := ana.c.ListBookings(ctx, api.ListBookingsParams{After: api.NewOptString("bm9wZQ")})
	requireCode(t, err, http.StatusBadRequest, "VALIDATION_ERROR")
	_, err = ana.c.ListBookings(ctx, api.ListBookingsParams{Limit: api.NewOptInt(101)})
	requireCode(t, err, http.StatusBadRequest, "VALIDATION_ERROR")
	day := e.today.AddDate(0, 0, 2).Format(time.DateOnly)
	_, err = ana.c.ListBookings(ctx, api.ListBookingsParams{CycleStart: api.NewOptString(day)})
	requireCode(t, err, http.StatusBadRequest, "VALIDATION_ERROR")
	_, err = ana.c.ListBookings(ctx, api.ListBookingsParams{OrganizationID: api.NewOptUUID(e.venue.ID), CycleStart: api.NewOptString("22-11-2026")})
	requireCode(t, err, http.StatusBadRequest, "VALIDATION_ERROR")
	one, err := ana.c.ListBookings(ctx, api.ListBookingsParams{OrganizationID: api.NewOptUUID(e.venue.ID),
		CycleStart: api.NewOptString(day), CycleEnd: api.NewOptString(day)})
	require.NoError(t, err)
	require.Len(t, one.Data, 1)
	require.Equal(t, day, one.Data[0].Class.StartTime.In(e.loc).Format(time.DateOnly))
	// The venue context header names the venue as well.
	byHeader, err := ana.c.ListBookings(ctx, api.ListBookingsParams{XOrganizationID: api.NewOptUUID(e.venue.ID),
		CycleStart: api.NewOptString(day), CycleEnd: api.NewOptString(day)})
	require.NoError(t, err)
	require.Equal(t, one.Data, byHeader.Data)
	// A cycle ending before it starts, even by one day, is refused.
	prev := e.today.AddDate(0, 0, 1).Format(time.DateOnly)
	_, err = ana.c.ListBookings(ctx, api.ListBookingsParams{OrganizationID: api.NewOptUUID(e.venue.ID),
		CycleStart: api.NewOptString(day), CycleEnd: api.NewOptString(prev)})
	requireCode(t, err, http.StatusBadRequest, "INVALID_RANGE")
}

// TestBookingWatch: an online class's window on the booking, admission
// inside it, refusal before it.
func TestBookingWatch(t *testing.T) {
	e := newBookEnv(t, "studio")
	ctx := context.Background()
	ana := e.member(t, e.op, "ana@example.com", e.ten, ptrInt(5))
	soon := e.class(t, e.op, e.classType, 5*time.Minute, 5)
	e.client.ClassInstance.UpdateOne(soon).SetOnline(true).ExecX(e.op)
	later := e.class(t, e.op, e.classType, 48*time.Hour, 5)
	e.client.ClassInstance.UpdateOne(later).SetOnline(true).ExecX(e.op)

	b, err := ana.c.CreateBooking(ctx, bookReq(soon.ID), inVenue(e.venue.ID))
	require.NoError(t, err)
	require.False(t, b.Data.Watch.Null)
	require.Equal(t, api.BookingWatchStateOpen, b.Data.Watch.Value.State)
	require.Equal(t, soon.StartTime.Add(-10*time.Minute).UTC(), b.Data.Watch.Value.OpensAt)
	require.Equal(t, soon.EndTime.Add(5*time.Minute).UTC(), b.Data.Watch.Value.RecoverUntil)
	adm, err := ana.c.AdmitBookingWatch(ctx, api.AdmitBookingWatchParams{ID: b.Data.ID})
	require.NoError(t, err)
	require.True(t, adm.Data.Watch.Admitted)
	require.NotNil(t, e.client.Booking.GetX(e.op, b.Data.ID).WatchAdmittedAt)

	l, err := ana.c.CreateBooking(ctx, bookReq(later.ID), inVenue(e.venue.ID))
	require.NoError(t, err)
	require.Equal(t, api.BookingWatchStateNotOpen, l.Data.Watch.Value.State)
	_, err = ana.c.AdmitBookingWatch(ctx, api.AdmitBookingWatchParams{ID: l.Data.ID})
	requireCode(t, err, http.StatusUnprocessableEntity, booking.CodeWatchNotOpen)
}
