package handlers_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/venueplatform/venue/ent/organization"
	api "github.com/venueplatform/venue/internal/gen/api"
	"github.com/venueplatform/venue/internal/handlers"
)

// TestDiscoverySummariesPagesAndFailures: each venue's summary is capped at 5
// classes by start time with the full count beside it; pages, search and the
// listed flag shape the venue list; a venue whose summary fails is named in
// meta.partial_failures while the rest of the page is served.
func TestDiscoverySummariesPagesAndFailures(t *testing.T) {
	s := newStudio(t, "studio") // its bookable class on day 2 is at 09:00
	day := s.today.AddDate(0, 0, 2)
	classes := func(op context.Context, hours ...int) {
		ct := s.client.ClassType.Query().OnlyX(op)
		for _, h := range hours {
			start := day.Add(time.Duration(h) * time.Hour)
			s.client.ClassInstance.Create().SetClassTypeID(ct.ID).SetStartTime(start).SetEndTime(start.Add(time.Hour)).
				SetCapacity(3).ExecX(op)
		}
	}
	classes(s.addVenue(t, "alpha", "Alpha Yoga", "Aarhus", 56.1, 10.2, organization.WorldClasses), 13, 8, 12, 9, 11, 10)
	classes(s.addVenue(t, "beta", "Beta Spin", "Odense", 55.4, 10.4, organization.WorldClasses), 7)
	hidden := s.addVenue(t, "hidden", "Hidden", "Odense", 55.4, 10.4, organization.WorldClasses)
	classes(hidden, 7)
	s.client.Organization.Update().SetListed(false).ExecX(hidden)
	classes(s.addVenue(t, "quiet", "Quiet", "Odense", 55.4, 10.4, organization.WorldClasses)) // no classes

	ctx := context.Background()
	c := s.apiClient(t, "")
	date := time.Date(day.Year(), day.Month(), day.Day(), 0, 0, 0, 0, time.UTC)
	discover := func(p api.GetDiscoveryParams) *api.DiscoveryResponse {
		t.Helper()
		p.World, p.Date = api.GetDiscoveryWorldClasses, date
		res, err := c.GetDiscovery(ctx, p)
		require.NoError(t, err)
		return res
	}
	slugs := func(res *api.DiscoveryResponse) []string {
		var out []string
		for _, v := range res.Data {
			out = append(out, v.Venue.Slug)
		}
		return out
	}

	res := discover(api.GetDiscoveryParams{})
	require.Equal(t, []string{"alpha", "beta", "studio"}, slugs(res), "listed venues with live inventory, by name")
	require.Equal(t, 3, res.Meta.Total)
	require.False(t, res.Meta.HasMore)
	alpha := res.Data[0]
	require.Equal(t, 6, alpha.ClassesTotal)
	require.Len(t, alpha.Classes, 5, "summaries are capped")
	for i, cl := range alpha.Classes {
		require.Equal(t, day.Add(time.Duration(8+i)*time.Hour).UTC(), cl.StartTime, "by start time")
		require.True(t, cl.IsBookable)
		require.Equal(t, 3, cl.AvailableSpots)
		require.Equal(t, "Class", cl.Name)
	}

	// Pages of at most 4 venues; limit 1 walks them one by one.
	page2 := discover(api.GetDiscoveryParams{Page: api.NewOptInt(2), Limit: api.NewOptInt(1)})
	require.Equal(t, []string{"beta"}, slugs(page2))
	require.Equal(t, 3, page2.Meta.Total)
	require.True(t, page2.Meta.HasMore)
	require.Equal(t, 2, page2.Meta.Page)
	require.Equal(t, 1, page2.Meta.Limit)
	past := discover(api.GetDiscoveryParams{Page: api.NewOptInt(4), Limit: api.NewOptInt(1)})
	require.Empty(t, past.Data)
	require.Equal(t, 3, past.Meta.Total, "past the last page the total still counts every venue")
	require.False(t, past.Meta.HasMore)

	// Search matches name or city.
	require.Equal(t, []string{"alpha"}, slugs(discover(api.GetDiscoveryParams{Search: api.NewOptString("alp")})))
	require.Equal(t, []string{"beta"}, slugs(discover(api.GetDiscoveryParams{Search: api.NewOptString("odense")})))

	// Windows: alpha's 12:00 and 13:00 classes are the afternoon's.
	aft := discover(api.GetDiscoveryParams{TimeWindow: api.NewOptGetDiscoveryTimeWindow(api.GetDiscoveryTimeWindowAfternoon)})
	require.Equal(t, []string{"alpha"}, slugs(aft))
	require.Equal(t, 2, aft.Data[0].ClassesTotal)
	require.Equal(t, "afternoon", aft.Meta.TimeWindow)

	counts, err := c.GetDiscoveryCounts(ctx, api.GetDiscoveryCountsParams{Date: date})
	require.NoError(t, err)
	require.Equal(t, 3, counts.Data.Classes, "unlisted and empty venues are not counted")
	// Unlisted keeps a venue out of the directory and discovery, not off its
	// own pages: its slug still serves its schedule (a venue's own site).
	own, err := c.GetVenueSchedule(ctx, api.GetVenueScheduleParams{Slug: "hidden", From: api.NewOptDate(date), To: api.NewOptDate(date)})
	require.NoError(t, err)
	require.Len(t, own.Data, 1)

	// One venue's summary fails: the page is served without it and says so.
	restore := handlers.SetDiscoveryFault(func(slug string) error {
		if slug == "beta" {
			return errors.New("summary read failed")
		}
		return nil
	})
	defer restore()
	res = discover(api.GetDiscoveryParams{})
	require.Equal(t, []string{"alpha", "studio"}, slugs(res))
	require.Equal(t, []api.PartialFailure{{VenueSlug: "beta", Reason: "summary_unavailable"}}, res.Meta.PartialFailures)
	require.Equal(t, 3, res.Meta.Total, "the total still counts the failed venue")
	body := rawBody(t, s.srv.URL+"/api/v1/discovery?world=classes&date="+date.Format(time.DateOnly))
	require.NotContains(t, body, "summary read failed", "the cause stays in the log")
}
