package handlers_test

import (
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/stretchr/testify/require"

	"github.com/venueplatform/venue/ent/booking"
	"github.com/venueplatform/venue/ent/classinstance"
	"github.com/venueplatform/venue/internal/feedback"
	api "github.com/venueplatform/venue/internal/gen/api"
)

// feedbackEnv is a payments studio with a class that ended an hour ago, a
// member who attended it and one who did not.
type feedbackEnv struct {
	*payEnv
	ended              uuid.UUID
	attendee           *api.Client
	attendeeID         uuid.UUID
	attended, noShow   uuid.UUID
	otherMember        *api.Client
	otherBooking       uuid.UUID
	futureB, longAgoB  uuid.UUID
	cancelledClassB    uuid.UUID
	waitlistedB        uuid.UUID
	endedClassOfFuture uuid.UUID
}

func newFeedbackEnv(t *testing.T, keyless bool) *feedbackEnv {
	t.Helper()
	e := &feedbackEnv{payEnv: newPayEnv(t, keyless, false)}
	c, op := e.studio.client, e.op
	now := time.Now()
	mk := func(start time.Time) uuid.UUID {
		return c.ClassInstance.Create().SetClassTypeID(e.classType).SetInstructorID(e.instructor).
			SetStartTime(start).SetEndTime(start.Add(time.Hour)).SetCapacity(10).SaveX(op).ID
	}
	e.ended = mk(now.Add(-2 * time.Hour))
	longAgo := mk(now.Add(-20 * 24 * time.Hour))
	future := mk(now.Add(2 * time.Hour))
	e.endedClassOfFuture = future
	cancelled := c.ClassInstance.Create().SetClassTypeID(e.classType).SetStartTime(now.Add(-3 * time.Hour)).
		SetEndTime(now.Add(-2 * time.Hour)).SetCapacity(10).SetStatus(classinstance.StatusCancelled).SaveX(op).ID

	e.attendee = e.memberClient(t, "reviewer@pay.example")
	e.attendeeID = e.memberID(t, "reviewer@pay.example")
	book := func(m, cl uuid.UUID, st booking.Status) uuid.UUID {
		return c.Booking.Create().SetMemberID(m).SetClassInstanceID(cl).SetStatus(st).SaveX(op).ID
	}
	e.attended = book(e.attendeeID, e.ended, booking.StatusCheckedIn)
	e.futureB = book(e.attendeeID, future, booking.StatusConfirmed)
	e.longAgoB = book(e.attendeeID, longAgo, booking.StatusConfirmed)
	e.cancelledClassB = book(e.attendeeID, cancelled, booking.StatusConfirmed)
	e.otherMember = e.memberClient(t, "bystander@pay.example")
	other := e.memberID(t, "bystander@pay.example")
	e.otherBooking = book(other, e.ended, booking.StatusConfirmed)
	e.noShow = book(e.memberID(t, "buyer@pay.example"), e.ended, booking.StatusNoShow)
	return e
}

// memberID is the studio's member id of the user with email.
func (e *payEnv) memberID(t *testing.T, email string) uuid.UUID {
	t.Helper()
	for _, m := range e.studio.client.Member.Query().WithUser().AllX(e.op) {
		if m.Edges.User != nil && m.Edges.User.Email == email {
			return m.ID
		}
	}
	t.Fatalf("no member %s", email)
	return uuid.Nil
}

func (e *feedbackEnv) give(c *api.Client, req api.FeedbackCreateRequest, key string) (*api.FeedbackCreateResponse, error) {
	p := api.CreateFeedbackParams{XOrganizationID: e.venue.ID}
	if key != "" {
		p.IdempotencyKey = api.NewOptString(key)
	}
	return c.CreateFeedback(e.ctx, &req, p)
}

