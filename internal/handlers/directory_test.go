package handlers_test

import (
	"context"
	"net/http"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/venueplatform/venue/ent/organization"
	api "github.com/venueplatform/venue/internal/gen/api"
	"github.com/venueplatform/venue/internal/venue"
	"github.com/venueplatform/venue/internal/viewer"
)

// addVenue creates a listed venue at a place, with one class type and one
// location, in the studio's database.
func (s *studio) addVenue(t *testing.T, slug, name, city string, lat, lng float64, world organization.World) context.Context {
	t.Helper()
	ctx := context.Background()
	v, err := venue.Create(ctx, s.client, venue.CreateParams{Name: name, Slug: slug})
	require.NoError(t, err)
	op := viewer.NewContext(ctx, viewer.Operator{Org: v.ID})
	s.client.Organization.UpdateOneID(v.ID).SetCity(city).SetLat(lat).SetLng(lng).SetWorld(world).ExecX(op)
	s.client.ClassType.Create().SetName("Class").ExecX(op)
	s.client.Location.Create().SetName("Main").ExecX(op)
	return op
}

func TestVenueDirectory(t *testing.T) {
	s := newStudio(t, "studio")
	s.seedCatalogue(t) // studio: Vesterbro, København
	s.addVenue(t, "norrebro-yoga", "Nørrebro Yoga", "København", 55.6928, 12.5490, organization.WorldClasses)
	s.addVenue(t, "aarhus-spin", "Aarhus Spin", "Aarhus", 56.1572, 10.2107, organization.WorldClasses)
	hidden := s.addVenue(t, "hidden", "Hidden Studio", "København", 55.67, 12.55, organization.WorldClasses)
	s.client.Organization.Update().SetListed(false).ExecX(hidden)
	ctx := context.Background()
	c := s.apiClient(t, "")
	slugs := func(res *api.VenueListResponse) []string {
		var out []string
		for _, v := range res.Data {
			out = append(out, v.Slug)
		}
		return out
	}

	all, err := c.ListVenues(ctx, api.ListVenuesParams{})
	require.NoError(t, err)
	require.Equal(t, []string{"aarhus-spin", "norrebro-yoga", "studio"}, slugs(all), "listed venues by name")
	require.Equal(t, api.PageMeta{Page: 1, Limit: 20, Total: 3, HasMore: false}, all.Meta)
	require.Equal(t, 2, all.Data[2].ClassCount)
	require.Equal(t, 1, all.Data[2].LocationCount)
	require.True(t, all.Data[2].DistanceKm.Null)

	// Nearest first within the radius, with Haversine distances.
	near, err := c.ListVenues(ctx, api.ListVenuesParams{Lat: api.NewOptFloat64(55.6761), Lng: api.NewOptFloat64(12.5683), Radius: api.NewOptFloat64(5)})
	require.NoError(t, err)
	require.Equal(t, []string{"studio", "norrebro-yoga"}, slugs(near))
	require.InDelta(t, 1.1, near.Data[0].DistanceKm.Value, 0.2)
	require.InDelta(t, 2.3, near.Data[1].DistanceKm.Value, 0.3)
	far, err := c.ListVenues(ctx, api.ListVenuesParams{Lat: api.NewOptFloat64(55.6761), Lng: api.NewOptFloat64(12.5683), Radius: api.NewOptFloat64(200)})
	require.NoError(t, err)
	require.Equal(t, []string{"studio", "norrebro-yoga", "aarhus-spin"}, slugs(far))
	require.InDelta(t, 157, far.Data[2].DistanceKm.Value, 5)

	res, err := c.ListVenues(ctx, api.ListVenuesParams{City: api.NewOptString("aarhus")})
	require.NoError(t, err)
	require.Equal(t, []string{"aarhus-spin"}, slugs(res))
	res, err = c.ListVenues(ctx, api.ListVenuesParams{Search: api.NewOptString("yoga")})
	require.NoError(t, err)
	require.Equal(t, []string{"norrebro-yoga"}, slugs(res))
	res, err = c.ListVenues(ctx, api.ListVenuesParams{Search: api.NewOptString("%")})
	require.NoError(t, err)
	require.Empty(t, res.Data, "wildcards are matched literally")

	page2, err := c.ListVenues(ctx, api.ListVenuesParams{Page: api.NewOptInt(2), Limit: api.NewOptInt(2)})
	require.NoError(t, err)
	require.Equal(t, []string{"studio"}, slugs(page2))
	require.Equal(t, api.PageMeta{Page: 2, Limit: 2, Total: 3, HasMore: false}, page2.Meta)
	page9, err := c.ListVenues(ctx, api.ListVenuesParams{Page: api.NewOptInt(9), Limit: api.NewOptInt(2)})
	require.NoError(t, err)
	require.Empty(t, page9.Data)
	require.Equal(t, 3, page9.Meta.Total)

	for query, param := range map[string]string{
		"lat=55.6": "lng", "lng=12.5": "lat", "limit=101": "limit", "limit=0": "limit", "page=0": "page",
		"lat=91&lng=0": "lat", "radius=-1": "radius", "lat=abc&lng=1": "lat",
	} {
		status, body := getRaw(t, s.srv.URL+"/api/v1/venues?"+query, "")
		require.Equal(t, http.StatusBadRequest, status, query)
		require.Equal(t, "VALIDATION_ERROR", body.Error.Code, query)
		require.Equal(t, param, body.Error.Details["parameter"], query)
	}
}

