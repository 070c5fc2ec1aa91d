package catalogue

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/google/uuid"

	"github.com/venueplatform/venue/ent"
	"github.com/venueplatform/venue/internal/system"
)

// earthRadiusKm is the mean Earth radius used by the Haversine distance.
const earthRadiusKm = 6371.0

// VenueQuery filters the venue directory.
type VenueQuery struct {
	Search   string
	City     string
	Lat, Lng *float64
	RadiusKm float64
	Limit    int
	Offset   int
}

// VenueHit is one venue of the directory.
type VenueHit struct {
	ID            uuid.UUID
	Name, Slug    string
	Address, City string
	ClassCount    int
	LocationCount int
	DistanceKm    *float64
}

// likePattern escapes s for ILIKE and wraps it in wildcards.
func likePattern(s string) string {
	r := strings.NewReplacer(`\`, `\\`, `%`, `\%`, `_`, `\_`)
	return "%" + r.Replace(s) + "%"
}

// searchAnyText is searchVenuesSQL's text condition, which an empty $3
// passes; searchText is the same condition for a given search.
const (
	searchAnyText = `($3::text = '' OR o.name ILIKE $3 OR o.slug ILIKE $3 OR o.city ILIKE $3)`
	searchText    = `(o.name ILIKE $3 OR o.slug ILIKE $3 OR o.city ILIKE $3)`
)

// searchVenuesSQL narrows by a bounding box before computing the exact
// Haversine distance, so the (lat, lng) index keeps geo search flat as the
// directory grows.
const searchVenuesSQL = `
SELECT o.id, o.name, o.slug, coalesce(o.address, ''), coalesce(o.city, ''),
       (SELECT count(*) FROM class_types ct WHERE ct.organization_id = o.id AND ct.active),
       (SELECT count(*) FROM locations l WHERE l.organization_id = o.id AND l.active),
       d.km,
       count(*) OVER ()
FROM organizations o
CROSS JOIN LATERAL (
  SELECT CASE WHEN $1::float8 IS NULL OR o.lat IS NULL OR o.lng IS NULL THEN NULL ELSE
    2 * 6371.0 * asin(sqrt(
      power(sin(radians(o.lat - $1::float8) / 2), 2) +
      cos(radians($1::float8)) * cos(radians(o.lat)) * power(sin(radians(o.lng - $2::float8) / 2), 2)))
  END AS km
) d
WHERE o.listed
  AND ` + searchAnyText + `
  AND ($4::text = '' OR lower(o.city) = lower($4))
  AND ($1::float8 IS NULL OR (
        o.lat BETWEEN $1::float8 - $6::float8 AND $1::float8 + $6::float8
    AND o.lng BETWEEN $2::float8 - $7::float8 AND $2::float8 + $7::float8
    AND d.km <= $5::float8))
ORDER BY d.km NULLS LAST, o.name, o.id
LIMIT $8 OFFSET $9`

// SearchVenues returns one page of listed venues and the total matching.
func SearchVenues(ctx context.Context, client *ent.Client, q VenueQuery) ([]VenueHit, int, error) {
	search := ""
	if q.Search != "" {
		search = likePattern(q.Search)
	}
	var lat, lng any
	dLat, dLng := 0.0, 0.0
	if q.Lat != nil && q.Lng != nil {
		lat, lng = *q.Lat, *q.Lng
		dLat = q.RadiusKm / 111.0
		dLng = 180.0 // near the poles a longitude box says nothing
		if c := cosDeg(*q.Lat); c > 0.01 {
			dLng = min(q.RadiusKm/(111.0*c), 180.0)
		}
	}
	query := searchVenuesSQL
	if search != "" {
		// Without the empty-search branch the ILIKEs are index conditions
		// of the trigram indexes even in a generic plan: a search reads its
		// matches, not every listed venue.
		query = strings.Replace(query, searchAnyText, searchText, 1)
	}
	hits, total, err := queryVenues(ctx, client, "search venues", query,
		lat, lng, search, q.City, q.RadiusKm, dLat, dLng, q.Limit, q.Offset)
	if err != nil {
		return nil, 0, err
	}
	if len(hits) == 0 && q.Offset > 0 {
		// Past the last page: count without a page to report the total.
		_, total, err = SearchVenues(ctx, client, VenueQuery{Search: q.Search, City: q.City, Lat: q.Lat, Lng: q.Lng, RadiusKm: q.RadiusKm, Limit: 1})
		if err != nil {
			return nil, 0, err
		}
	}
	return hits, total, nil
}

// Window is a part of the day in the venue's zone: [FromHour, ToHour).
type Window struct{ FromHour, ToHour int }

// Windows are the discovery time windows.
var Windows = map[string]Window{
	"any":       {0, 24},
	"morning":   {0, 12},
	"afternoon": {12, 17},
	"evening":   {17, 24},
}

// liveClassSQL is the condition for a class with live inventory on a
// venue-local date and window: listed, scheduled, not started, a free seat.
const liveClassSQL = `
  ci.organization_id = o.id AND ci.listed AND ci.status = 'scheduled' AND ci.start_time > now()
  AND ci.start_time >= ($1::date + make_interval(hours => $2)) AT TIME ZONE o.timezone
  AND ci.start_time <  ($1::date + make_interval(hours => $3)) AT TIME ZONE o.timezone
  AND ci.capacity > ci.booked_count`

// DiscoverVenues returns one page of listed venues of world with live
// inventory on date in window, and the total.
func DiscoverVenues(ctx context.Context, client *ent.Client, world string, date time.Time, w Window, search string, limit, offset int) ([]VenueHit, int, error) {
	pattern := ""
	if search != "" {
		pattern = likePattern(search)
	}
	q := `
SELECT o.id, o.name, o.slug, coalesce(o.address, ''), coalesce(o.city, ''),
       (SELECT count(*) FROM class_types ct WHERE ct.organization_id = o.id AND ct.active),
       (SELECT count(*) FROM locations l WHERE l.organization_id = o.id AND l.active),
       NULL::float8,
       count(*) OVER ()
FROM organizations o
WHERE o.listed AND o.world = $4
  AND ($5::text = '' OR o.name ILIKE $5 OR o.city ILIKE $5)
  AND EXISTS (SELECT 1 FROM class_instances ci WHERE ` + liveClassSQL + `)
ORDER BY o.name, o.id
LIMIT $6 OFFSET $7`
	hits, total, err := queryVenues(ctx, client, "discover venues", q,
		date.Format(time.DateOnly), w.FromHour, w.ToHour, world, pattern, limit, offset)
	if err != nil {
		return nil, 0, err
	}
	if len(hits) == 0 && offset > 0 {
		// Past the last page: count without a page to report the total.
		if _, total, err = DiscoverVenues(ctx, client, world, date, w, search, 1, 0); err != nil {
			return nil, 0, err
		}
	}
	return hits, total, nil
}

// queryVenues runs a directory query whose columns are id, name, slug,
// address, city, class count, location count, distance and the window total.
func queryVenues(ctx context.Context, client *ent.Client, label, query string, args ...any) ([]VenueHit, int, error) {
	rows, err := client.QueryContext(system.RawSQL(ctx, "catalogue.directory"), query, args...)
	if err != nil {
		return nil, 0, fmt.Errorf("%s: %w", label, err)
	}
	defer rows.Close()
	var hits []VenueHit
	total := 0
	for rows.Next() {
		var h VenueHit
		if err := rows.Scan(&h.ID, &h.Name, &h.Slug, &h.Address, &h.City, &h.ClassCount, &h.LocationCount, &h.DistanceKm, &total); err != nil {
			return nil, 0, fmt.Errorf("%s: scan venue: %w", label, err)
		}
		hits = append(hits, h)
	}
	if err := rows.Err(); err != nil {
		return nil, 0, fmt.Errorf("%s: %w", label, err)
	}
	return hits, total, nil
}

// CountLive counts, per world, the listed venues with live inventory on date.
func CountLive(ctx context.Context, client *ent.Client, date time.Time) (map[string]int, error) {
	q := `
SELECT o.world, count(*) FROM organizations o
WHERE o.listed AND EXISTS (SELECT 1 FROM class_instances ci WHERE ` + liveClassSQL + `)
GROUP BY o.world`
	rows, err := client.QueryContext(system.RawSQL(ctx, "catalogue.directory"), q, date.Format(time.DateOnly), 0, 24)
	if err != nil {
		return nil, fmt.Errorf("count venues: %w", err)
	}
	defer rows.Close()
	out := map[string]int{"classes": 0, "treatments": 0, "salon": 0}
	for rows.Next() {
		var world string
		var n int
		if err := rows.Scan(&world, &n); err != nil {
			return nil, err
		}
		out[world] = n
	}
	return out, rows.Err()
}