// TestFeedbackWithTip: a review of an attended class with a tip stores the
// review and answers the tip's create response (the wallet offered for the
// verified Danish DKK venue); a repeat is 409 and makes no second tip or
// intent; a retry with the same key replays; bad input stores nothing.
func TestFeedbackWithTip(t *testing.T) {
	e := newFeedbackEnv(t, false)
	req := api.FeedbackCreateRequest{ClassInstanceID: e.ended, BookingID: e.attended, Rating: 5,
		Comment: api.NewOptString("Dejlig time, tak!"), Anonymous: api.NewOptBool(true),
		Tip: api.NewOptFeedbackTip(api.FeedbackTip{Amount: 40, Currency: "DKK"})}

	// Refusals first: nothing is stored by any of them.
	bad := req
	bad.Tip = api.NewOptFeedbackTip(api.FeedbackTip{Amount: 40, Currency: "EUR"})
	_, err := e.give(e.attendee, bad, "")
	hookErr(t, err, 400, "VALIDATION_ERROR")
	bad = req
	bad.Tip = api.NewOptFeedbackTip(api.FeedbackTip{Amount: 0.001, Currency: "DKK"})
	_, err = e.give(e.attendee, bad, "")
	hookErr(t, err, 400, "VALIDATION_ERROR")
	bad = req
	bad.BookingID = e.otherBooking // another member's booking
	_, err = e.give(e.attendee, bad, "")
	hookErr(t, err, 404, "NOT_FOUND")
	bad = req
	bad.BookingID = uuid.New()
	_, err = e.give(e.attendee, bad, "")
	hookErr(t, err, 404, "NOT_FOUND")
	bad = req
	bad.ClassInstanceID = e.fullClass // not the booking's class
	_, err = e.give(e.attendee, bad, "")
	hookErr(t, err, 400, "VALIDATION_ERROR")
	bad = req
	bad.ClassInstanceID, bad.BookingID = e.endedClassOfFuture, e.futureB
	_, err = e.give(e.attendee, bad, "")
	hookErr(t, err, 422, feedback.CodeFuture)
	bad = req
	bad.BookingID = e.longAgoB
	bad.ClassInstanceID = e.studio.client.Booking.GetX(e.op, e.longAgoB).ClassInstanceID
	_, err = e.give(e.attendee, bad, "")
	es := hookErr(t, err, 422, feedback.CodeNotAllowed)
	require.Equal(t, feedback.ReasonWindowClosed, es.Response.Error.Details.Reason.Value)
	bad.BookingID = e.cancelledClassB
	bad.ClassInstanceID = e.studio.client.Booking.GetX(e.op, e.cancelledClassB).ClassInstanceID
	_, err = e.give(e.attendee, bad, "")
	hookErr(t, err, 422, feedback.CodeCancelled)
	nosh := req
	nosh.BookingID = e.noShow
	_, err = e.give(e.member, nosh, "")
	es = hookErr(t, err, 422, feedback.CodeNotAllowed)
	require.Equal(t, feedback.ReasonNotAttended, es.Response.Error.Details.Reason.Value)
	require.Zero(t, e.count(t, "feedbacks"))
	require.Zero(t, e.count(t, "tips"))
	require.Empty(t, intentCreates(e.fake))

	res, err := e.give(e.attendee, req, "fb-1")
	require.NoError(t, err)
	d := res.Data
	require.Equal(t, 5, d.Rating)
	require.True(t, d.Anonymous)
	tip, ok := d.Tip.Get()
	require.True(t, ok, "the tip's create response is in the answer")
	require.Equal(t, int64(4000), tip.AmountMinor)
	require.Equal(t, "DKK", tip.Currency)
	require.Equal(t, e.instructor, tip.InstructorID.Value)
	require.Equal(t, []api.TipCreatedAvailablePaymentMethodsItem{"card", "mobilepay"}, tip.AvailablePaymentMethods)
	require.NotEmpty(t, tip.ClientSecret)
	stored := e.studio.client.Feedback.GetX(e.op, d.ID)
	require.Equal(t, tip.TipID, *stored.TipID)
	require.Equal(t, e.instructor, *stored.InstructorID)

	again, err := e.give(e.attendee, req, "fb-1")
	require.NoError(t, err)
	require.Equal(t, d.ID, again.Data.ID, "the same key replays the answer")
	_, err = e.give(e.attendee, req, "fb-2")
	es = hookErr(t, err, 409, feedback.CodeAlreadyGiven)
	require.JSONEq(t, `"`+d.ID.String()+`"`, string(es.Response.Error.Details.AdditionalProps["feedback_id"]))
	require.Equal(t, 1, e.count(t, "feedbacks"))
	require.Equal(t, 1, e.count(t, "tips"))
	require.Len(t, intentCreates(e.fake), 1, "one intent for the one tip")

	// The tip is paid and confirmed like any tip.
	e.fake.SetStatus(tip.PaymentIntentID, "succeeded")
	c, err := e.attendee.ConfirmTip(e.ctx, api.ConfirmTipParams{ID: tip.TipID, XOrganizationID: e.venue.ID})
	require.NoError(t, err)
	require.Equal(t, api.TipStateStatusSucceeded, c.Data.Status)
	require.Equal(t, 1, e.count(t, "payments"))

	// Staff with feedback.view read it; the anonymous review names no member.
	staff := e.staffClient(t, "host@pay.example", feedback.PermView)
	list, err := staff.ListAdminFeedback(e.ctx, api.ListAdminFeedbackParams{})
	require.NoError(t, err)
	require.Len(t, list.Data, 1)
	require.Equal(t, d.ID, list.Data[0].ID)
	require.True(t, list.Data[0].MemberID.IsNull())
	require.Equal(t, tip.TipID, list.Data[0].TipID.Value)
	require.Equal(t, "Vinyasa Flow", list.Data[0].ClassName)
	_, err = e.staffClient(t, "desk@pay.example").ListAdminFeedback(e.ctx, api.ListAdminFeedbackParams{})
	hookErr(t, err, 403, "ACCESS_DENIED")
	_, err = e.attendee.ListAdminFeedback(e.ctx, api.ListAdminFeedbackParams{})
	hookErr(t, err, 403, "ACCESS_DENIED")
}

