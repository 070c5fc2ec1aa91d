package bench

import (
	"bytes"
	"errors"
	"fmt"
	"math"
	"net/http"
	"net/url"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/venueplatform/venue/internal/scope"
)

// Data-set families. Every op runs on the sets of one family: the main set
// (the --venues/--members/--days scale) or each venue-count scale of the geo
// family (--geo-venues).
const (
	FamilyMain = "main"
	FamilyGeo  = "geo"
)

// Op is one kind of request the tool can drive. Ops live in a registry
// (Register, Lookup) so that a new endpoint is one more entry.
type Op struct {
	// Name is what --ops takes.
	Name string
	// Help says in one line what the op sends.
	Help string
	// Family names the data sets the op runs on.
	Family string
	// Baseline sends the op to the baseline handler instead of the service.
	Baseline bool
	// Mirrors names, for a baseline op, the service op it answers like;
	// the report divides that op's figures by this one's.
	Mirrors string
	// Scopes, when set, makes each request carry an API key of its venue
	// with these scopes (created for the run); otherwise requests are
	// anonymous.
	Scopes []string
	// Request returns the path and query of request n on ds and the venue it
	// reads (whose key it carries), deterministically from n.
	Request func(ds *DataSet, n uint64) (path string, v *Venue)
	// Bearer makes each request carry the access token of one of its
	// venue's signed-in members (Venue.Tokens; members family).
	Bearer bool
	// Staff makes each request carry the access token of one of its
	// venue's signed-in staff (Venue.StaffTokens; members family).
	Staff bool
	// Local sends the requests to the set's in-process shim of domain
	// calls (DataSet.LocalURL) instead of the service.
	Local bool
	// Body, when set, makes request n a POST of this JSON body (to the path
	// Request returns) on ds.
	Body func(ds *DataSet, n uint64) []byte
	// Header, when set, adds request n's own headers (the venue a member
	// acts in, a write's Idempotency-Key) for venue v.
	Header func(h http.Header, v *Venue, n uint64)
	// Products makes the data step stock each venue of the members family
	// with the desk's products (Venue.ProductIDs).
	Products bool
	// Payments makes the data step connect each venue of the members
	// family to the tool's fake Stripe (checkout.go).
	Payments bool
	// Check, when set, validates a successful answer's body.
	Check func(body []byte) error
	// Goals are the op's targets, checked in the report.
	Goals []Goal
}

// Goal kinds.
const (
	// GoalBaselineThroughput: the op's throughput divided by that of the
	// baseline op that mirrors it is at least Limit.
	GoalBaselineThroughput = "throughput_vs_baseline"
	// GoalScaleP99: the op's p99 on the family's largest set divided by its
	// p99 on the smallest is at most Limit.
	GoalScaleP99 = "p99_scale_ratio"
)

// Goal is a target an op's measurements must meet.
type Goal struct {
	Kind  string
	Limit float64
	// Concurrency is the level the goal applies at; zero means every level.
	Concurrency int
	// Versus names the other op of a GoalVersusP99.
	Versus string
}

// String describes g.
func (g Goal) String() string {
	at := "at every concurrency"
	if g.Concurrency > 0 {
		at = fmt.Sprintf("at concurrency %d", g.Concurrency)
	}
	switch g.Kind {
	case GoalBaselineThroughput:
		return fmt.Sprintf("throughput >= %.2gx baseline %s", g.Limit, at)
	case GoalScaleP99:
		return fmt.Sprintf("p99 on the largest set <= %.2gx p99 on the smallest %s", g.Limit, at)
	case GoalPlatformP99:
		return fmt.Sprintf("p99 of the small venue beside the largest <= %.2gx its p99 alone %s", g.Limit, at)
	case GoalVersusP99:
		return fmt.Sprintf("p99 on the largest set <= %.2gx p99 of %s there %s", g.Limit, g.Versus, at)
	}
	return g.Kind
}

var registry = map[string]*Op{}

// Register adds op to the registry; it panics on a duplicate or incomplete
// op, which is a programming error.
func Register(op *Op) {
	switch {
	case op.Name == "" || op.Request == nil:
		panic("bench: op without name or request")
	case op.Family != FamilyMain && op.Family != FamilyGeo && op.Family != FamilyMembers:
		panic("bench: op " + op.Name + ": unknown family " + op.Family)
	case registry[op.Name] != nil:
		panic("bench: op " + op.Name + " registered twice")
	}
	registry[op.Name] = op
}

