package handlers_test

import (
	"context"
	"net/http"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/stretchr/testify/require"

	"github.com/venueplatform/venue/ent"
	"github.com/venueplatform/venue/ent/booking"
	"github.com/venueplatform/venue/ent/passtype"
	"github.com/venueplatform/venue/internal/apikey"
	"github.com/venueplatform/venue/internal/audit"
	api "github.com/venueplatform/venue/internal/gen/api"
	"github.com/venueplatform/venue/internal/jobs"
	"github.com/venueplatform/venue/internal/members"
	"github.com/venueplatform/venue/internal/scope"
	"github.com/venueplatform/venue/internal/venue"
	"github.com/venueplatform/venue/internal/viewer"
)

// deskEnv is a studio with bearer sessions and a class running now: its members hold clip
// passes; a late cancellation whose fee was charged, one whose fee is unpaid, and a plain
// cancellation whose clip was given back. A past class, and a second venue with its own
// class, booking, pass and location, complete it.
type deskEnv struct {
	*authEnv
	ctx                   context.Context
	now, past             uuid.UUID // classes: running now, ended yesterday
	member                []uuid.UUID
	passA, passB, passC   uuid.UUID // passA and passB are member[0]'s, passC member[1]'s
	confirmed, second     uuid.UUID // member[0] on passA (clip charged), member[1] on passC
	feeCharged, feeUnpaid uuid.UUID
	restored              uuid.UUID // cancelled, clip given back to passB's sibling
	pastBooking           uuid.UUID
	futureBooking         uuid.UUID // the studio's confirmed booking of tomorrow's class
	noBookingsKey         string    // a key without read:bookings

	otherClass, otherBooking, otherPass, otherLocation uuid.UUID
}

func newDeskEnv(t *testing.T) *deskEnv {
	t.Helper()
	e := &deskEnv{authEnv: newAuthEnv(t, newStudio(t, "desk")), ctx: context.Background()}
	// River's tables: notifications enqueued in a transaction insert their jobs there.
	_, err := jobs.Migrate(e.ctx, e.pool)
	require.NoError(t, err)
	c, op := e.db(), e.op
	now := time.Now()
	// The running class started ten minutes ago, or at the venue's midnight
	// when that is later: today's list holds the classes starting today, so
	// in the first minutes of the day one started yesterday would be missing.
	l := now.In(e.loc)
	start := now.Add(-10 * time.Minute)
	if midnight := time.Date(l.Year(), l.Month(), l.Day(), 0, 0, 0, 0, e.loc); start.Before(midnight) {
		start = midnight
	}
	cls := c.ClassInstance.Create().SetClassTypeID(e.classType).SetInstructorID(e.instructor).SetLocationID(e.location).
		SetRoomID(e.room).SetStartTime(start).SetEndTime(now.Add(50 * time.Minute)).SetCapacity(10).SaveX(op)
	past := c.ClassInstance.Create().SetClassTypeID(e.classType).SetStartTime(now.Add(-26 * time.Hour)).
		SetEndTime(now.Add(-25 * time.Hour)).SetCapacity(10).SaveX(op)
	e.now, e.past = cls.ID, past.ID
	pt := c.PassType.Query().Where(passtype.Slug("ten")).OnlyX(op)
	for _, email := range []string{"ana", "bo", "cy", "di", "ed"} {
		en, err := members.Enroll(op, c, members.EnrollParams{Email: email + "@desk.example", FirstName: email, LastName: "Test"})
		require.NoError(t, err)
		e.member = append(e.member, en.Member.ID)
	}
	newPass := func(m uuid.UUID, clips int) uuid.UUID {
		return c.Pass.Create().SetMemberID(m).SetPassTypeID(pt.ID).SetValidFrom(now.AddDate(0, 0, -30)).
			SetClipsRemaining(clips).SaveX(op).ID
	}
	e.passA, e.passB, e.passC = newPass(e.member[0], 5), newPass(e.member[0], 3), newPass(e.member[1], 2)
	book := func(m uuid.UUID, class uuid.UUID, st booking.Status, passID *uuid.UUID, charged bool) *ent.BookingCreate {
		return c.Booking.Create().SetMemberID(m).SetClassInstanceID(class).SetStatus(st).SetNillablePassID(passID).SetClipCharged(charged)
	}
	e.confirmed = book(e.member[0], cls.ID, booking.StatusConfirmed, &e.passA, true).SaveX(op).ID
	e.second = book(e.member[1], cls.ID, booking.StatusConfirmed, &e.passC, true).SaveX(op).ID
	e.feeCharged = book(e.member[2], cls.ID, booking.StatusLateCancelled, nil, false).SetCancelledAt(now).
		SetCancelReason("late_member").SetLateCancelFeeMinor(5000).SetFeeStatus(booking.FeeStatusCharged).SaveX(op).ID
	e.feeUnpaid = book(e.member[3], cls.ID, booking.StatusLateCancelled, nil, false).SetCancelledAt(now).
		SetCancelReason("late_member").SetLateCancelFeeMinor(5000).SetFeeStatus(booking.FeeStatusUnpaid).SaveX(op).ID
	restoredPass := newPass(e.member[4], 4)
	e.restored = book(e.member[4], cls.ID, booking.StatusCancelled, &restoredPass, false).SetCancelledAt(now).
		SetCancelReason("member").SaveX(op).ID
	e.pastBooking = book(e.member[0], past.ID, booking.StatusConfirmed, nil, false).SaveX(op).ID
	e.futureBooking = c.Booking.Query().Where(booking.ClassInstanceID(e.fullClass), booking.StatusEQ(booking.StatusConfirmed)).
		OnlyX(op).ID

	k, err := apikey.Create(op, c, apikey.CreateParams{Name: "schedule only", Scopes: []string{scope.ReadSchedule}})
	require.NoError(t, err)
	e.noBookingsKey = k.Secret

	v, err := venue.Create(e.ctx, c, venue.CreateParams{Name: "Other desk", Slug: "other-desk", APIEnabled: true})
	require.NoError(t, err)
	oop := viewer.NewContext(e.ctx, viewer.Operator{Org: v.ID, Name: "test"})
	ct := c.ClassType.Create().SetName("Other").SaveX(oop)
	loc := c.Location.Create().SetName("Other site").SaveX(oop)
	oc := c.ClassInstance.Create().SetClassTypeID(ct.ID).SetLocationID(loc.ID).SetStartTime(now.Add(-10 * time.Minute)).
		SetEndTime(now.Add(50 * time.Minute)).SetCapacity(5).SaveX(oop)
	opt := c.PassType.Create().SetName("Other ten").SetSlug("ten").SetCategory(passtype.CategoryClipCard).
		SetPriceMinor(1000).SetCurrency("DKK").SaveX(oop)
	en, err := members.Enroll(oop, c, members.EnrollParams{Email: "zed@other.example", FirstName: "Zed"})
	require.NoError(t, err)
	opass := c.Pass.Create().SetMemberID(en.Member.ID).SetPassTypeID(opt.ID).SetValidFrom(now.AddDate(0, 0, -1)).
		SetClipsRemaining(5).SaveX(oop)
	ob := c.Booking.Create().SetMemberID(en.Member.ID).SetClassInstanceID(oc.ID).SetPassID(opass.ID).SetClipCharged(true).SaveX(oop)
	e.otherClass, e.otherBooking, e.otherPass, e.otherLocation = oc.ID, ob.ID, opass.ID, loc.ID
	return e
}

