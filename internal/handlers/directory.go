package handlers

import (
	"context"
	"time"

	"github.com/venueplatform/venue/internal/apperr"
	"github.com/venueplatform/venue/internal/catalogue"
	api "github.com/venueplatform/venue/internal/gen/api"
	"github.com/venueplatform/venue/internal/schedule"
	"github.com/venueplatform/venue/internal/system"
	"github.com/venueplatform/venue/internal/viewer"
)

// discoveryClassCap caps the classes shown per venue in discovery.
const discoveryClassCap = 5

// discoverySummaryTimeout bounds the read of one venue's summary: a venue
// whose classes cannot be read in time is named in meta.partial_failures
// instead of holding up the page.
const discoverySummaryTimeout = 3 * time.Second

// discoveryFault, when set (tests only), fails the summary of a venue slug.
var discoveryFault func(slug string) error

// ListVenues implements listVenues.
func (h *Handler) ListVenues(ctx context.Context, p api.ListVenuesParams) (*api.VenueListResponse, error) {
	if p.Lat.Set != p.Lng.Set {
		param := "lng"
		if !p.Lat.Set {
			param = "lat"
		}
		return nil, apperr.Validation(param, "lat and lng go together")
	}
	page, limit := p.Page.Or(1), p.Limit.Or(20)
	q := catalogue.VenueQuery{
		Search: p.Search.Or(""), City: p.City.Or(""), RadiusKm: p.Radius.Or(10),
		Limit: limit, Offset: (page - 1) * limit,
	}
	if p.Lat.Set {
		lat, lng := p.Lat.Value, p.Lng.Value
		q.Lat, q.Lng = &lat, &lng
	}
	hits, total, err := catalogue.SearchVenues(ctx, h.client, q)
	if err != nil {
		return nil, err
	}
	data := make([]api.VenueListItem, len(hits))
	for i, v := range hits {
		data[i] = venueListItem(v)
	}
	return &api.VenueListResponse{
		Data: data,
		Meta: api.PageMeta{Page: page, Limit: limit, Total: total, HasMore: page*limit < total},
	}, nil
}

func venueListItem(v catalogue.VenueHit) api.VenueListItem {
	item := api.VenueListItem{
		ID: v.ID, Name: v.Name, Slug: v.Slug, Address: v.Address, City: v.City,
		ClassCount: v.ClassCount, LocationCount: v.LocationCount,
	}
	if v.DistanceKm != nil {
		item.DistanceKm.SetTo(round2(*v.DistanceKm))
	} else {
		item.DistanceKm.SetToNull()
	}
	return item
}

func round2(f float64) float64 { return float64(int64(f*100+0.5)) / 100 }

// GetDiscovery implements getDiscovery.
func (h *Handler) GetDiscovery(ctx context.Context, p api.GetDiscoveryParams) (*api.DiscoveryResponse, error) {
	window := string(p.TimeWindow.Or(api.GetDiscoveryTimeWindowAny))
	page, limit := p.Page.Or(1), p.Limit.Or(4)
	hits, total, err := catalogue.DiscoverVenues(ctx, h.client, string(p.World), p.Date, catalogue.Windows[window],
		p.Search.Or(""), limit, (page-1)*limit)
	if err != nil {
		return nil, err
	}
	res := &api.DiscoveryResponse{
		Data: []api.DiscoveryVenue{},
		Meta: api.DiscoveryMeta{
			Page: page, Limit: limit, Total: total, HasMore: page*limit < total,
			Date: p.Date, World: string(p.World), TimeWindow: window, PartialFailures: []api.PartialFailure{},
		},
	}
	for _, v := range hits {
		sctx, cancel := context.WithTimeout(ctx, discoverySummaryTimeout)
		dv, err := h.discoverySummary(sctx, v, p.Date, catalogue.Windows[window])
		cancel()
		if err != nil {
			if ctx.Err() != nil {
				// The caller went away: no page to answer, partial or not.
				return nil, ctx.Err()
			}
			h.log.WarnContext(ctx, "discovery summary failed", "venue", v.Slug, "error", err)
			res.Meta.PartialFailures = append(res.Meta.PartialFailures, api.PartialFailure{VenueSlug: v.Slug, Reason: "summary_unavailable"})
			continue
		}
		res.Data = append(res.Data, dv)
	}
	return res, nil
}

// discoverySummary reads a venue's bookable classes of the day as its public
// visitor, through the same schedule read as the venue's own page.
func (h *Handler) discoverySummary(ctx context.Context, v catalogue.VenueHit, date time.Time, w catalogue.Window) (api.DiscoveryVenue, error) {
	if discoveryFault != nil {
		if err := discoveryFault(v.Slug); err != nil {
			return api.DiscoveryVenue{}, err
		}
	}
	org, err := h.client.Organization.Get(system.Elevate(ctx, "discovery.venue_visitor", viewer.Public{Org: v.ID}), v.ID)
	if err != nil {
		return api.DiscoveryVenue{}, err
	}
	loc, err := schedule.Location(org.Timezone)
	if err != nil {
		return api.DiscoveryVenue{}, err
	}
	day := time.Date(date.Year(), date.Month(), date.Day(), 0, 0, 0, 0, loc)
	rows, _, err := schedule.List(system.Elevate(ctx, "discovery.venue_visitor", viewer.Public{Org: v.ID}), h.client, schedule.Filter{
		Start: day.Add(time.Duration(w.FromHour) * time.Hour).UTC(),
		End:   day.Add(time.Duration(w.ToHour) * time.Hour).UTC(),
		Limit: 200,
	}, h.now())
	if err != nil {
		return api.DiscoveryVenue{}, err
	}
	dv := api.DiscoveryVenue{Venue: venueListItem(v), Classes: []api.DiscoveryClass{}}
	for _, r := range rows {
		if !r.Bookable {
			continue
		}
		dv.ClassesTotal++
		if len(dv.Classes) < discoveryClassCap {
			dv.Classes = append(dv.Classes, api.DiscoveryClass{
				ID: r.Class.ID, Name: r.Class.Edges.ClassType.Name,
				StartTime: r.Class.StartTime.UTC(), EndTime: r.Class.EndTime.UTC(),
				AvailableSpots: r.Available, IsBookable: r.Bookable,
			})
		}
	}
	return dv, nil
}

// GetDiscoveryCounts implements getDiscoveryCounts.
func (h *Handler) GetDiscoveryCounts(ctx context.Context, p api.GetDiscoveryCountsParams) (*api.DiscoveryCountsResponse, error) {
	counts, err := catalogue.CountLive(ctx, h.client, p.Date)
	if err != nil {
		return nil, err
	}
	return &api.DiscoveryCountsResponse{Data: api.DiscoveryCounts{
		Date: p.Date, Classes: counts["classes"], Treatments: counts["treatments"], Salon: counts["salon"],
	}}, nil
}

// GetGeo implements getGeo: the caller's country and city from the trusted
// proxy's geo headers (see RequestHeaders), never cached.
func (h *Handler) GetGeo(ctx context.Context) (*api.GeoResponseHeaders, error) {
	country, city := geoFromContext(ctx)
	res := &api.GeoResponseHeaders{CacheControl: api.NewOptString("no-store")}
	if country != "" {
		res.Response.Data.Country.SetTo(country)
	} else {
		res.Response.Data.Country.SetToNull()
	}
	if city != "" {
		res.Response.Data.City.SetTo(city)
	} else {
		res.Response.Data.City.SetToNull()
	}
	return res, nil
}