// Ops returns every registered op, by name.
func Ops() []*Op {
	out := make([]*Op, 0, len(registry))
	for _, op := range registry {
		out = append(out, op)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// Lookup returns the named ops in order, or an error naming the unknown ones.
func Lookup(names []string) ([]*Op, error) {
	var out []*Op
	var unknown []string
	for _, n := range names {
		n = strings.TrimSpace(n)
		if n == "" {
			continue
		}
		op := registry[n]
		if op == nil {
			unknown = append(unknown, n)
			continue
		}
		if !slices.Contains(out, op) {
			out = append(out, op)
		}
	}
	if len(unknown) > 0 {
		var known []string
		for _, op := range Ops() {
			known = append(known, op.Name)
		}
		return nil, fmt.Errorf("unknown op %s (known: %s)", strings.Join(unknown, ", "), strings.Join(known, ", "))
	}
	if len(out) == 0 {
		return nil, errors.New("no ops given")
	}
	return out, nil
}

// mix is splitmix64: a cheap, well-spread deterministic hash of n, so that
// consecutive requests read unrelated dates and venues and no cache is
// flattered by a regular pattern.
func mix(n uint64) uint64 {
	n += 0x9e3779b97f4a7c15
	n = (n ^ (n >> 30)) * 0xbf58476d1ce4e5b9
	n = (n ^ (n >> 27)) * 0x94d049bb133111eb
	return n ^ (n >> 31)
}

// ScheduleWindowDays is the width of the schedule ops' date window: a week,
// the service's default range.
const ScheduleWindowDays = 7

// schedulePath returns request n of the schedule read: a venue, and a
// one-week window (from..to inclusive) starting on a day within the venue's
// seeded schedule, both picked by hashing n.
func schedulePath(ds *DataSet, n uint64) (string, *Venue) {
	h := mix(n)
	v := &ds.Venues[h%uint64(len(ds.Venues))]
	days := v.ScheduleDays()
	from := v.FirstDay
	to := v.LastDay
	if days > ScheduleWindowDays {
		from = v.FirstDay.AddDate(0, 0, int((h>>20)%uint64(days-ScheduleWindowDays+1)))
		to = from.AddDate(0, 0, ScheduleWindowDays-1)
	}
	return "/api/v1/venues/" + url.PathEscape(v.Slug) + "/schedule?from=" +
		from.Format(time.DateOnly) + "&to=" + to.Format(time.DateOnly), v
}

// checkNonEmptyData accepts an envelope whose data is a non-empty list; the
// seeded schedule has classes every day, so an empty one is a wrong answer.
// It looks at the first bytes only, to keep the load generator's share of
// the CPU small.
func checkNonEmptyData(body []byte) error {
	head := body[:min(len(body), 64)]
	if !bytes.Contains(head, []byte(`"data":[{`)) {
		return fmt.Errorf("no rows: %s", clip(body, 120))
	}
	return nil
}

// geoRadiiKm are the radii the geo op cycles through.
var geoRadiiKm = []float64{2, 5, 10, 25}

// geoPath returns request n of the geo search: a centre on a grid over the
// set's venue area, a radius from geoRadiiKm, the first page of 20.
func geoPath(ds *DataSet, n uint64) (string, *Venue) {
	h := mix(n)
	a := ds.Area
	const grid = 64
	fx := float64(h%grid) / (grid - 1)
	fy := float64((h>>8)%grid) / (grid - 1)
	lat := a.MinLat + fy*(a.MaxLat-a.MinLat)
	lng := a.MinLng + fx*(a.MaxLng-a.MinLng)
	r := geoRadiiKm[(h>>16)%uint64(len(geoRadiiKm))]
	return fmt.Sprintf("/api/v1/venues?lat=%s&lng=%s&radius=%g&limit=20",
		coord(lat), coord(lng), r), nil
}

// coord formats a coordinate with 5 decimals (about a metre).
func coord(x float64) string {
	return fmt.Sprintf("%.5f", math.Round(x*1e5)/1e5)
}

func init() {
	Register(&Op{
		Name:    "schedule",
		Help:    "GET /api/v1/venues/{slug}/schedule, anonymous, one-week windows over the seeded days",
		Family:  FamilyMain,
		Request: schedulePath,
		Check:   checkNonEmptyData,
		Goals:   []Goal{{Kind: GoalBaselineThroughput, Limit: 0.8, Concurrency: 16}},
	})
	Register(&Op{
		Name:     "schedule-baseline",
		Help:     "the same requests to the baseline handler (net/http + pgx, the service's SQL)",
		Family:   FamilyMain,
		Baseline: true,
		Mirrors:  "schedule",
		Request:  schedulePath,
		Check:    checkNonEmptyData,
	})
	Register(&Op{
		Name:    "schedule-key",
		Help:    "the schedule requests with an API key (read:schedule): adds the authentication path",
		Family:  FamilyMain,
		Scopes:  []string{scope.ReadSchedule},
		Request: schedulePath,
		Check:   checkNonEmptyData,
	})
	Register(&Op{
		Name:    "venues-geo",
		Help:    "GET /api/v1/venues?lat&lng&radius&limit=20 on each --geo-venues scale",
		Family:  FamilyGeo,
		Request: geoPath,
		Goals:   []Goal{{Kind: GoalScaleP99, Limit: 2}},
	})
}
