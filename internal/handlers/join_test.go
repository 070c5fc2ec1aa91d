package handlers_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"testing"

	"github.com/google/uuid"
	"github.com/stretchr/testify/require"

	"github.com/venueplatform/venue/ent/auditlog"
	"github.com/venueplatform/venue/ent/event"
	"github.com/venueplatform/venue/ent/member"
	"github.com/venueplatform/venue/ent/user"
	"github.com/venueplatform/venue/ent/webhookdelivery"
	api "github.com/venueplatform/venue/internal/gen/api"
	"github.com/venueplatform/venue/internal/jobs"
	"github.com/venueplatform/venue/internal/webhooks/dispatch"
)

// TestVenueJoin: state, consent, idempotency, client ids, audit and the
// member.created event.
func TestVenueJoin(t *testing.T) {
	e := newAuthEnv(t, newStudio(t, "studio"))
	ctx := context.Background()
	ana := e.client(t, e.signup(t, "ana@example.com", goodPassword).AccessToken)

	st, err := ana.GetVenueJoin(ctx, api.GetVenueJoinParams{Slug: "studio"})
	require.NoError(t, err)
	require.True(t, st.Data.CanJoin)
	require.False(t, st.Data.Member)
	require.Equal(t, e.venue.ID, st.Data.OrganizationID)
	_, err = ana.GetVenueJoin(ctx, api.GetVenueJoinParams{Slug: "nowhere"})
	require.Equal(t, http.StatusNotFound, errorOf(t, err).StatusCode)

	// Consent is required; so is the key.
	_, err = ana.JoinVenue(ctx, &api.JoinRequest{Consent: false}, api.JoinVenueParams{Slug: "studio", IdempotencyKey: "k1"})
	es := errorOf(t, err)
	require.Equal(t, http.StatusBadRequest, es.StatusCode)
	require.Equal(t, "consent", es.Response.Error.Details.Parameter.Value)
	// A missing or overlong key is the idempotency conventions' 400.
	for key, reason := range map[string]string{"": "missing", strings.Repeat("k", 201): "format"} {
		status, body := rawJoin(t, e, "ana@example.com", "studio", key, `{"consent":true}`)
		require.Equal(t, http.StatusBadRequest, status)
		require.Equal(t, "INVALID_IDEMPOTENCY_KEY", body.Error.Code)
		require.Equal(t, "Idempotency-Key", body.Error.Details["parameter"])
		require.Equal(t, reason, body.Error.Details["reason"])
	}
	status, _ := rawJoin(t, e, "ana@example.com", "studio", "k-body", `{}`)
	require.Equal(t, http.StatusBadRequest, status)

	// A partner subscribed to member.created (and one to bookings only);
	// deliveries run as River jobs.
	_, err = jobs.Migrate(ctx, e.studio.pool)
	require.NoError(t, err)
	sub := e.db().WebhookSubscription.Create().SetURL("https://hooks.example.com/members").
		SetEventTypes([]string{"member.created"}).SetSecret("whsec_join_test").SaveX(e.op)
	e.db().WebhookSubscription.Create().SetURL("https://hooks.example.com/bookings").
		SetEventTypes([]string{"booking.created"}).SetSecret("whsec_join_test").SaveX(e.op)

	j, err := ana.JoinVenue(ctx, &api.JoinRequest{Consent: true}, api.JoinVenueParams{Slug: "studio", IdempotencyKey: "join-1"})
	require.NoError(t, err)
	require.True(t, j.Data.Created)
	require.Equal(t, api.JoinRoleMember, j.Data.Role)
	require.Equal(t, api.JoinStatusActive, j.Data.Status)
	require.Equal(t, "C-0001", j.Data.ClientDisplayID.Value)
	// The same key replays the answer; a new key finds the relationship.
	again, err := ana.JoinVenue(ctx, &api.JoinRequest{Consent: true}, api.JoinVenueParams{Slug: "studio", IdempotencyKey: "join-1"})
	require.NoError(t, err)
	require.Equal(t, j.Data, again.Data)
	byID, err := ana.JoinVenue(ctx, &api.JoinRequest{Consent: true}, api.JoinVenueParams{Slug: e.venue.ID.String(), IdempotencyKey: "join-2"})
	require.NoError(t, err)
	require.False(t, byID.Data.Created)
	require.Equal(t, j.Data.MemberID, byID.Data.MemberID)
	st, err = ana.GetVenueJoin(ctx, api.GetVenueJoinParams{Slug: e.venue.ID.String()})
	require.NoError(t, err)
	require.True(t, st.Data.Member)
	require.False(t, st.Data.CanJoin)
	require.Equal(t, api.JoinStateReasonAlreadyMember, st.Data.Reason.Value)

	n, err := e.db().Member.Query().Where(member.OrganizationID(e.venue.ID), member.ClientDisplayIDHasPrefix("C-")).Count(e.op)
	require.NoError(t, err)
	require.Equal(t, 1, n, "one relationship")
	evs, err := e.db().Event.Query().Where(event.Type("member.created")).All(e.op)
	require.NoError(t, err)
	require.Len(t, evs, 1)
	require.Equal(t, j.Data.MemberID.String(), evs[0].Payload["member_id"])
	require.Nil(t, evs[0].DeliveredAt)
	// Recorded for delivery in the join's transaction: one delivery, to the
	// subscription that selects the type.
	dels, err := e.db().WebhookDelivery.Query().Where(webhookdelivery.EventID(evs[0].ID)).All(e.op)
	require.NoError(t, err)
	require.Len(t, dels, 1)
	require.Equal(t, sub.ID, dels[0].SubscriptionID)
	require.Equal(t, "member.created", dels[0].EventType)
	var queued int
	require.NoError(t, e.studio.pool.QueryRow(ctx, `SELECT count(*) FROM river_job WHERE kind = $1 AND args->>'delivery_id' = $2`,
		dispatch.Kind, dels[0].ID.String()).Scan(&queued))
	require.Equal(t, 1, queued, "its job commits with the join")
	entries, err := e.db().AuditLog.Query().Where(auditlog.Action("member.joined")).All(e.op)
	require.NoError(t, err)
	require.Len(t, entries, 1)
	require.Equal(t, auditlog.ActorKindUser, entries[0].ActorKind)

	// Staff keep their role when they join as clients.
	bo := e.client(t, e.signup(t, "bo@example.com", goodPassword).AccessToken)
	enroll(t, e, e.op, "bo@example.com", "staff", "staff.view")
	st, err = bo.GetVenueJoin(ctx, api.GetVenueJoinParams{Slug: "studio"})
	require.NoError(t, err)
	require.True(t, st.Data.Member)
	jb, err := bo.JoinVenue(ctx, &api.JoinRequest{Consent: true}, api.JoinVenueParams{Slug: "studio", IdempotencyKey: "join-1"})
	require.NoError(t, err)
	require.Equal(t, api.JoinRoleStaff, jb.Data.Role)

	// Blocked relationships cannot join.
	cy := e.client(t, e.signup(t, "cy@example.com", goodPassword).AccessToken)
	enroll(t, e, e.op, "cy@example.com", "member")
	_, err = e.db().Member.Update().Where(member.HasUserWith(user.Email("cy@example.com"))).
		SetStatus(member.StatusBlocked).Save(e.op)
	require.NoError(t, err)
	st, err = cy.GetVenueJoin(ctx, api.GetVenueJoinParams{Slug: "studio"})
	require.NoError(t, err)
	require.Equal(t, api.JoinStateReasonBlocked, st.Data.Reason.Value)
	_, err = cy.JoinVenue(ctx, &api.JoinRequest{Consent: true}, api.JoinVenueParams{Slug: "studio", IdempotencyKey: "join-1"})
	require.Equal(t, http.StatusForbidden, errorOf(t, err).StatusCode)
}

