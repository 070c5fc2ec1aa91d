package demo_test

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/venueplatform/venue/ent/addonproduct"
	"github.com/venueplatform/venue/ent/alert"
	"github.com/venueplatform/venue/ent/booking"
	"github.com/venueplatform/venue/ent/brand"
	"github.com/venueplatform/venue/ent/passtype"
	"github.com/venueplatform/venue/internal/apikey"
	"github.com/venueplatform/venue/internal/db"
	"github.com/venueplatform/venue/internal/demo"
	"github.com/venueplatform/venue/internal/pgtest"
	"github.com/venueplatform/venue/internal/scope"
	"github.com/venueplatform/venue/internal/venue"
	"github.com/venueplatform/venue/internal/viewer"
)

func TestMain(m *testing.M) { pgtest.Main(m) }

func TestEnsure(t *testing.T) {
	ctx := context.Background()
	pool := pgtest.NewPool(t)
	client := db.NewClient(pool)
	now := time.Date(2026, 11, 23, 13, 30, 0, 0, time.UTC) // a Monday afternoon in Copenhagen

	res, err := demo.Ensure(ctx, pool, client, now)
	require.NoError(t, err)
	require.True(t, res.Created)
	require.Equal(t, demo.Slug, res.Slug)
	require.Equal(t, 20, res.Counts["members"])
	require.Equal(t, 42, res.Counts["classes"])
	require.Equal(t, 14, res.Counts["opening_hours"])
	require.Equal(t, 5, res.Counts["amenities"])
	require.Equal(t, 3, res.Counts["photos"])
	require.Equal(t, 5, res.Counts["addons"])
	require.Equal(t, 2, res.Counts["gift_cards"])

	v, err := venue.BySlug(ctx, client, demo.Slug)
	require.NoError(t, err)
	require.True(t, v.APIEnabled())
	require.Equal(t, "pro", string(v.Plan))

	k, err := apikey.Lookup(ctx, client, res.Key)
	require.NoError(t, err)
	require.ElementsMatch(t, scope.Reads(), k.Scopes)
	require.Equal(t, demo.OwnerEmail, *k.CreatedByEmail)

	vctx := viewer.NewContext(ctx, apikey.Viewer(k))
	waiting, err := client.Booking.Query().Where(booking.StatusEQ(booking.StatusWaitlisted)).Count(vctx)
	require.NoError(t, err)
	require.Equal(t, 3, waiting)
	flex, err := client.PassType.Query().Where(passtype.PricingModeEQ(passtype.PricingModeFlexibleQuantity)).Only(vctx)
	require.NoError(t, err)
	require.Len(t, flex.FlexiblePricingConfig.Tiers, 2)
	open, err := client.Alert.Query().Where(alert.Resolved(false)).Count(vctx)
	require.NoError(t, err)
	require.Equal(t, 1, open)
	org, err := client.Organization.Query().Only(vctx)
	require.NoError(t, err)
	require.Equal(t, "DK", org.Country)
	require.Equal(t, "København", org.City)
	require.NotEmpty(t, org.Description)
	ride, err := client.Brand.Query().Where(brand.Slug("ride-cph")).Only(vctx)
	require.NoError(t, err)
	require.Equal(t, "Ride to the beat", ride.Tagline)
	require.NotEmpty(t, ride.SecondaryColor)
	categories, err := client.AddonProduct.Query().GroupBy(addonproduct.FieldCategory).Strings(vctx)
	require.NoError(t, err)
	require.ElementsMatch(t, []string{"rental", "drinks"}, categories)
	completed, err := client.Booking.Query().Where(booking.StatusEQ(booking.StatusCheckedIn)).Count(vctx)
	require.NoError(t, err)
	require.Positive(t, completed, "the morning's classes are over")

	again, err := demo.Ensure(ctx, pool, client, now)
	require.NoError(t, err)
	require.False(t, again.Created)
	all, err := venue.List(ctx, client)
	require.NoError(t, err)
	require.Len(t, all, 1)
}

func TestEnsureSkipsWhenAVenueExists(t *testing.T) {
	ctx := context.Background()
	pool := pgtest.NewPool(t)
	client := db.NewClient(pool)
	_, err := venue.Create(ctx, client, venue.CreateParams{Name: "Mine", Slug: "mine"})
	require.NoError(t, err)
	res, err := demo.Ensure(ctx, pool, client, time.Now())
	require.NoError(t, err)
	require.False(t, res.Created)
	_, err = venue.BySlug(ctx, client, demo.Slug)
	require.Error(t, err)
}

func TestDocumentEveryDay(t *testing.T) {
	// Every start time of a week validates, daylight-saving changes included.
	for _, day := range []string{"2026-03-27T22:30:00Z", "2026-10-23T06:00:00Z", "2026-12-31T23:59:00Z"} {
		now, err := time.Parse(time.RFC3339, day)
		require.NoError(t, err)
		d, err := demo.Document(now)
		require.NoError(t, err)
		require.Len(t, d.Classes, 42)
	}
}
