package seed

import (
	"encoding/binary"
	"fmt"
	"hash/fnv"
	"math/rand/v2"
	"time"

	"github.com/google/uuid"
)

// generator makes the rows of one venue.
type generator struct {
	p     Params
	index int
	slug  string
	rng   *rand.Rand
	now   time.Time
	today time.Time // venue-local midnight
	org   uuid.UUID

	t map[string]*table

	locations   []uuid.UUID
	rooms       []room
	classTypes  []uuid.UUID
	minutes     []int
	instructors []uuid.UUID
	passTypes   []passType
	members     []uuid.UUID
	memberPass  []*uuid.UUID // the member's active pass, if any
}

type room struct {
	id, location uuid.UUID
	capacity     int
}

type passType struct {
	id       uuid.UUID
	category string
	price    int64
	clips    int
	validity int
}

// VenueZone is the time zone of seeded venues; their days are its dates.
const VenueZone = "Europe/Copenhagen"

// columns of every table the seed writes, in COPY order.
var columns = []struct {
	name string
	cols []string
}{
	{"organizations", []string{"id", "created_at", "updated_at", "name", "slug", "plan", "currency", "timezone", "city", "country", "lat", "lng", "listed"}},
	{"feature_provisionings", []string{"id", "created_at", "updated_at", "api_enabled", "organization_id"}},
	{"brands", []string{"id", "created_at", "updated_at", "name", "slug", "active", "organization_id"}},
	{"locations", []string{"id", "created_at", "updated_at", "name", "address", "city", "lat", "lng", "active", "organization_id"}},
	{"rooms", []string{"id", "created_at", "updated_at", "name", "capacity", "room_type", "active", "location_id", "organization_id"}},
	{"class_types", []string{"id", "created_at", "updated_at", "name", "slug", "description", "duration_minutes", "active", "brand_id", "organization_id"}},
	{"instructors", []string{"id", "created_at", "updated_at", "first_name", "last_name", "email", "active", "organization_id"}},
	{"pass_types", []string{"id", "created_at", "updated_at", "name", "slug", "category", "price_minor", "currency", "is_recurring",
		"billing_interval", "billing_interval_count", "pricing_mode", "flexible_pricing_config", "clips", "validity_days",
		"grants_in_person", "grants_online", "active", "listed", "sort_order", "organization_id"}},
	{"class_instances", []string{"id", "created_at", "updated_at", "start_time", "end_time", "capacity", "status", "online", "listed",
		"organization_id", "class_type_id", "instructor_id", "location_id", "room_id"}},
	{"users", []string{"id", "created_at", "updated_at", "email", "first_name", "last_name", "phone", "account_state"}},
	{"members", []string{"id", "created_at", "updated_at", "role", "status", "client_display_id", "joined_at", "organization_id", "user_id"}},
	{"passes", []string{"id", "created_at", "updated_at", "status", "valid_from", "valid_to", "clips_remaining", "member_id", "organization_id", "pass_type_id"}},
	{"payments", []string{"id", "created_at", "updated_at", "amount_minor", "currency", "status", "kind", "paid_at", "member_id", "pass_id", "organization_id"}},
	{"bookings", []string{"id", "created_at", "updated_at", "status", "waitlist_position", "cancelled_at", "checked_in_at",
		"organization_id", "class_instance_id", "member_id", "pass_id"}},
	{"alerts", []string{"id", "created_at", "updated_at", "severity", "title", "message", "resolved", "organization_id"}},
}

func newGenerator(p Params, index int, now time.Time) *generator {
	loc, err := time.LoadLocation(VenueZone)
	if err != nil {
		loc = time.UTC
	}
	local := now.In(loc)
	g := &generator{
		p:     p,
		index: index,
		slug:  Slug(p.Seed, index),
		rng:   rand.New(rand.NewPCG(p.Seed, uint64(index))),
		now:   now.UTC().Truncate(time.Microsecond),
		today: time.Date(local.Year(), local.Month(), local.Day(), 0, 0, 0, 0, loc),
		t:     map[string]*table{},
	}
	for _, c := range columns {
		g.t[c.name] = &table{name: c.name, columns: c.cols}
	}
	return g
}

// id returns the next deterministic version-4 UUID.
func (g *generator) id() uuid.UUID {
	var u uuid.UUID
	binary.BigEndian.PutUint64(u[:8], g.rng.Uint64())
	binary.BigEndian.PutUint64(u[8:], g.rng.Uint64())
	u[6] = (u[6] & 0x0f) | 0x40
	u[8] = (u[8] & 0x3f) | 0x80
	return u
}

// generate returns the venue's tables in COPY order.
func (g *generator) generate() []*table {
	g.venue()
	g.catalogue()
	g.people()
	g.schedule()
	out := make([]*table, len(columns))
	for i, c := range columns {
		out[i] = g.t[c.name]
	}
	return out
}

func (g *generator) venue() {
	g.org = g.id()
	name := fmt.Sprintf("Seed Studio %d (seed %d)", g.index, g.p.Seed)
	lat, lng := place(g.slug)
	g.t["organizations"].add(g.org, g.now, g.now, name, g.slug, "pro", "DKK", VenueZone, "København", "DK", lat, lng, true)
	g.t["feature_provisionings"].add(g.id(), g.now, g.now, true, g.org)
	g.t["alerts"].add(g.id(), g.now, g.now, "warning", "Card reader offline", "The reader at the front desk does not answer.", false, g.org)
}

// place derives a venue's coordinates from its slug, spread over Denmark, so
// geo search has something to find without consuming the seeded random
// sequence.
func place(slug string) (lat, lng float64) {
	h := fnv.New64a()
	h.Write([]byte(slug))
	v := h.Sum64()
	lat = 54.6 + float64(v%10000)/10000*3.1
	lng = 8.1 + float64((v/10000)%10000)/10000*4.6
	return lat, lng
}

// estimateRows approximates the rows of one venue, for progress.
func estimateRows(p Params) int {
	locs := locationCount(p.Members)
	classes := locs * 2 * classesPerRoomPerDay * p.Days
	return 3 + 2 + locs*3 + 6 + 4 + 2*locs + classes*(1+22) + p.Members*4
}
