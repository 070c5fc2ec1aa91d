package bench

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/url"
	"strings"
	"time"

	"github.com/venueplatform/venue/internal/scope"
	"github.com/venueplatform/venue/internal/seed"
)

// FamilyMembers is the family of the venue-size scales (--member-scales):
// the same list and search reads on a small venue alone in its database, on
// a large venue, and on the small venue again beside the large one.
const FamilyMembers = "members"

// Set-name prefixes of the members family. "members-<n>" is a venue of n
// members (the smallest alone in its database); "platform-<n>" is the
// smallest venue in the database of the "members-<n>" venue, so comparing it
// with the smallest "members-" set shows what other venues' data costs a
// venue.
const (
	membersSetPrefix  = "members-"
	platformSetPrefix = "platform-"
)

// Seed offsets of the members family's venues: the small venue is venue 1
// of seed Seed+smallVenueSeed in every database of the family (the same
// rows), the large venues venue 1 of Seed+largeVenueSeed+k.
const (
	smallVenueSeed = 1000
	largeVenueSeed = 2000
)

// Goal kinds of the members family.
const (
	// GoalPlatformP99: the op's p99 on the small venue beside the largest
	// venue, divided by its p99 on the small venue alone, is at most Limit.
	GoalPlatformP99 = "p99_platform_ratio"
	// GoalVersusP99: the op's p99 on the family's largest set divided by the
	// p99 of op Versus on the same set is at most Limit.
	GoalVersusP99 = "p99_versus_op"
)

// membersPlan returns the data sets of the members family for scales
// (members of a venue, smallest first): one per scale, and the platform set
// of each larger scale, which shares that scale's database.
func membersPlan(cfg *Config) []planned {
	scales := cfg.MemberScales
	small := seed.Params{Venues: 1, Members: scales[0], Days: cfg.Days, Seed: cfg.Seed + smallVenueSeed}
	var out []planned
	for k, n := range scales {
		suffix := fmt.Sprintf("members_%d", n)
		p := small
		if k > 0 {
			p = seed.Params{Venues: 1, Members: n, Days: cfg.Days, Seed: cfg.Seed + largeVenueSeed + uint64(k)}
		}
		out = append(out, planned{suffix: suffix, ds: &DataSet{
			Name: fmt.Sprintf("%s%d", membersSetPrefix, n), Family: FamilyMembers, Params: p,
		}})
		if k > 0 {
			out = append(out, planned{suffix: suffix, ds: &DataSet{
				Name: fmt.Sprintf("%s%d", platformSetPrefix, n), Family: FamilyMembers, Params: small,
			}})
		}
	}
	return out
}

// searchTerms returns the member search query of request n: a common first
// name or last name, whole or its first three or four letters, or two to
// four letters drawn at random, as a front desk types them.
func searchTerm(n uint64) string {
	h := mix(n ^ 0x7f4a7c15)
	first, last := seed.FirstNames(), seed.LastNames()
	switch h % 5 {
	case 0:
		return first[(h>>8)%uint64(len(first))]
	case 1:
		return last[(h>>8)%uint64(len(last))]
	case 2:
		w := first[(h>>8)%uint64(len(first))]
		return prefixRunes(w, 3+int((h>>20)%2))
	case 3:
		w := last[(h>>8)%uint64(len(last))]
		return prefixRunes(w, 3+int((h>>20)%2))
	}
	const letters = "abcdefghijklmnoprstuv"
	k := 2 + int((h>>8)%3)
	b := make([]byte, k)
	for i := range b {
		b[i] = letters[(h>>(16+5*i))%uint64(len(letters))]
	}
	return string(b)
}

func prefixRunes(s string, n int) string {
	r := []rune(s)
	return string(r[:min(n, len(r))])
}

// memberSearchBody returns the MCP tools/call of search_members for request n.
func memberSearchBody(_ *DataSet, n uint64) []byte {
	b, _ := json.Marshal(map[string]any{
		"jsonrpc": "2.0", "id": n, "method": "tools/call",
		"params": map[string]any{"name": "search_members", "arguments": map[string]any{"query": searchTerm(n)}},
	})
	return b
}

