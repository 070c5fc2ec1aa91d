package handlers_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/venueplatform/venue/ent"
	"github.com/venueplatform/venue/internal/events"
	api "github.com/venueplatform/venue/internal/gen/api"
	"github.com/venueplatform/venue/internal/jobs"
	"github.com/venueplatform/venue/internal/venue"
	"github.com/venueplatform/venue/internal/viewer"
	"github.com/venueplatform/venue/internal/webhooks/dispatch"
)

// hookEnv is a studio with River's tables, a staff client holding settings.business, and a
// second venue B in the same database with a subscription and a delivery of its own.
type hookEnv struct {
	*authEnv
	ctx   context.Context
	admin *api.Client
	// B's rows, which A must never reach.
	otherOp       context.Context
	otherSub      *ent.WebhookSubscription
	otherDelivery *ent.WebhookDelivery
}

func newHookEnv(t *testing.T) *hookEnv {
	t.Helper()
	s := newStudio(t, "hooks")
	ctx := context.Background()
	_, err := jobs.Migrate(ctx, s.pool)
	require.NoError(t, err)
	e := &hookEnv{authEnv: newAuthEnv(t, s), ctx: ctx}
	e.admin = e.staffWith(t, "integrations@hooks.example", "settings.business")

	b, err := venue.Create(ctx, s.client, venue.CreateParams{Name: "Other", Slug: "hooks-other"})
	require.NoError(t, err)
	e.otherOp = viewer.NewContext(ctx, viewer.Operator{Org: b.ID, Name: "test"})
	sub := s.client.WebhookSubscription.Create().SetURL("https://b.example/hook").
		SetEventTypes([]string{events.MemberCreated}).SetSecret("whsec_b3RoZXI=").SaveX(e.otherOp)
	e.record(t, e.otherOp, events.MemberCreated)
	d := s.client.WebhookDelivery.Query().OnlyX(e.otherOp)
	require.Equal(t, sub.ID, d.SubscriptionID)
	e.otherSub, e.otherDelivery = sub, d
	return e
}

// staffWith returns a bearer client of a new staff member of the studio holding perms.
func (e *hookEnv) staffWith(t *testing.T, email string, perms ...string) *api.Client {
	t.Helper()
	s := e.signup(t, email, goodPassword)
	enroll(t, e.authEnv, e.op, email, "staff", perms...)
	c := e.client(t, s.AccessToken)
	_, err := c.SetActiveOrganization(e.ctx, &api.ActiveOrganizationRequest{OrganizationID: e.venue.ID})
	require.NoError(t, err)
	return c
}

// record commits an event of typ in the venue of op, as a change would.
func (e *hookEnv) record(t *testing.T, op context.Context, typ string) *ent.Event {
	t.Helper()
	var ev *ent.Event
	require.NoError(t, events.WithTx(op, e.db(), func(ctx context.Context, tx *ent.Tx) error {
		var err error
		ev, err = events.Record(ctx, tx.Client(), typ, map[string]any{"member_id": "m"})
		return err
	}))
	return ev
}

// jobs counts the webhook delivery jobs in River.
func (e *hookEnv) jobs(t *testing.T) int {
	var n int
	require.NoError(t, e.pool.QueryRow(e.ctx, `SELECT count(*) FROM river_job WHERE kind = $1`, dispatch.Kind).Scan(&n))
	return n
}

// hookErr asserts an error envelope with status and code and returns it.
func hookErr(t *testing.T, err error, status int, code string) *api.ErrorStatusCode {
	t.Helper()
	es := errorOf(t, err)
	require.Equal(t, status, es.StatusCode, es.Response.Error.Message)
	require.Equal(t, code, es.Response.Error.Code)
	return es
}
