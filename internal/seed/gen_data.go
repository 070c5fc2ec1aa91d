package seed

import (
	"fmt"
	"time"

	"github.com/google/uuid"
)

const (
	classesPerRoomPerDay = 6
	membersPerLocation   = 2500
	maxLocations         = 40
)

func locationCount(members int) int {
	return min(max(members/membersPerLocation, 2), maxLocations)
}

// flexibleConfig is the configuration of the seeded flexible membership.
const flexibleConfig = `{"schema_version":1,"minimum_quantity":4,"maximum_quantity":12,"quantity_step":1,` +
	`"tiers":[{"up_to":8,"price_per_class":95},{"up_to":12,"price_per_class":85}],` +
	`"unlimited":{"enabled":true,"price":899},` +
	`"change_policy":{"member_changes_enabled":true,"allowed_cycle_offsets":[1,2],"default_cycle_offset":1}}`

func (g *generator) catalogue() {
	brands := []uuid.UUID{g.id(), g.id()}
	g.t["brands"].add(brands[0], g.now, g.now, "Hot Yoga", "hot-yoga", true, g.org)
	g.t["brands"].add(brands[1], g.now, g.now, "Sweat Lab", "sweat-lab", true, g.org)
	for i := range locationCount(g.p.Members) {
		n := neighbourhoods[i%len(neighbourhoods)]
		name := n.name
		if i >= len(neighbourhoods) {
			name = fmt.Sprintf("%s %d", n.name, i/len(neighbourhoods)+1)
		}
		loc := g.id()
		g.locations = append(g.locations, loc)
		g.t["locations"].add(loc, g.now, g.now, name, fmt.Sprintf("%s %d", n.street, 1+g.rng.IntN(120)), "København",
			n.lat+float64(g.rng.IntN(100))/10000, n.lng+float64(g.rng.IntN(100))/10000, true, g.org)
		for k, kind := range []string{"studio", "spin"} {
			r := room{id: g.id(), location: loc, capacity: 16 + 4*g.rng.IntN(4)}
			g.rooms = append(g.rooms, r)
			g.t["rooms"].add(r.id, g.now, g.now, fmt.Sprintf("Studio %d", k+1), r.capacity, kind, true, loc, g.org)
		}
	}
	for _, ct := range classTypeNames {
		id := g.id()
		g.classTypes = append(g.classTypes, id)
		g.minutes = append(g.minutes, ct.minutes)
		g.t["class_types"].add(id, g.now, g.now, ct.name, ct.slug, ct.name+" class", ct.minutes, true, brands[ct.brand], g.org)
	}
	for i := range 4 + 2*len(g.locations) {
		id := g.id()
		g.instructors = append(g.instructors, id)
		first, last := firstNames[g.rng.IntN(len(firstNames))], lastNames[g.rng.IntN(len(lastNames))]
		g.t["instructors"].add(id, g.now, g.now, first, last, fmt.Sprintf("instructor-%d@%s.example", i+1, g.slug), true, g.org)
	}
	pts := g.t["pass_types"]
	add := func(name, slug, category string, price int64, recurring bool, mode string, clips, validity int) {
		pt := passType{id: g.id(), category: category, price: price, clips: clips, validity: validity}
		g.passTypes = append(g.passTypes, pt)
		var interval, intervalCount, config, clipsCol, validityCol any
		if recurring {
			interval, intervalCount = "month", 1
		}
		if mode == "flexible_quantity" {
			config = []byte(flexibleConfig)
		}
		if clips > 0 {
			clipsCol = clips
		}
		if validity > 0 {
			validityCol = validity
		}
		pts.add(pt.id, g.now, g.now, name, slug, category, price, "DKK", recurring, interval, intervalCount, mode, config,
			clipsCol, validityCol, true, true, true, true, len(g.passTypes), g.org)
	}
	add("Drop-in", "drop-in", "drop_in", 15000, false, "fixed", 0, 1)
	add("10-clip card", "10-clip-card", "clip_card", 120000, false, "fixed", 10, 180)
	add("Unlimited monthly", "unlimited-monthly", "membership", 59900, true, "fixed", 0, 0)
	add("Flexible membership", "flexible-membership", "membership", 39900, true, "flexible_quantity", 0, 0)
}