// firstVenue returns the set's venue (the members family has one per set).
func firstVenue(ds *DataSet) *Venue { return &ds.Venues[0] }

// adminSchedulePath returns request n of the staff schedule: one location's
// one-week window of the venue's seeded days.
func adminSchedulePath(ds *DataSet, n uint64) (string, *Venue) {
	v := firstVenue(ds)
	from, to := weekOf(v, mix(n))
	return "/api/v1/admin/schedule?start_date=" + from.Format(time.DateOnly) + "&end_date=" + to.Format(time.DateOnly) +
		"&location_id=" + location(v, n), v
}

// location returns the location request n reads: seeded venues have
// locations in proportion to their members and the same rooms and classes
// at each, so one location's week is the same page at every scale.
func location(v *Venue, n uint64) string {
	return v.LocationIDs[mix(n^0x2545f491)%uint64(len(v.LocationIDs))].String()
}

// weekOf returns a one-week window of v's seeded days picked by h.
func weekOf(v *Venue, h uint64) (from, to time.Time) {
	from, to = v.FirstDay, v.LastDay
	if days := v.ScheduleDays(); days > ScheduleWindowDays {
		from = v.FirstDay.AddDate(0, 0, int((h>>20)%uint64(days-ScheduleWindowDays+1)))
		to = from.AddDate(0, 0, ScheduleWindowDays-1)
	}
	return from, to
}

// rosterPath returns request n of the check-in roster: one of the venue's
// classes (Venue.ClassIDs, a spread sample).
func rosterPath(ds *DataSet, n uint64) (string, *Venue) {
	v := firstVenue(ds)
	id := v.ClassIDs[mix(n)%uint64(len(v.ClassIDs))]
	return "/api/v1/admin/checkin/" + id.String(), v
}

// venueSchedulePath is the public schedule read of the set's venue: one
// location's week.
func venueSchedulePath(ds *DataSet, n uint64) (string, *Venue) {
	v := firstVenue(ds)
	from, to := weekOf(v, mix(n))
	return "/api/v1/venues/" + url.PathEscape(v.Slug) + "/schedule?from=" +
		from.Format(time.DateOnly) + "&to=" + to.Format(time.DateOnly) + "&location_id=" + location(v, n), v
}

// directoryPath returns request n of the venue directory's text search: a
// seeded venue's name ("seed studio 42 (", one venue of the first hundred,
// so each term finds one venue at every --geo-venues scale of 100 or more)
// or, one request in eight, a word no venue has. A word every seeded venue
// has ("studio") would measure the directory's count of all matches (its
// window total) rather than its page.
func directoryPath(_ *DataSet, n uint64) (string, *Venue) {
	h := mix(n)
	term := fmt.Sprintf("seed studio %d (", 1+h%100)
	if (h>>16)%8 == 0 {
		term = "zebra loft"
	}
	return "/api/v1/venues?search=" + url.QueryEscape(term) + "&limit=20", nil
}

// checkMCPResult accepts a JSON-RPC answer with a result and no error.
func checkMCPResult(body []byte) error {
	if bytes.Contains(body, []byte(`"error":{`)) || !bytes.Contains(body, []byte(`"result":`)) {
		return fmt.Errorf("not a result: %s", clip(body, 160))
	}
	return nil
}

// checkEnvelope accepts a REST envelope with data.
func checkEnvelope(body []byte) error {
	if !bytes.Contains(body[:min(len(body), 64)], []byte(`"data":`)) {
		return fmt.Errorf("no data: %s", clip(body, 120))
	}
	return nil
}

