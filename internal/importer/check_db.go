package importer

import (
	"context"
	"fmt"
	"strings"
	"unicode"

	"github.com/google/uuid"
	"golang.org/x/text/unicode/norm"

	"github.com/venueplatform/venue/ent"
	"github.com/venueplatform/venue/ent/booking"
	"github.com/venueplatform/venue/ent/member"
)

// assignSlugs gives brands and pass types their slugs: a given slug must be
// free in the venue; a derived one (from the name) takes the first free of
// name, name-2, name-3, ...
func (p *plan) assignSlugs(ctx context.Context, c *ent.Client) error {
	brands, err := c.Brand.Query().All(ctx)
	if err != nil {
		return fmt.Errorf("read brand slugs: %w", err)
	}
	taken := make(map[string]uuid.UUID, len(brands))
	for _, b := range brands {
		taken[b.Slug] = b.ID
	}
	items := make([]slugItem, len(p.brands))
	for i, b := range p.brands {
		items[i] = slugItem{it: b.it, id: b.id, given: b.in.Slug, name: b.in.Name, out: &b.slug}
	}
	p.slugs(items, taken, "brand")

	passTypes, err := c.PassType.Query().All(ctx)
	if err != nil {
		return fmt.Errorf("read pass type slugs: %w", err)
	}
	taken = make(map[string]uuid.UUID, len(passTypes))
	for _, pt := range passTypes {
		taken[pt.Slug] = pt.ID
	}
	items = make([]slugItem, len(p.passTypes))
	for i, pt := range p.passTypes {
		items[i] = slugItem{it: pt.it, id: pt.id, given: pt.in.Slug, name: pt.in.Name, out: &pt.slug}
	}
	p.slugs(items, taken, "pass type")
	return nil
}

type slugItem struct {
	it          item
	id          uuid.UUID
	given, name string
	out         *string
}

func (p *plan) slugs(items []slugItem, taken map[string]uuid.UUID, label string) {
	for _, s := range items {
		if s.given == "" {
			continue
		}
		if owner, ok := taken[s.given]; ok && owner != s.id {
			p.ps.add(s.it, "slug", "slug %q is already used by another %s of the venue", s.given, label)
			continue
		}
		taken[s.given] = s.id
		*s.out = s.given
	}
	for _, s := range items {
		if s.given != "" {
			continue
		}
		base := Slugify(s.name)
		if base == "" {
			base = Slugify(s.it.ref)
		}
		if base == "" {
			base = strings.ReplaceAll(label, " ", "-")
		}
		slug := base
		for n := 2; ; n++ {
			if owner, ok := taken[slug]; !ok || owner == s.id {
				break
			}
			slug = fmt.Sprintf("%s-%d", base, n)
		}
		taken[slug] = s.id
		*s.out = slug
	}
}

// Slugify turns a name into a slug: lower-case ASCII letters and digits
// joined by single hyphens, at most 100 characters ("Hot Yoga København"
// becomes "hot-yoga-kobenhavn").
func Slugify(name string) string {
	var b strings.Builder
	hyphen := false
	for _, r := range norm.NFD.String(strings.ToLower(name)) {
		switch {
		case r >= 'a' && r <= 'z', r >= '0' && r <= '9':
			if hyphen && b.Len() > 0 {
				b.WriteByte('-')
			}
			hyphen = false
			b.WriteRune(r)
		case unicode.Is(unicode.Mn, r):
			// a combining accent: dropped
		case r == 'æ':
			b.WriteString("ae")
		case r == 'ø':
			b.WriteString("o")
		case r == 'ß':
			b.WriteString("ss")
		default:
			hyphen = true
		}
	}
	s := b.String()
	if len(s) > 100 {
		s = strings.TrimRight(s[:100], "-")
	}
	return s
}

// checkDisplayIDs refuses client display ids that another member of the
// venue (not the same person) already has.
func (p *plan) checkDisplayIDs(ctx context.Context, c *ent.Client) error {
	byID := map[string]*memberPlan{}
	var ids []string
	for _, m := range p.members {
		if m.in.ClientDisplayID != "" {
			byID[m.in.ClientDisplayID] = m
			ids = append(ids, m.in.ClientDisplayID)
		}
	}
	for start := 0; start < len(ids); start += chunk {
		rows, err := c.Member.Query().
			Where(member.ClientDisplayIDIn(ids[start:min(start+chunk, len(ids))]...)).
			WithUser().All(ctx)
		if err != nil {
			return fmt.Errorf("read client display ids: %w", err)
		}
		for _, row := range rows {
			m := byID[*row.ClientDisplayID]
			if row.ImportRef != nil && *row.ImportRef == m.in.Ref {
				continue
			}
			if row.Edges.User != nil && row.Edges.User.Email == m.email {
				continue
			}
			p.ps.add(m.it, "client_display_id", "client display id %q is used by another member of the venue", m.in.ClientDisplayID)
		}
	}
	return nil
}

// checkCapacity refuses a booking that would take a seat beyond its class's
// capacity, counting the seats held by bookings already in the database
// that the document does not replace. It also numbers waitlisted bookings
// per class, after those already waiting.
func (p *plan) checkCapacity(ctx context.Context, c *ent.Client) error {
	var existingClasses []uuid.UUID
	seen := map[uuid.UUID]bool{}
	for _, cl := range p.db.classes {
		if !seen[cl.ID] {
			seen[cl.ID] = true
			existingClasses = append(existingClasses, cl.ID)
		}
	}
	seats := map[uuid.UUID]int{}
	waiting := map[uuid.UUID]int{}
	for start := 0; start < len(existingClasses); start += chunk {
		rows, err := c.Booking.Query().
			Where(booking.ClassInstanceIDIn(existingClasses[start:min(start+chunk, len(existingClasses))]...),
				booking.StatusNotIn(booking.StatusCancelled, booking.StatusLateCancelled)).
			Select(booking.FieldID, booking.FieldClassInstanceID, booking.FieldImportRef, booking.FieldStatus).
			All(ctx)
		if err != nil {
			return fmt.Errorf("read bookings: %w", err)
		}
		for _, b := range rows {
			if b.ImportRef != nil && p.defined[SecBookings][*b.ImportRef] {
				continue // replaced by the document
			}
			if b.Status == booking.StatusWaitlisted {
				waiting[b.ClassInstanceID]++
			} else {
				seats[b.ClassInstanceID]++
			}
		}
	}
	for _, cl := range p.classes {
		if cl.ex != nil && seats[cl.id] > cl.capacity {
			p.ps.add(cl.it, "capacity", "%d bookings already hold a seat, more than the capacity %d", seats[cl.id], cl.capacity)
		}
	}
	for _, b := range p.bookings {
		switch {
		case b.class == uuid.Nil || freesSeat(b.status):
		case b.status == "waitlisted":
			waiting[b.class]++
			pos := waiting[b.class]
			b.waitlistPosition = &pos
		default:
			seats[b.class]++
			if capacity := p.classCapacity[b.class]; seats[b.class] > capacity {
				p.ps.add(b.it, "class", "class %q is over capacity: %d seats, this booking would hold seat %d (only waitlisted or cancelled bookings may exceed it)",
					b.in.Class, capacity, seats[b.class])
			}
		}
	}
	return nil
}
