package bench

import (
	"context"
	"fmt"
	"hash/fnv"
)

// GeoArea is where the geo sets' venues are placed when the seed leaves
// them without coordinates: roughly Denmark, a country-sized directory.
// Every scale shares the area, so a larger set is a denser directory and a
// search of the same radius matches proportionally more venues.
var GeoArea = Area{MinLat: 54.90, MaxLat: 57.50, MinLng: 8.20, MaxLng: 12.60}

// placeVenues gives every venue of ds without coordinates a position in
// GeoArea, uniform and deterministic from its slug. The venue search reads
// organizations.lat and lng; venues without them never match a geo search.
func placeVenues(ctx context.Context, ds *DataSet) error {
	slugs := make([]string, len(ds.Venues))
	lats := make([]float64, len(ds.Venues))
	lngs := make([]float64, len(ds.Venues))
	for i, v := range ds.Venues {
		h := fnv.New64a()
		_, _ = h.Write([]byte(v.Slug))
		x := mix(h.Sum64())
		fy := float64(x&0xffffffff) / (1 << 32)
		fx := float64(x>>32) / (1 << 32)
		slugs[i] = v.Slug
		lats[i] = roundTo(GeoArea.MinLat+fy*(GeoArea.MaxLat-GeoArea.MinLat), 6)
		lngs[i] = roundTo(GeoArea.MinLng+fx*(GeoArea.MaxLng-GeoArea.MinLng), 6)
	}
	_, err := ds.Pool.Exec(ctx, `
		UPDATE organizations o SET lat = p.lat, lng = p.lng
		FROM unnest($1::text[], $2::float8[], $3::float8[]) AS p(slug, lat, lng)
		WHERE o.slug = p.slug AND o.lat IS NULL`, slugs, lats, lngs)
	if err != nil {
		return fmt.Errorf("place venues: %w", err)
	}
	_, err = ds.Pool.Exec(ctx, "ANALYZE organizations")
	return err
}
