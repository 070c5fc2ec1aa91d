package bench

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/venueplatform/venue/internal/seed"
)

// DataSet is seeded data in one database, with the servers that read it.
type DataSet struct {
	// Name is "main" or "geo-<venues>".
	Name   string
	Family string
	// Params is the scale it was seeded at (or reused).
	Params seed.Params
	// Seeded reports whether this run wrote the data (false: reused).
	Seeded     bool
	SeedTime   time.Duration
	Venues     []Venue
	Members    int // members over all venues, as found
	Classes    int // class instances over all venues, as found
	Area       Area
	Pool       *pgxpool.Pool `json:"-"`
	ServiceURL string        `json:"-"`
	// BaselineURL is empty unless a baseline op runs on the set.
	BaselineURL string `json:"-"`
	// LocalURL serves the in-process ops (Op.Local) of the set.
	LocalURL string `json:"-"`
	// signedIn is when the set's members and staff last signed in; refresh
	// signs them in again (nil: no Bearer or Staff op runs).
	signedIn time.Time
	refresh  func(context.Context) error
}

// Venue is one seeded venue as the ops need it.
type Venue struct {
	Slug     string
	ID       uuid.UUID
	Timezone string
	// FirstDay and LastDay are the venue-local dates (midnight UTC of the
	// date) of its first and last listed class; the ops read between them.
	FirstDay, LastDay time.Time
	// Keys are API keys of the venue, for ops with Scopes; Tokens access
	// tokens of its signed-in members, for Bearer ops.
	Keys   []string `json:"-"`
	Tokens []string `json:"-"`
	// StaffTokens are access tokens of its signed-in staff, acting in the
	// venue, for Staff ops; SubscriptionID is the webhook subscription of
	// the history ops and DeliveriesCursor the cursor of its second page.
	StaffTokens      []string  `json:"-"`
	SubscriptionID   uuid.UUID `json:"-"`
	DeliveriesCursor string    `json:"-"`
	// ProductIDs are the desk's stocked products of the POS ops.
	ProductIDs []uuid.UUID `json:"-"`
	// ClassIDs are a sample of the venue's listed classes, LocationIDs its
	// locations (members family).
	ClassIDs, LocationIDs []uuid.UUID `json:"-"`
}

// ScheduleDays returns the number of days from FirstDay to LastDay inclusive.
func (v *Venue) ScheduleDays() int {
	return int(v.LastDay.Sub(v.FirstDay).Hours()/24) + 1
}

// Area is the bounding box of a set's venues (their own coordinates, or
// those of their locations where a venue has none).
type Area struct {
	MinLat, MaxLat, MinLng, MaxLng float64
}

// seedSet seeds ds.Params into ds.Pool, in runs of at most seed.MaxVenues
// venues (run k uses seed Params.Seed+k), and fills ds.Venues. Venues that
// exist already are reused as they are.
func seedSet(ctx context.Context, ds *DataSet, progress func(done, total int)) error {
	p := ds.Params
	start := time.Now()
	var slugs []string
	runs := (p.Venues + seed.MaxVenues - 1) / seed.MaxVenues
	for k := range runs {
		rp := p
		rp.Seed = p.Seed + uint64(k)
		rp.Venues = min(seed.MaxVenues, p.Venues-k*seed.MaxVenues)
		if progress != nil {
			rp.Progress = func(done, total int) {
				// Scale to the whole set: earlier runs are done.
				progress(k*total+done, runs*total)
			}
		}
		res, err := seed.Run(ctx, ds.Pool, rp)
		if err != nil {
			return err
		}
		if len(res.Skipped) < len(res.Venues) {
			ds.Seeded = true
		}
		slugs = append(slugs, res.Venues...)
	}
	if ds.Seeded {
		ds.SeedTime = time.Since(start)
		// Fresh COPYs leave the planner without statistics until autovacuum
		// comes by; measure the plans a settled database gets.
		if _, err := ds.Pool.Exec(ctx, "ANALYZE"); err != nil {
			return fmt.Errorf("analyze: %w", err)
		}
	}
	return loadSet(ctx, ds, slugs)
}