// keyClient returns a generated client sending an API key.
func (e *deskEnv) keyClient(t *testing.T, key string) *api.Client {
	c, err := api.NewClient(e.url+"/api/v1", keySource(key))
	require.NoError(t, err)
	return c
}

// staff returns a bearer client of a new staff member of the studio holding perms.
func (e *deskEnv) staff(t *testing.T, email string, perms ...string) *api.Client {
	t.Helper()
	s := e.signup(t, email, goodPassword)
	enroll(t, e.authEnv, e.op, email, "staff", perms...)
	c := e.client(t, s.AccessToken)
	_, err := c.SetActiveOrganization(e.ctx, &api.ActiveOrganizationRequest{OrganizationID: e.venue.ID})
	require.NoError(t, err)
	return c
}

func (e *deskEnv) booking(t *testing.T, id uuid.UUID) *ent.Booking {
	return e.db().Booking.GetX(e.op, id)
}

func (e *deskEnv) clips(t *testing.T, passID uuid.UUID) int {
	return *e.db().Pass.GetX(e.op, passID).ClipsRemaining
}

// token reads a booking's concurrency token through the attendance read.
func (e *deskEnv) token(t *testing.T, class, id uuid.UUID) string {
	t.Helper()
	res, err := e.keyClient(t, e.studio.key).GetAdminBookingAttendance(e.ctx, api.GetAdminBookingAttendanceParams{ClassInstanceId: class, BookingId: id})
	require.NoError(t, err)
	return res.Data.Booking.UpdatedAt
}

// outbox counts the studio's notification outbox rows.
func (e *deskEnv) outbox(t *testing.T) int { return e.db().NotificationDelivery.Query().CountX(e.op) }

// audited reports whether the studio has an audit entry action about target.
func (e *deskEnv) audited(t *testing.T, action, target string) bool {
	entries, err := audit.List(e.op, e.db(), 500)
	require.NoError(t, err)
	for _, en := range entries {
		if en.Action == action && en.Target == target {
			return true
		}
	}
	return false
}

func requireDeskErr(t *testing.T, err error, status int, code string) *api.ErrorStatusCode {
	t.Helper()
	es := errorOf(t, err)
	require.Equal(t, status, es.StatusCode, es.Response.Error.Message)
	require.Equal(t, code, es.Response.Error.Code)
	return es
}

var _ = http.StatusOK
