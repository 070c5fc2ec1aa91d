package handlers_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/require"

	api "github.com/venueplatform/venue/internal/gen/api"
)

// TestCatalogueShowsActiveRowsOnly: brands (with their counts and photos),
// locations, rooms, class types and instructors that are switched off are
// not on the public pages; a brand's photos are on its own record only.
func TestCatalogueShowsActiveRowsOnly(t *testing.T) {
	s := newStudio(t, "studio")
	s.seedCatalogue(t)
	c, op, ctx := s.client, s.op, context.Background()
	c.Photo.Create().SetURL("https://img.example/hot-2.jpg").SetBrandID(s.brand).SetSortOrder(2).ExecX(op)
	c.Photo.Create().SetURL("https://img.example/hot-1.jpg").SetCaption("Hot room").SetBrandID(s.brand).SetSortOrder(1).ExecX(op)
	c.Brand.Create().SetName("Retired brand").SetSlug("retired").SetActive(false).ExecX(op)
	c.Location.Create().SetName("Closed site").SetActive(false).ExecX(op)
	c.Room.Create().SetName("Storage").SetCapacity(40).SetLocationID(s.location).SetActive(false).ExecX(op)
	c.ClassType.Create().SetName("Old format").SetBrandID(s.brand).SetActive(false).ExecX(op)
	c.Instructor.Create().SetFirstName("Gone").SetLastName("Teacher").SetActive(false).ExecX(op)
	cl := s.apiClient(t, "")

	brands, err := cl.ListVenueBrands(ctx, api.ListVenueBrandsParams{Slug: "studio"})
	require.NoError(t, err)
	require.Equal(t, 2, brands.Meta.Total)
	require.Equal(t, []string{"hot-yoga", "spin"}, []string{brands.Data[0].Slug, brands.Data[1].Slug})
	require.Equal(t, 1, brands.Data[0].ClassTypesCount, "inactive class types are not counted")
	require.Equal(t, "#222222", brands.Data[0].Theme.SecondaryColor)

	brand, err := cl.GetVenueBrand(ctx, api.GetVenueBrandParams{Slug: "studio", BrandSlug: "hot-yoga"})
	require.NoError(t, err)
	require.Len(t, brand.Data.Photos, 2)
	require.Equal(t, "https://img.example/hot-1.jpg", brand.Data.Photos[0].URL, "in display order")
	require.Equal(t, "Hot room", brand.Data.Photos[0].Caption)
	require.Equal(t, []string{"Vinyasa Flow"}, []string{brand.Data.ClassTypes[0].Name})
	_, err = cl.GetVenueBrand(ctx, api.GetVenueBrandParams{Slug: "studio", BrandSlug: "retired"})
	require.Equal(t, "BRAND_NOT_FOUND", errorOf(t, err).Response.Error.Code)
	spin, err := cl.GetVenueBrand(ctx, api.GetVenueBrandParams{Slug: "studio", BrandSlug: "spin"})
	require.NoError(t, err)
	require.Empty(t, spin.Data.Photos)

	v, err := cl.GetVenue(ctx, api.GetVenueParams{Slug: "studio"})
	require.NoError(t, err)
	require.Len(t, v.Data.Brands, 2)
	require.Len(t, v.Data.Photos, 1, "brand photos are not the venue's")
	require.Len(t, v.Data.Locations, 1)
	require.Len(t, v.Data.Locations[0].Rooms, 2, "the inactive room is hidden")
	require.Equal(t, 32, v.Data.Locations[0].Capacity, "and not counted")
	require.Len(t, v.Data.Locations[0].Photos, 1)

	cts, err := cl.ListVenueClassTypes(ctx, api.ListVenueClassTypesParams{Slug: "studio"})
	require.NoError(t, err)
	require.Equal(t, 2, cts.Meta.Total)
	ins, err := cl.ListVenueInstructors(ctx, api.ListVenueInstructorsParams{Slug: "studio"})
	require.NoError(t, err)
	for _, in := range ins.Data {
		require.NotEqual(t, "Gone", in.FirstName)
	}
	locs, err := cl.ListVenueLocations(ctx, api.ListVenueLocationsParams{Slug: "studio"})
	require.NoError(t, err)
	require.Equal(t, 1, locs.Meta.Total)
}
