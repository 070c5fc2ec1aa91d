package bench

import (
	"net/url"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

func TestLookup(t *testing.T) {
	ops, err := Lookup([]string{"schedule", " schedule-baseline", "schedule", ""})
	require.NoError(t, err)
	require.Equal(t, []string{"schedule", "schedule-baseline"}, opNames(ops))

	_, err = Lookup([]string{"schedule", "nope"})
	require.ErrorContains(t, err, "unknown op nope")
	require.ErrorContains(t, err, "venues-geo")
	_, err = Lookup(nil)
	require.Error(t, err)

	for _, op := range Ops() {
		if op.Mirrors != "" {
			require.True(t, op.Baseline, op.Name)
			require.NotNil(t, registry[op.Mirrors], "%s mirrors a registered op", op.Name)
		}
	}
	require.Panics(t, func() { Register(&Op{Name: "schedule", Family: FamilyMain, Request: schedulePath}) })
}

func TestScheduleRequestsAreDeterministicAndInsideTheSeededDays(t *testing.T) {
	day := func(s string) time.Time { d, _ := time.Parse(time.DateOnly, s); return d }
	ds := &DataSet{Venues: []Venue{
		{Slug: "a", FirstDay: day("2026-05-01"), LastDay: day("2026-05-14")},
		{Slug: "b", FirstDay: day("2026-05-01"), LastDay: day("2026-05-03")},
	}}
	slugs := map[string]int{}
	froms := map[string]bool{}
	for n := range uint64(2000) {
		p1, v1 := schedulePath(ds, n)
		p2, v2 := schedulePath(ds, n)
		require.Equal(t, p1, p2)
		require.Same(t, v1, v2)
		u, err := url.Parse(p1)
		require.NoError(t, err)
		require.True(t, strings.HasPrefix(u.Path, "/api/v1/venues/"+v1.Slug+"/schedule"))
		from, to := day(u.Query().Get("from")), day(u.Query().Get("to"))
		require.False(t, from.Before(v1.FirstDay), p1)
		require.False(t, to.After(v1.LastDay), p1)
		if v1.Slug == "a" {
			require.Equal(t, ScheduleWindowDays-1, int(to.Sub(from).Hours()/24), p1)
			froms[from.Format(time.DateOnly)] = true
		} else {
			require.Equal(t, v1.FirstDay, from, "a short schedule is read whole")
			require.Equal(t, v1.LastDay, to)
		}
		slugs[v1.Slug]++
	}
	require.InDelta(t, 1000, slugs["a"], 100, "venues are spread evenly")
	require.Len(t, froms, 14-ScheduleWindowDays+1, "every start day is used")
}

func TestGeoRequestsStayInTheArea(t *testing.T) {
	ds := &DataSet{Area: GeoArea}
	radii := map[string]bool{}
	for n := range uint64(1000) {
		p, v := geoPath(ds, n)
		require.Nil(t, v)
		u, err := url.Parse(p)
		require.NoError(t, err)
		require.Equal(t, "/api/v1/venues", u.Path)
		q := u.Query()
		lat, _ := strconv.ParseFloat(q.Get("lat"), 64)
		lng, _ := strconv.ParseFloat(q.Get("lng"), 64)
		require.True(t, lat >= GeoArea.MinLat-1e-5 && lat <= GeoArea.MaxLat+1e-5, p)
		require.True(t, lng >= GeoArea.MinLng-1e-5 && lng <= GeoArea.MaxLng+1e-5, p)
		require.Equal(t, "20", q.Get("limit"))
		radii[q.Get("radius")] = true
	}
	require.Len(t, radii, len(geoRadiiKm))
}
