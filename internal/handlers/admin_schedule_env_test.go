package handlers_test

import (
	"context"
	"net/http"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/stretchr/testify/require"

	"github.com/venueplatform/venue/ent"
	"github.com/venueplatform/venue/ent/classinstance"
	"github.com/venueplatform/venue/ent/event"
	"github.com/venueplatform/venue/ent/notificationdelivery"
	"github.com/venueplatform/venue/internal/apikey"
	"github.com/venueplatform/venue/internal/audit"
	api "github.com/venueplatform/venue/internal/gen/api"
	"github.com/venueplatform/venue/internal/jobs"
	"github.com/venueplatform/venue/internal/members"
	"github.com/venueplatform/venue/internal/scope"
	"github.com/venueplatform/venue/internal/venue"
	"github.com/venueplatform/venue/internal/viewer"
)

// schedEnv is a studio served with bearer sessions, a write key, a past
// class and a second venue with its own class and key.
type schedEnv struct {
	*authEnv
	ctx        context.Context
	writeKey   string
	past       uuid.UUID // ended two days ago, one confirmed booking
	otherOp    context.Context
	otherClass uuid.UUID
	otherInstr uuid.UUID
	otherKey   string
}

func newSchedEnv(t *testing.T) *schedEnv {
	t.Helper()
	e := &schedEnv{authEnv: newAuthEnv(t, newStudio(t, "studio")), ctx: context.Background()}
	// Notification deliveries and webhook jobs go to River in the writing
	// transaction: the service migrates River's tables at start-up.
	_, err := jobs.Migrate(e.ctx, e.pool)
	require.NoError(t, err)
	_, err = members.Enroll(e.op, e.db(), members.EnrollParams{Email: "keys@studio.example", Role: "staff"})
	require.NoError(t, err)
	issued, err := apikey.Create(e.op, e.db(), apikey.CreateParams{Name: "writer", CreatedBy: "keys@studio.example",
		Scopes: []string{scope.ReadSchedule, scope.WriteSchedule, scope.ReadCalendar}})
	require.NoError(t, err)
	e.writeKey = issued.Secret
	start := e.today.AddDate(0, 0, -2).Add(10 * time.Hour)
	past := e.db().ClassInstance.Create().SetClassTypeID(e.classType).SetStartTime(start).SetEndTime(start.Add(time.Hour)).
		SetCapacity(10).SetInstructorID(e.instructor).SaveX(e.op)
	e.past = past.ID
	m := e.db().Member.Query().FirstX(e.op)
	e.db().Booking.Create().SetMemberID(m.ID).SetClassInstanceID(past.ID).SaveX(e.op)

	v, err := venue.Create(e.ctx, e.db(), venue.CreateParams{Name: "Other", Slug: "other", APIEnabled: true})
	require.NoError(t, err)
	e.otherOp = viewer.NewContext(e.ctx, viewer.Operator{Org: v.ID, Name: "test"})
	ct := e.db().ClassType.Create().SetName("Other flow").SaveX(e.otherOp)
	in := e.db().Instructor.Create().SetFirstName("Olga").SaveX(e.otherOp)
	oc := e.db().ClassInstance.Create().SetClassTypeID(ct.ID).SetStartTime(e.today.AddDate(0, 0, 1).Add(9 * time.Hour)).
		SetEndTime(e.today.AddDate(0, 0, 1).Add(10 * time.Hour)).SetCapacity(5).SetInstructorID(in.ID).SaveX(e.otherOp)
	e.otherClass, e.otherInstr = oc.ID, in.ID
	_, err = members.Enroll(e.otherOp, e.db(), members.EnrollParams{Email: "keys@other.example", Role: "staff"})
	require.NoError(t, err)
	ok, err := apikey.Create(e.otherOp, e.db(), apikey.CreateParams{Name: "other", CreatedBy: "keys@other.example",
		Scopes: []string{scope.ReadSchedule, scope.WriteSchedule, scope.ReadCalendar}})
	require.NoError(t, err)
	e.otherKey = ok.Secret
	return e
}

// keyClient returns a generated client sending an API key to the env's server.
func (e *schedEnv) keyClient(t *testing.T, key string) *api.Client {
	c, err := api.NewClient(e.url+"/api/v1", keySource(key))
	require.NoError(t, err)
	return c
}

// staff returns a bearer client of a new staff member of the studio holding perms.
func (e *schedEnv) staff(t *testing.T, email string, perms ...string) *api.Client {
	t.Helper()
	s := e.signup(t, email, goodPassword)
	enroll(t, e.authEnv, e.op, email, "staff", perms...)
	c := e.client(t, s.AccessToken)
	_, err := c.SetActiveOrganization(e.ctx, &api.ActiveOrganizationRequest{OrganizationID: e.venue.ID})
	require.NoError(t, err)
	return c
}

// class reads a class of the studio.
func (e *schedEnv) class(t *testing.T, id uuid.UUID) *ent.ClassInstance {
	return e.db().ClassInstance.Query().Where(classinstance.ID(id)).OnlyX(e.op)
}

// token returns the concurrency token of a class, as reads answer it.
func (e *schedEnv) token(t *testing.T, id uuid.UUID) string {
	row, err := e.keyClient(t, e.studio.key).GetAdminScheduleItem(e.ctx, api.GetAdminScheduleItemParams{ID: id})
	require.NoError(t, err)
	return row.Data.UpdatedAt
}

// events returns the recorded events of type typ in the studio.
func (e *schedEnv) events(t *testing.T, typ string) []*ent.Event {
	return e.db().Event.Query().Where(event.Type(typ)).AllX(e.op)
}

// audited reports whether the studio has an audit entry action about target.
func (e *schedEnv) audited(t *testing.T, action, target string) bool {
	entries, err := audit.List(e.op, e.db(), 200)
	require.NoError(t, err)
	for _, en := range entries {
		if en.Action == action && en.Target == target {
			return true
		}
	}
	return false
}

// deliveries counts the pending notification outbox rows of the studio.
func (e *schedEnv) deliveries(t *testing.T) int {
	return e.db().NotificationDelivery.Query().Where(notificationdelivery.StatusEQ(notificationdelivery.StatusPending)).CountX(e.op)
}

// requireErr asserts an error envelope with status and code and returns it.
func requireErr(t *testing.T, err error, status int, code string) *api.ErrorStatusCode {
	t.Helper()
	es := errorOf(t, err)
	require.Equal(t, status, es.StatusCode, es.Response.Error.Message)
	require.Equal(t, code, es.Response.Error.Code)
	return es
}

func notifyOf(clients, instructor, email, sms, push bool) api.OptAdminScheduleNotify {
	return api.NewOptAdminScheduleNotify(api.AdminScheduleNotify{
		Audience: api.NewOptAdminScheduleNotifyAudience(api.AdminScheduleNotifyAudience{
			Clients: api.NewOptBool(clients), Instructor: api.NewOptBool(instructor)}),
		Channels: api.NewOptAdminScheduleNotifyChannels(api.AdminScheduleNotifyChannels{
			Email: api.NewOptBool(email), SMS: api.NewOptBool(sms), Push: api.NewOptBool(push)}),
	})
}

func dateParam(d time.Time) api.OptString { return api.NewOptString(d.Format(time.DateOnly)) }

var _ = http.StatusOK
