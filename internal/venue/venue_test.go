package venue_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/venueplatform/venue/ent"
	"github.com/venueplatform/venue/internal/db"
	"github.com/venueplatform/venue/internal/pgtest"
	"github.com/venueplatform/venue/internal/venue"
)

func TestMain(m *testing.M) { pgtest.Main(m) }

func TestVenueLifecycle(t *testing.T) {
	ctx := context.Background()
	client := db.NewClient(pgtest.NewPool(t))

	v, err := venue.Create(ctx, client, venue.CreateParams{Name: "Hot Yoga CPH", Slug: "hot-yoga-cph"})
	require.NoError(t, err)
	require.Equal(t, "pro", string(v.Plan))
	require.Equal(t, "DKK", v.Currency)
	require.Equal(t, "Europe/Copenhagen", v.Timezone)
	require.False(t, v.APIEnabled())

	_, err = venue.Create(ctx, client, venue.CreateParams{Name: "Other", Slug: "hot-yoga-cph"})
	require.ErrorIs(t, err, venue.ErrSlugTaken)

	for _, p := range []venue.CreateParams{
		{Name: "X", Slug: "Bad Slug"},
		{Name: "X", Slug: "x", Plan: "gold"},
		{Name: "X", Slug: "x", Currency: "DKX"},
		{Name: "X", Slug: "x", Currency: "dkk"},
		{Name: "X", Slug: "x", Timezone: "Mars/Olympus"},
		{Name: "", Slug: "x"},
	} {
		_, err := venue.Create(ctx, client, p)
		require.ErrorIs(t, err, venue.ErrInvalid, "%+v", p)
	}

	plan, on := "enterprise", true
	u, err := venue.Update(ctx, client, "hot-yoga-cph", venue.UpdateParams{Plan: &plan, APIEnabled: &on})
	require.NoError(t, err)
	require.Equal(t, "enterprise", string(u.Plan))
	require.True(t, u.APIEnabled())

	_, err = venue.Update(ctx, client, "nope", venue.UpdateParams{APIEnabled: &on})
	require.True(t, ent.IsNotFound(err))

	_, err = venue.Create(ctx, client, venue.CreateParams{Name: "Spin", Slug: "spin", Plan: "starter", Currency: "EUR", Timezone: "Europe/Berlin", APIEnabled: true})
	require.NoError(t, err)
	all, err := venue.List(ctx, client)
	require.NoError(t, err)
	require.Len(t, all, 2)
	require.Equal(t, "hot-yoga-cph", all[0].Slug)
	require.True(t, all[1].APIEnabled())

	got, err := venue.BySlug(ctx, client, "spin")
	require.NoError(t, err)
	require.Equal(t, "EUR", got.Currency)
	require.True(t, got.APIEnabled())
}