// TestVenueJoinClientIDsUnderConcurrency: concurrent joins get distinct,
// consecutive client ids.
func TestVenueJoinClientIDsUnderConcurrency(t *testing.T) {
	e := newAuthEnv(t, newStudio(t, "studio"))
	const n = 6
	clients := make([]*api.Client, n)
	for i := range clients {
		clients[i] = e.client(t, e.signup(t, fmt.Sprintf("p%d@example.com", i), goodPassword).AccessToken)
	}
	ids := make([]string, n)
	var wg sync.WaitGroup
	for i, c := range clients {
		wg.Go(func() {
			j, err := c.JoinVenue(context.Background(), &api.JoinRequest{Consent: true},
				api.JoinVenueParams{Slug: "studio", IdempotencyKey: uuid.NewString()})
			if err == nil {
				ids[i] = j.Data.ClientDisplayID.Value
			}
		})
	}
	wg.Wait()
	seen := map[string]bool{}
	for _, id := range ids {
		require.True(t, strings.HasPrefix(id, "C-000"), id)
		seen[id] = true
	}
	require.Len(t, seen, n)
	require.True(t, seen["C-0001"] && seen[fmt.Sprintf("C-%04d", n)])
}

// rawJoin posts a join with a fresh session of email and answers the status.
func rawJoin(t *testing.T, e *authEnv, email, slug, key, body string) (int, envelope) {
	t.Helper()
	s, err := e.client(t, "").AuthLogin(context.Background(), &api.LoginRequest{Email: email, Password: goodPassword})
	require.NoError(t, err)
	req, _ := http.NewRequest(http.MethodPost, e.url+"/api/v1/venues/"+slug+"/join", strings.NewReader(body))
	req.Header.Set("Authorization", "Bearer "+s.Data.AccessToken)
	req.Header.Set("Content-Type", "application/json")
	if key != "" {
		req.Header.Set("Idempotency-Key", key)
	}
	res, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	defer res.Body.Close()
	var env envelope
	require.NoError(t, json.NewDecoder(res.Body).Decode(&env))
	return res.StatusCode, env
}
