package handlers_test

import (
	"context"
	"net/http"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/venueplatform/venue/ent/auditlog"
	entbooking "github.com/venueplatform/venue/ent/booking"
	"github.com/venueplatform/venue/ent/event"
	api "github.com/venueplatform/venue/internal/gen/api"
	"github.com/venueplatform/venue/internal/scope"
)

// TestBookingWatchCrossVenue: live-watch admission, reading and cancelling
// of another user's or another venue's booking are 404 like an unknown id,
// and change nothing.
func TestBookingWatchCrossVenue(t *testing.T) {
	e := newBookEnv(t, "studio")
	ctx := context.Background()
	soon := e.class(t, e.op, e.classType, 5*time.Minute, 5)
	e.client.ClassInstance.UpdateOne(soon).SetOnline(true).ExecX(e.op)
	ana := e.member(t, e.op, "ana@example.com", e.ten, ptrInt(5))
	bo := e.member(t, e.op, "bo@example.com", e.ten, ptrInt(5))
	b := e.venueB(t, "other")
	dee := e.member(t, b.op, "dee@example.com", b.ten, ptrInt(5))
	e.client.ClassInstance.UpdateOne(b.class).SetOnline(true).SetStartTime(time.Now().Add(5 * time.Minute)).
		SetEndTime(time.Now().Add(65 * time.Minute)).ExecX(b.op)

	mine, err := ana.c.CreateBooking(ctx, bookReq(soon.ID), inVenue(e.venue.ID))
	require.NoError(t, err)
	theirs, err := dee.c.CreateBooking(ctx, bookReq(b.class.ID), inVenue(b.org))
	require.NoError(t, err)

	// Venue B's member on venue A's booking, another member of A, and A's
	// member on venue B's booking.
	_, err = dee.c.AdmitBookingWatch(ctx, api.AdmitBookingWatchParams{ID: mine.Data.ID})
	requireCode(t, err, http.StatusNotFound, "NOT_FOUND")
	_, err = bo.c.AdmitBookingWatch(ctx, api.AdmitBookingWatchParams{ID: mine.Data.ID})
	requireCode(t, err, http.StatusNotFound, "NOT_FOUND")
	_, err = ana.c.AdmitBookingWatch(ctx, api.AdmitBookingWatchParams{ID: theirs.Data.ID})
	requireCode(t, err, http.StatusNotFound, "NOT_FOUND")
	// Reading and cancelling across venues are 404 too, and change nothing.
	_, err = dee.c.GetBooking(ctx, api.GetBookingParams{ID: mine.Data.ID})
	requireCode(t, err, http.StatusNotFound, "NOT_FOUND")
	_, err = dee.c.CancelBooking(ctx, api.CancelBookingParams{ID: mine.Data.ID})
	requireCode(t, err, http.StatusNotFound, "NOT_FOUND")
	_, err = ana.c.CancelBooking(ctx, api.CancelBookingParams{ID: theirs.Data.ID})
	requireCode(t, err, http.StatusNotFound, "NOT_FOUND")
	require.Equal(t, entbooking.StatusConfirmed, e.client.Booking.GetX(e.op, mine.Data.ID).Status)
	require.Equal(t, entbooking.StatusConfirmed, e.client.Booking.GetX(b.op, theirs.Data.ID).Status)
	require.Nil(t, e.client.Booking.GetX(e.op, mine.Data.ID).WatchAdmittedAt)
	require.Nil(t, e.client.Booking.GetX(b.op, theirs.Data.ID).WatchAdmittedAt)

	// Each admits their own.
	adm, err := dee.c.AdmitBookingWatch(ctx, api.AdmitBookingWatchParams{ID: theirs.Data.ID})
	require.NoError(t, err)
	require.True(t, adm.Data.Watch.Admitted)
}

// TestBookingListAccess: the own-bookings list is for users only (an API key
// reads bookings by id with read:bookings); a user naming a venue they do not
// belong to gets an empty list, never its bookings.
func TestBookingListAccess(t *testing.T) {
	e := newBookEnv(t, "studio")
	ctx := context.Background()
	cl := e.class(t, e.op, e.classType, 48*time.Hour, 5)
	ana := e.member(t, e.op, "ana@example.com", e.ten, ptrInt(5))
	_, err := ana.c.CreateBooking(ctx, bookReq(cl.ID), inVenue(e.venue.ID))
	require.NoError(t, err)
	b := e.venueB(t, "other")
	dee := e.member(t, b.op, "dee@example.com", b.ten, ptrInt(5))
	_, err = dee.c.CreateBooking(ctx, bookReq(b.class.ID), inVenue(b.org))
	require.NoError(t, err)

	req, err := http.NewRequest(http.MethodGet, e.url+"/api/v1/bookings", nil)
	require.NoError(t, err)
	req.Header.Set("X-API-Key", e.studio.key) // every read scope, read:bookings included
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	resp.Body.Close()
	require.Equal(t, http.StatusUnauthorized, resp.StatusCode)

	none, err := ana.c.ListBookings(ctx, api.ListBookingsParams{OrganizationID: api.NewOptUUID(b.org)})
	require.NoError(t, err)
	require.Empty(t, none.Data, "venue B's bookings are not listed for venue A's member")
	own, err := dee.c.ListBookings(ctx, api.ListBookingsParams{})
	require.NoError(t, err)
	require.Len(t, own.Data, 1)
	require.Equal(t, b.org, own.Data[0].OrganizationID)
}