// loadSet reads what the ops need about the venues slugs.
func loadSet(ctx context.Context, ds *DataSet, slugs []string) error {
	rows, err := ds.Pool.Query(ctx, `
		SELECT o.slug, o.id, o.timezone,
		       min(c.start_time), max(c.start_time), count(c.id),
		       (SELECT count(*) FROM members m WHERE m.organization_id = o.id)
		FROM organizations o
		LEFT JOIN class_instances c ON c.organization_id = o.id AND c.listed
		WHERE o.slug = ANY($1)
		GROUP BY o.id
		ORDER BY o.slug`, slugs)
	if err != nil {
		return fmt.Errorf("read seeded venues: %w", err)
	}
	defer rows.Close()
	ds.Venues, ds.Members, ds.Classes = nil, 0, 0
	for rows.Next() {
		var (
			v           Venue
			first, last *time.Time
			classes     int
			members     int
		)
		if err := rows.Scan(&v.Slug, &v.ID, &v.Timezone, &first, &last, &classes, &members); err != nil {
			return fmt.Errorf("read seeded venues: %w", err)
		}
		loc, err := time.LoadLocation(v.Timezone)
		if err != nil {
			return fmt.Errorf("venue %s: time zone %q: %w", v.Slug, v.Timezone, err)
		}
		if first != nil {
			v.FirstDay, v.LastDay = localDate(*first, loc), localDate(*last, loc)
		}
		ds.Classes += classes
		ds.Members += members
		ds.Venues = append(ds.Venues, v)
	}
	if err := rows.Err(); err != nil {
		return fmt.Errorf("read seeded venues: %w", err)
	}
	if len(ds.Venues) != len(slugs) {
		return fmt.Errorf("data set %s: found %d of %d seeded venues", ds.Name, len(ds.Venues), len(slugs))
	}
	if ds.Family == FamilyMain && ds.Classes == 0 {
		return errors.New("data set main: the seeded venues have no listed classes")
	}
	if ds.Family == FamilyGeo {
		if err := placeVenues(ctx, ds); err != nil {
			return err
		}
	}
	if ds.Family == FamilyMembers {
		if err := loadClassIDs(ctx, ds); err != nil {
			return err
		}
	}
	return loadArea(ctx, ds, slugs)
}

// loadArea sets ds.Area from the venues' coordinates, or their locations'.
func loadArea(ctx context.Context, ds *DataSet, slugs []string) error {
	var minLat, maxLat, minLng, maxLng *float64
	err := ds.Pool.QueryRow(ctx, `
		SELECT min(lat), max(lat), min(lng), max(lng) FROM (
			SELECT coalesce(o.lat, l.lat) AS lat, coalesce(o.lng, l.lng) AS lng
			FROM organizations o LEFT JOIN locations l ON l.organization_id = o.id
			WHERE o.slug = ANY($1)) AS c`, slugs).Scan(&minLat, &maxLat, &minLng, &maxLng)
	if err != nil {
		return fmt.Errorf("read venue area: %w", err)
	}
	if minLat == nil {
		// No coordinates at all: the geo op then searches around Copenhagen.
		ds.Area = Area{MinLat: 55.60, MaxLat: 55.75, MinLng: 12.45, MaxLng: 12.65}
		return nil
	}
	ds.Area = Area{MinLat: *minLat, MaxLat: *maxLat, MinLng: *minLng, MaxLng: *maxLng}
	return nil
}

// localDate returns the date of t in loc as midnight UTC of that date.
func localDate(t time.Time, loc *time.Location) time.Time {
	l := t.In(loc)
	return time.Date(l.Year(), l.Month(), l.Day(), 0, 0, 0, 0, time.UTC)
}

// rosterSample is how many classes of a venue the roster op reads.
const rosterSample = 256

// loadClassIDs fills each venue's ClassIDs with a sample of its listed
// classes (the first by id, which is random) and LocationIDs with its
// locations.
func loadClassIDs(ctx context.Context, ds *DataSet) error {
	for i := range ds.Venues {
		v := &ds.Venues[i]
		rows, err := ds.Pool.Query(ctx, `SELECT id FROM class_instances WHERE organization_id = $1 AND listed ORDER BY id LIMIT $2`, v.ID, rosterSample)
		if err != nil {
			return fmt.Errorf("read classes: %w", err)
		}
		v.ClassIDs, err = pgx.CollectRows(rows, pgx.RowTo[uuid.UUID])
		if err != nil {
			return fmt.Errorf("read classes: %w", err)
		}
		if len(v.ClassIDs) == 0 {
			return fmt.Errorf("data set %s: venue %s has no listed classes", ds.Name, v.Slug)
		}
		rows, err = ds.Pool.Query(ctx, `SELECT id FROM locations WHERE organization_id = $1 ORDER BY id`, v.ID)
		if err != nil {
			return fmt.Errorf("read locations: %w", err)
		}
		v.LocationIDs, err = pgx.CollectRows(rows, pgx.RowTo[uuid.UUID])
		if err != nil {
			return fmt.Errorf("read locations: %w", err)
		}
	}
	return nil
}