func init() {
	scaleGoals := func(extra ...Goal) []Goal {
		return append([]Goal{{Kind: GoalScaleP99, Limit: 2}, {Kind: GoalPlatformP99, Limit: 1.3}}, extra...)
	}
	Register(&Op{
		Name:   "members-search",
		Help:   "MCP search_members (read:members): common names, name prefixes and random letters, on each --member-scales venue",
		Family: FamilyMembers,
		Scopes: []string{scope.ReadMembers},
		Body:   memberSearchBody,
		Request: func(ds *DataSet, n uint64) (string, *Venue) {
			return "/api/mcp", firstVenue(ds)
		},
		Check: checkMCPResult,
		Goals: scaleGoals(Goal{Kind: GoalVersusP99, Limit: 2, Versus: "members-schedule"}),
	})
	Register(&Op{
		Name:    "members-schedule",
		Help:    "GET /api/v1/venues/{slug}/schedule, anonymous, one location's week, on each --member-scales venue",
		Family:  FamilyMembers,
		Request: venueSchedulePath,
		Check:   checkNonEmptyData,
		Goals:   scaleGoals(),
	})
	Register(&Op{
		Name:    "members-admin-schedule",
		Help:    "GET /api/v1/admin/schedule (read:schedule), one location's week, on each --member-scales venue",
		Family:  FamilyMembers,
		Scopes:  []string{scope.ReadSchedule},
		Request: adminSchedulePath,
		Check:   checkEnvelope,
		Goals:   scaleGoals(),
	})
	Register(&Op{
		Name:    "members-checkin-roster",
		Help:    "GET /api/v1/admin/checkin/{class} (read:bookings), a class's roster, on each --member-scales venue",
		Family:  FamilyMembers,
		Scopes:  []string{scope.ReadBookings},
		Request: rosterPath,
		Check:   checkEnvelope,
		Goals:   scaleGoals(),
	})
	Register(&Op{
		Name:    "members-bookings",
		Help:    "GET /api/v1/bookings?organization_id (a signed-in member's own bookings, first page), on each --member-scales venue",
		Family:  FamilyMembers,
		Bearer:  true,
		Request: bookingsPath,
		Check:   checkNonEmptyData,
		Goals:   scaleGoals(),
	})
	Register(&Op{
		Name:    "venues-search",
		Help:    "GET /api/v1/venues?search=<a venue's name>&limit=20 (the directory's text search) on each --geo-venues scale",
		Family:  FamilyGeo,
		Request: directoryPath,
		Goals:   []Goal{{Kind: GoalScaleP99, Limit: 2}},
	})
}

// isPlatformSet reports whether set is a platform set of the members family.
func isPlatformSet(set string) bool { return strings.HasPrefix(set, platformSetPrefix) }

// compareMembers adds the members family's platform rows (the small venue
// beside the largest against alone) and versus rows (an op against another
// on the largest set) to rep.Scale, and checks their goals.
func (rep *Report) compareMembers(ops []*Op, find func(op, set string, c int) *StepReport) {
	var small, large, platform string
	for _, s := range rep.Sets {
		switch {
		case isPlatformSet(s.Name):
			if platform == "" || setScale(s.Name) > setScale(platform) {
				platform = s.Name
			}
		case strings.HasPrefix(s.Name, membersSetPrefix):
			if small == "" || setScale(s.Name) < setScale(small) {
				small = s.Name
			}
			if large == "" || setScale(s.Name) > setScale(large) {
				large = s.Name
			}
		}
	}
	for _, op := range ops {
		if op.Family != FamilyMembers {
			continue
		}
		for _, c := range rep.Settings.Concurrency {
			if a, b := find(op.Name, small, c), find(op.Name, platform, c); a != nil && b != nil {
				row := ScaleRow{Op: op.Name, Small: small, Large: platform, Concurrency: c,
					SmallP99: a.P99, LargeP99: b.P99, P99: ratio(float64(b.P99), float64(a.P99))}
				rep.Scale = append(rep.Scale, row)
				rep.checkGoals(op, GoalPlatformP99, c, row.P99)
			}
			for _, g := range op.Goals {
				if g.Kind != GoalVersusP99 || (g.Concurrency != 0 && g.Concurrency != c) {
					continue
				}
				a, b := find(op.Name, large, c), find(g.Versus, large, c)
				if a == nil || b == nil {
					continue
				}
				v := ratio(float64(a.P99), float64(b.P99))
				rep.Scale = append(rep.Scale, ScaleRow{Op: op.Name + " / " + g.Versus, Small: large, Large: large,
					Concurrency: c, SmallP99: b.P99, LargeP99: a.P99, P99: v})
				rep.Goals = append(rep.Goals, GoalResult{Op: op.Name, Goal: g.String(), Concurrency: c, Value: v, Limit: g.Limit, Met: v <= g.Limit})
			}
		}
	}
}