func (g *generator) people() {
	users, members := g.t["users"], g.t["members"]
	passes, payments := g.t["passes"], g.t["payments"]
	g.members = make([]uuid.UUID, g.p.Members)
	g.memberPass = make([]*uuid.UUID, g.p.Members)
	for i := range g.p.Members {
		uid, mid := g.id(), g.id()
		g.members[i] = mid
		first, last := firstNames[g.rng.IntN(len(firstNames))], lastNames[g.rng.IntN(len(lastNames))]
		joined := g.now.AddDate(0, 0, -g.rng.IntN(1000))
		users.add(uid, joined, joined, fmt.Sprintf("member-%06d@%s.example", i+1, g.slug), first, last,
			fmt.Sprintf("+45%08d", g.rng.IntN(100_000_000)), "imported_unclaimed")
		members.add(mid, joined, joined, "member", "active", fmt.Sprintf("S-%06d", i+1), joined, g.org, uid)

		var pt passType
		switch r := g.rng.IntN(100); {
		case r < 10:
			pt = g.passTypes[0]
		case r < 40:
			pt = g.passTypes[1]
		case r < 85:
			pt = g.passTypes[2]
		default:
			pt = g.passTypes[3]
		}
		status := "active"
		switch r := g.rng.IntN(100); {
		case r < 5:
			status = "expired"
		case r < 10:
			status = "past_due"
		case r < 15:
			status = "cancelled"
		}
		from := g.today.AddDate(0, 0, -g.rng.IntN(180))
		fromDate := time.Date(from.Year(), from.Month(), from.Day(), 0, 0, 0, 0, time.UTC)
		var to, clips any
		if pt.validity > 0 {
			to = fromDate.AddDate(0, 0, pt.validity)
		}
		if pt.clips > 0 {
			clips = g.rng.IntN(pt.clips + 1)
		}
		pid := g.id()
		if status == "active" {
			g.memberPass[i] = &pid
		}
		paid := from.Add(time.Duration(9+g.rng.IntN(10)) * time.Hour).UTC()
		passes.add(pid, paid, paid, status, fromDate, to, clips, mid, g.org, pt.id)
		payStatus := "succeeded"
		if status == "past_due" {
			payStatus = "failed"
		}
		kind := "pass_purchase"
		if pt.category == "membership" {
			kind = "renewal"
		}
		payments.add(g.id(), paid, paid, pt.price, "DKK", payStatus, kind, paid, mid, pid, g.org)
	}
}

func (g *generator) schedule() {
	classes, bookings := g.t["class_instances"], g.t["bookings"]
	for day := range g.p.Days {
		date := g.today.AddDate(0, 0, day)
		for ri, r := range g.rooms {
			for slot := range classesPerRoomPerDay {
				ct := (ri + slot + day) % len(g.classTypes)
				start := time.Date(date.Year(), date.Month(), date.Day(), 7+2*slot+ri%2, 0, 0, 0, date.Location()).UTC()
				end := start.Add(time.Duration(g.minutes[ct]) * time.Minute)
				status := "scheduled"
				if end.Before(g.now) {
					status = "completed"
				}
				cid := g.id()
				instructor := g.instructors[g.rng.IntN(len(g.instructors))]
				classes.add(cid, g.now, g.now, start, end, r.capacity, status, false, true, g.org, g.classTypes[ct], instructor, r.location, r.id)
				g.book(bookings, cid, r.capacity, start, status == "completed")
			}
		}
	}
}

// book fills a class to 50%..115% of its capacity; beyond capacity people
// wait. A few cancel, which frees their seat.
func (g *generator) book(bookings *table, class uuid.UUID, capacity int, start time.Time, past bool) {
	if len(g.members) == 0 {
		return
	}
	want := capacity/2 + g.rng.IntN(capacity*65/100+1)
	seated, waiting := 0, 0
	picked := make(map[int]bool, want)
	for range want {
		m := g.rng.IntN(len(g.members))
		if picked[m] {
			continue
		}
		picked[m] = true
		created := start.Add(-time.Duration(1+g.rng.IntN(14*24)) * time.Hour)
		if created.After(g.now) {
			created = g.now
		}
		var position, cancelled, checkedIn any
		status := "confirmed"
		switch {
		case seated >= capacity:
			waiting++
			status, position = "waitlisted", waiting
		case g.rng.IntN(100) < 5:
			at := created.Add(time.Hour)
			if at.After(g.now) {
				at = g.now
			}
			status, cancelled = "cancelled", at
		case past && g.rng.IntN(100) < 10:
			status = "no-show"
			seated++
		case past:
			status, checkedIn = "checked_in", start.Add(-5*time.Minute)
			seated++
		default:
			seated++
		}
		bookings.add(g.id(), created, created, status, position, cancelled, checkedIn, g.org, class, g.members[m], passOrNil(g.memberPass[m]))
	}
}

func passOrNil(p *uuid.UUID) any {
	if p == nil {
		return nil
	}
	return *p
}