// TestBookingPassRestrictionUnverified: when the passes' brand restrictions
// cannot be read, /me/entitlements and POST /bookings answer 503
// PASS_RESTRICTION_UNVERIFIED and nothing changes (no booking, clip or
// event); once they can be read again the booking goes through.
func TestBookingPassRestrictionUnverified(t *testing.T) {
	e := newBookEnv(t, "studio")
	ctx := context.Background()
	cl := e.class(t, e.op, e.classType, 48*time.Hour, 5)
	ana := e.member(t, e.op, "ana@example.com", e.ten, ptrInt(5))
	break_ := func(on bool) {
		from, to := "pass_type_allowed_brands", "pass_type_allowed_brands_away"
		if !on {
			from, to = to, from
		}
		_, err := e.pool.Exec(ctx, `ALTER TABLE `+from+` RENAME TO `+to)
		require.NoError(t, err)
	}
	break_(true)
	restored := false
	t.Cleanup(func() {
		if !restored {
			break_(false)
		}
	})

	_, err := ana.c.GetMyEntitlements(ctx, api.GetMyEntitlementsParams{OrganizationID: e.venue.ID})
	requireCode(t, err, http.StatusServiceUnavailable, "PASS_RESTRICTION_UNVERIFIED")
	_, err = ana.c.CreateBooking(ctx, bookReq(cl.ID), inVenue(e.venue.ID))
	requireCode(t, err, http.StatusServiceUnavailable, "PASS_RESTRICTION_UNVERIFIED")
	require.Zero(t, e.client.Booking.Query().Where(entbooking.ClassInstanceID(cl.ID)).CountX(e.op))
	require.Equal(t, 5, *e.client.Pass.GetX(e.op, ana.pass.ID).ClipsRemaining)
	require.Zero(t, e.client.Event.Query().Where(event.Type("booking.created")).CountX(e.op))

	break_(false)
	restored = true
	res, err := ana.c.CreateBooking(ctx, bookReq(cl.ID), inVenue(e.venue.ID))
	require.NoError(t, err)
	require.Equal(t, api.BookingStatusConfirmed, res.Data.Status)
}

// TestBookingAuditTrail: every booking action writes its audit entry,
// naming the booking (created, cancelled, buddy invited and accepted; the
// late cancellation is in TestBookingWaitlistPromotionLate), for a member's
// token and an API key alike.
func TestBookingAuditTrail(t *testing.T) {
	e := newBookEnv(t, "studio")
	ctx := context.Background()
	cl := e.class(t, e.op, e.classType, 48*time.Hour, 5)
	ana := e.member(t, e.op, "ana@example.com", e.ten, ptrInt(5))
	bo := e.member(t, e.op, "bo@example.com", e.ten, ptrInt(5))
	cy := e.member(t, e.op, "cy@example.com", e.ten, ptrInt(5))
	audited := func(action, target string) int {
		return e.client.AuditLog.Query().Where(auditlog.Action(action), auditlog.Target(target)).CountX(e.op)
	}

	a, err := ana.c.CreateBooking(ctx, bookReq(cl.ID), inVenue(e.venue.ID))
	require.NoError(t, err)
	require.Equal(t, 1, audited("booking.created", "booking:"+a.Data.ID.String()))
	inv, err := ana.c.InviteBookingBuddy(ctx, &api.BookingBuddyInviteRequest{ClassInstanceID: cl.ID,
		InviteeEmail: api.NewOptString("bo@example.com")}, buddyParams(e.venue.ID))
	require.NoError(t, err)
	require.Equal(t, 1, e.client.AuditLog.Query().Where(auditlog.Action("booking.buddy_invited")).CountX(e.op))
	acc, err := bo.c.AcceptBookingBuddy(ctx, api.AcceptBookingBuddyParams{ID: inv.Data.ID, XOrganizationID: e.venue.ID})
	require.NoError(t, err)
	require.Equal(t, 1, e.client.AuditLog.Query().Where(auditlog.Action("booking.buddy_accepted")).CountX(e.op))
	require.Equal(t, 1, audited("booking.created", "booking:"+acc.Data.Booking.ID.String()))

	_, err = ana.c.CancelBooking(ctx, api.CancelBookingParams{ID: a.Data.ID})
	require.NoError(t, err)
	require.Equal(t, 1, audited("booking.cancelled", "booking:"+a.Data.ID.String()))

	key := e.keyClient(t, e.op, scope.WriteSchedule)
	req := bookReq(cl.ID)
	req.MemberID = api.NewOptUUID(cy.m.ID)
	k, err := key.CreateBooking(ctx, req, api.CreateBookingParams{})
	require.NoError(t, err)
	require.Equal(t, 1, audited("booking.created", "booking:"+k.Data.ID.String()))
	_, err = key.CancelBooking(ctx, api.CancelBookingParams{ID: k.Data.ID})
	require.NoError(t, err)
	require.Equal(t, 1, audited("booking.cancelled", "booking:"+k.Data.ID.String()))

	// A refusal writes nothing.
	n := e.client.AuditLog.Query().CountX(e.op)
	_, err = ana.c.CancelBooking(ctx, api.CancelBookingParams{ID: a.Data.ID})
	require.Error(t, err)
	require.Equal(t, n, e.client.AuditLog.Query().CountX(e.op))
}
