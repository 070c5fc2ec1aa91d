package booking

import (
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/google/uuid"

	"github.com/venueplatform/venue/ent"
	"github.com/venueplatform/venue/ent/brand"
	"github.com/venueplatform/venue/ent/classtype"
	"github.com/venueplatform/venue/ent/pass"
	"github.com/venueplatform/venue/internal/apperr"
)

// classInfo is what pass eligibility needs to know about a class.
type classInfo struct {
	class *ent.ClassInstance
	// brand is the brand of the class's type, nil when it has none.
	brand *uuid.UUID
	// date is the class's venue-local date, as a UTC midnight (the form of
	// pass validity dates).
	date time.Time
}

// localDate is t's date in loc as a UTC midnight.
func localDate(t time.Time, loc *time.Location) time.Time {
	y, m, d := t.In(loc).Date()
	return time.Date(y, m, d, 0, 0, 0, 0, time.UTC)
}

// venueLocation returns the time zone of the viewer's venue.
func venueLocation(ctx context.Context, c *ent.Client) (*time.Location, error) {
	o, err := c.Organization.Query().Only(ctx)
	if err != nil {
		return nil, fmt.Errorf("booking: venue: %w", err)
	}
	loc, err := time.LoadLocation(o.Timezone)
	if err != nil {
		return time.UTC, nil
	}
	return loc, nil
}

func loadClassInfo(ctx context.Context, c *ent.Client, cl *ent.ClassInstance, loc *time.Location) (classInfo, error) {
	ct, err := c.ClassType.Query().Where(classtype.ID(cl.ClassTypeID)).Only(ctx)
	if err != nil {
		return classInfo{}, fmt.Errorf("booking: class type: %w", err)
	}
	return classInfo{class: cl, brand: ct.BrandID, date: localDate(cl.StartTime, loc)}, nil
}

// memberPasses returns the member's passes with their types and the types'
// brand and class-type restrictions.
func memberPasses(ctx context.Context, c *ent.Client, member uuid.UUID, only *uuid.UUID) ([]*ent.Pass, error) {
	q := c.Pass.Query().Where(pass.MemberID(member))
	if only != nil {
		q.Where(pass.ID(*only))
	}
	ps, err := q.WithPassType(func(q *ent.PassTypeQuery) {
		q.WithAllowedBrands(func(q *ent.BrandQuery) { q.Select(brand.FieldID) }).
			WithAllowedClassTypes(func(q *ent.ClassTypeQuery) { q.Select(classtype.FieldID) })
	}).Order(ent.Asc(pass.FieldCreatedAt), ent.Asc(pass.FieldID)).All(ctx)
	if err != nil {
		return nil, fmt.Errorf("booking: passes: %w", err)
	}
	return ps, nil
}

// Restrictions of a pass type: allowed brand and class-type ids (empty:
// no restriction).
func brandIDs(pt *ent.PassType) []uuid.UUID {
	out := make([]uuid.UUID, 0, len(pt.Edges.AllowedBrands))
	for _, b := range pt.Edges.AllowedBrands {
		out = append(out, b.ID)
	}
	return out
}

func classTypeIDs(pt *ent.PassType) []uuid.UUID {
	out := make([]uuid.UUID, 0, len(pt.Edges.AllowedClassTypes))
	for _, ct := range pt.Edges.AllowedClassTypes {
		out = append(out, ct.ID)
	}
	return out
}

// validOn reports whether p is active and valid on date (a UTC midnight),
// and the reason when not.
func validOn(p *ent.Pass, date time.Time) (string, bool) {
	switch {
	case p.Status != pass.StatusActive:
		return ReasonNotActive, false
	case date.Before(p.ValidFrom.UTC().Truncate(24 * time.Hour)):
		return ReasonNotStarted, false
	case p.ValidTo != nil && date.After(p.ValidTo.UTC().Truncate(24*time.Hour)):
		return ReasonExpired, false
	}
	return "", true
}

// checkPass returns why p (loaded by memberPasses) cannot book ci, nil
// when it can, with the rank of the refusal (higher is more specific).
func checkPass(p *ent.Pass, ci classInfo) (*apperr.Error, int) {
	if reason, ok := validOn(p, ci.date); !ok {
		if reason == ReasonNotActive {
			return passNotUsable(reason), 0
		}
		return passNotUsable(reason), 1
	}
	pt := p.Edges.PassType
	if ci.class.Online && !pt.GrantsOnline {
		return passNotUsable(ReasonOnlineExcluded), 2
	}
	if !ci.class.Online && !pt.GrantsInPerson {
		return passNotUsable(ReasonInPersonExcl), 2
	}
	if bs := brandIDs(pt); len(bs) > 0 && (ci.brand == nil || !slices.Contains(bs, *ci.brand)) {
		return errBrandRestricted, 3
	}
	if cts := classTypeIDs(pt); len(cts) > 0 && !slices.Contains(cts, ci.class.ClassTypeID) {
		return errTypeRestricted, 3
	}
	if p.ClipsRemaining != nil && *p.ClipsRemaining <= 0 {
		return passNotUsable(ReasonNoClips), 2
	}
	return nil, 0
}

// choosePass picks the pass to book ci with: the named one (which must be
// the member's and eligible), or the best eligible pass of the member's —
// unlimited before clip passes, then the one expiring first. Without any
// eligible pass the most specific refusal is returned.
func choosePass(ps []*ent.Pass, ci classInfo, named bool) (*ent.Pass, error) {
	if len(ps) == 0 {
		if named {
			return nil, apperr.NotFound("pass")
		}
		return nil, errPassRequired
	}
	var ok []*ent.Pass
	var best *apperr.Error
	bestRank := -1
	for _, p := range ps {
		e, rank := checkPass(p, ci)
		if e == nil {
			ok = append(ok, p)
			continue
		}
		if rank > bestRank {
			best, bestRank = e, rank
		}
	}
	if len(ok) == 0 {
		return nil, best
	}
	slices.SortStableFunc(ok, func(a, b *ent.Pass) int {
		switch {
		case (a.ClipsRemaining == nil) != (b.ClipsRemaining == nil):
			if a.ClipsRemaining == nil {
				return -1
			}
			return 1
		case a.ValidTo == nil && b.ValidTo == nil:
			return 0
		case a.ValidTo == nil:
			return 1
		case b.ValidTo == nil:
			return -1
		}
		return a.ValidTo.Compare(*b.ValidTo)
	})
	return ok[0], nil
}