// TestFeedbackWithoutCardPayments: without a Stripe key a review with a tip
// is 422 CARD_PAYMENTS_UNAVAILABLE and stores nothing; without a tip it is
// stored, named to staff.
func TestFeedbackWithoutCardPayments(t *testing.T) {
	e := newFeedbackEnv(t, true)
	req := api.FeedbackCreateRequest{ClassInstanceID: e.ended, BookingID: e.attended, Rating: 3,
		Tip: api.NewOptFeedbackTip(api.FeedbackTip{Amount: 20, Currency: "DKK"})}
	_, err := e.give(e.attendee, req, "")
	hookErr(t, err, 422, "CARD_PAYMENTS_UNAVAILABLE")
	require.Zero(t, e.count(t, "feedbacks"))

	req.Tip = api.OptFeedbackTip{}
	res, err := e.give(e.attendee, req, "")
	require.NoError(t, err)
	require.True(t, res.Data.Tip.IsNull())
	require.Equal(t, "", res.Data.Comment)
	list, err := e.staffClient(t, "host@pay.example", feedback.PermView).ListAdminFeedback(e.ctx, api.ListAdminFeedbackParams{
		ClassInstanceID: api.NewOptUUID(e.ended)})
	require.NoError(t, err)
	require.Len(t, list.Data, 1)
	require.Equal(t, e.attendeeID, list.Data[0].MemberID.Value)
	empty, err := e.staffClient(t, "desk@pay.example", feedback.PermView).ListAdminFeedback(e.ctx, api.ListAdminFeedbackParams{
		ClassInstanceID: api.NewOptUUID(e.fullClass)})
	require.NoError(t, err)
	require.Empty(t, empty.Data)
}

// staffClient returns a bearer client of a new staff member holding perms,
// acting in the studio.
func (e *payEnv) staffClient(t *testing.T, email string, perms ...string) *api.Client {
	t.Helper()
	s := e.signup(t, email, goodPassword)
	enroll(t, e.authEnv, e.op, email, "staff", perms...)
	c := e.client(t, s.AccessToken)
	_, err := c.SetActiveOrganization(e.ctx, &api.ActiveOrganizationRequest{OrganizationID: e.venue.ID})
	require.NoError(t, err)
	return c
}