func TestDiscovery(t *testing.T) {
	s := newStudio(t, "studio")
	op := s.addVenue(t, "salon-one", "Salon One", "København", 55.68, 12.57, organization.WorldSalon)
	salonType := s.client.ClassType.Query().OnlyX(op)
	// The online Spin class is on day 2 at 09:00 with free seats; give the salon an evening slot that day.
	day := s.today.AddDate(0, 0, 2)
	s.client.ClassInstance.Create().SetClassTypeID(salonType.ID).SetStartTime(day.Add(18 * time.Hour)).
		SetEndTime(day.Add(19 * time.Hour)).SetCapacity(1).ExecX(op)
	ctx := context.Background()
	c := s.apiClient(t, "")
	date := time.Date(day.Year(), day.Month(), day.Day(), 0, 0, 0, 0, time.UTC)

	res, err := c.GetDiscovery(ctx, api.GetDiscoveryParams{World: api.GetDiscoveryWorldClasses, Date: date})
	require.NoError(t, err)
	require.Len(t, res.Data, 1)
	require.Equal(t, "studio", res.Data[0].Venue.Slug)
	require.Equal(t, 1, res.Data[0].ClassesTotal)
	require.Equal(t, s.onlineClass, res.Data[0].Classes[0].ID)
	require.Equal(t, 9, res.Data[0].Classes[0].AvailableSpots)
	require.Empty(t, res.Meta.PartialFailures)
	require.Equal(t, 4, res.Meta.Limit)

	res, err = c.GetDiscovery(ctx, api.GetDiscoveryParams{World: api.GetDiscoveryWorldClasses, Date: date,
		TimeWindow: api.NewOptGetDiscoveryTimeWindow(api.GetDiscoveryTimeWindowEvening)})
	require.NoError(t, err)
	require.Empty(t, res.Data, "the studio's class is in the morning")

	res, err = c.GetDiscovery(ctx, api.GetDiscoveryParams{World: api.GetDiscoveryWorldSalon, Date: date,
		TimeWindow: api.NewOptGetDiscoveryTimeWindow(api.GetDiscoveryTimeWindowEvening)})
	require.NoError(t, err)
	require.Equal(t, "salon-one", res.Data[0].Venue.Slug)

	counts, err := c.GetDiscoveryCounts(ctx, api.GetDiscoveryCountsParams{Date: date})
	require.NoError(t, err)
	require.Equal(t, api.DiscoveryCounts{Date: date, Classes: 1, Treatments: 0, Salon: 1}, counts.Data)

	for query, param := range map[string]string{
		"date=2026-11-30":                                 "world",
		"world=classes":                                   "date",
		"world=gyms&date=2026-11-30":                      "world",
		"world=classes&date=2026-11-30&limit=5":           "limit",
		"world=classes&date=30-11-2026":                   "date",
		"world=classes&date=2026-11-30&time_window=night": "time_window",
	} {
		status, body := getRaw(t, s.srv.URL+"/api/v1/discovery?"+query, "")
		require.Equal(t, http.StatusBadRequest, status, query)
		require.Equal(t, param, body.Error.Details["parameter"], query)
	}
}

// TestKeysStayInTheirVenue: a key of another venue gets 404 on every
// venue-scoped read that accepts keys.
func TestKeysStayInTheirVenue(t *testing.T) {
	s := newStudio(t, "studio")
	ctx := context.Background()
	op := s.addVenue(t, "other", "Other", "Odense", 55.4, 10.4, organization.WorldClasses)
	_ = op
	key := s.keyFor(t, "other")
	c := s.apiClient(t, key)
	calls := map[string]func() error{
		"schedule": func() error {
			_, err := c.GetVenueSchedule(ctx, api.GetVenueScheduleParams{Slug: "studio"})
			return err
		},
		"pricing": func() error { _, err := c.GetVenuePricing(ctx, api.GetVenuePricingParams{Slug: "studio"}); return err },
		"classes": func() error {
			_, err := c.ListVenueClassTypes(ctx, api.ListVenueClassTypesParams{Slug: "studio"})
			return err
		},
		"instructors": func() error {
			_, err := c.ListVenueInstructors(ctx, api.ListVenueInstructorsParams{Slug: "studio"})
			return err
		},
		"locations": func() error {
			_, err := c.ListVenueLocations(ctx, api.ListVenueLocationsParams{Slug: "studio"})
			return err
		},
		"brands": func() error { _, err := c.ListVenueBrands(ctx, api.ListVenueBrandsParams{Slug: "studio"}); return err },
		"brand": func() error {
			_, err := c.GetVenueBrand(ctx, api.GetVenueBrandParams{Slug: "studio", BrandSlug: "hot-yoga"})
			return err
		},
	}
	for name, call := range calls {
		es := errorOf(t, call())
		require.Equal(t, http.StatusNotFound, es.StatusCode, name)
	}
	// The same key reads its own venue.
	_, err := c.ListVenueClassTypes(ctx, api.ListVenueClassTypesParams{Slug: "other"})
	require.NoError(t, err)
}
