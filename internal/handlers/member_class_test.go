package handlers_test

import (
	"context"
	"net/http"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/stretchr/testify/require"

	"github.com/venueplatform/venue/ent/classinstance"
	api "github.com/venueplatform/venue/internal/gen/api"
)

// TestMemberClass: a member of the venue reads its listed classes, cancelled
// ones included; unlisted, foreign and unknown classes are CLASS_NOT_FOUND; a
// user without an active relationship is refused.
func TestMemberClass(t *testing.T) {
	s := newStudio(t, "studio")
	e := newAuthEnv(t, s)
	ctx := context.Background()
	ana := e.client(t, e.signup(t, "ana@example.com", goodPassword).AccessToken)
	get := func(c *api.Client, id, org uuid.UUID) (*api.ClassDetailResponse, error) {
		return c.GetMemberClass(ctx, api.GetMemberClassParams{ID: id, XOrganizationID: org})
	}

	_, err := get(ana, s.fullClass, s.venue.ID)
	es := errorOf(t, err)
	require.Equal(t, http.StatusForbidden, es.StatusCode, "not yet a member")
	require.Equal(t, "not_a_member", es.Response.Error.Details.Reason.Value)

	_, err = ana.JoinVenue(ctx, &api.JoinRequest{Consent: true}, api.JoinVenueParams{Slug: "studio", IdempotencyKey: "join-1"})
	require.NoError(t, err)

	res, err := get(ana, s.fullClass, s.venue.ID)
	require.NoError(t, err)
	require.Equal(t, s.fullClass, res.Data.ID)
	require.Equal(t, 2, res.Data.BookedCount)
	require.False(t, res.Data.IsBookable)
	require.False(t, res.Data.RequiresWorkshopEntry)
	require.True(t, res.Data.WorkshopEntryTarget.Null, "no workshop entry: target null")
	res, err = get(ana, s.cancelledClass, s.venue.ID)
	require.NoError(t, err)
	require.Equal(t, api.ClassStatusCancelled, res.Data.Status)
	// A completed class of last week stays readable.
	past := s.today.AddDate(0, 0, -7).Add(9 * time.Hour)
	done := s.client.ClassInstance.Create().SetClassTypeID(s.classType).SetStartTime(past).SetEndTime(past.Add(time.Hour)).
		SetCapacity(10).SetStatus(classinstance.StatusCompleted).SaveX(s.op)
	res, err = get(ana, done.ID, s.venue.ID)
	require.NoError(t, err)
	require.Equal(t, api.ClassStatusCompleted, res.Data.Status)
	require.False(t, res.Data.IsBookable)

	for _, id := range []uuid.UUID{s.unlisted, uuid.New()} {
		_, err = get(ana, id, s.venue.ID)
		es = errorOf(t, err)
		require.Equal(t, http.StatusNotFound, es.StatusCode)
		require.Equal(t, "CLASS_NOT_FOUND", es.Response.Error.Code)
	}

	// Another venue's class, read through the venue the user belongs to, is unknown.
	other := s.addVenue(t, "other", "Other", "Odense", 55.4, 10.4, "classes")
	ct := s.client.ClassType.Query().OnlyX(other)
	foreign := s.client.ClassInstance.Create().SetClassTypeID(ct.ID).SetStartTime(s.today.AddDate(0, 0, 1)).
		SetEndTime(s.today.AddDate(0, 0, 1).Add(3600e9)).SetCapacity(5).SaveX(other)
	_, err = get(ana, foreign.ID, s.venue.ID)
	require.Equal(t, "CLASS_NOT_FOUND", errorOf(t, err).Response.Error.Code)

	// Without a session: 401.
	req, _ := http.NewRequest(http.MethodGet, s.srv.URL+"/api/v1/classes/"+s.fullClass.String(), nil)
	req.Header.Set("X-Organization-ID", s.venue.ID.String())
	raw, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	raw.Body.Close()
	require.Equal(t, http.StatusUnauthorized, raw.StatusCode)
}
