package handlers_test

import (
	"context"
	"net/http"
	"testing"

	"github.com/google/uuid"
	"github.com/stretchr/testify/require"

	"github.com/venueplatform/venue/ent/favoritevenue"
	api "github.com/venueplatform/venue/internal/gen/api"
	"github.com/venueplatform/venue/internal/viewer"
)

// TestFavoriteVenues: idempotent favourite and unfavourite, unknown and
// unlisted venues 404, one user's call never touches another's favourites.
func TestFavoriteVenues(t *testing.T) {
	e := newAuthEnv(t, newStudio(t, "studio"))
	ctx := context.Background()
	a := e.signup(t, "ana@example.com", goodPassword)
	ac := e.client(t, a.AccessToken)
	b := e.signup(t, "bo@example.com", goodPassword)
	bc := e.client(t, b.AccessToken)
	studio := e.venue.ID
	count := func(uid uuid.UUID) int {
		n, err := e.db().FavoriteVenue.Query().Where(favoritevenue.UserID(uid)).Count(viewer.NewContext(ctx, viewer.User{UserID: uid}))
		require.NoError(t, err)
		return n
	}

	for range 2 {
		res, err := ac.AddFavoriteVenue(ctx, api.AddFavoriteVenueParams{OrganizationId: studio})
		require.NoError(t, err)
		require.True(t, res.Data.Favorite)
		require.Equal(t, studio, res.Data.OrganizationID)
	}
	require.Equal(t, 1, count(a.User.ID))

	_, err := ac.AddFavoriteVenue(ctx, api.AddFavoriteVenueParams{OrganizationId: uuid.New()})
	requireCode(t, err, http.StatusNotFound, "NOT_FOUND")
	op, hidden := e.otherVenue(t, "hidden")
	_, err = e.studio.pool.Exec(ctx, `UPDATE organizations SET listed = false WHERE id = $1`, hidden)
	require.NoError(t, err)
	_, err = ac.AddFavoriteVenue(ctx, api.AddFavoriteVenueParams{OrganizationId: hidden})
	requireCode(t, err, http.StatusNotFound, "NOT_FOUND")
	enroll(t, e, op, "ana@example.com", "member")
	_, err = ac.AddFavoriteVenue(ctx, api.AddFavoriteVenueParams{OrganizationId: hidden})
	require.NoError(t, err)

	// Bo's unfavourite of the same venue leaves Ana's alone.
	res, err := bc.RemoveFavoriteVenue(ctx, api.RemoveFavoriteVenueParams{OrganizationId: studio})
	require.NoError(t, err)
	require.False(t, res.Data.Favorite)
	require.Equal(t, 2, count(a.User.ID))

	for range 2 {
		res, err = ac.RemoveFavoriteVenue(ctx, api.RemoveFavoriteVenueParams{OrganizationId: studio})
		require.NoError(t, err)
		require.False(t, res.Data.Favorite)
	}
	require.Equal(t, 1, count(a.User.ID))
}
