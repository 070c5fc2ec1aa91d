package booking

import (
	"context"
	"net/http"
	"slices"
	"time"

	"github.com/google/uuid"

	"github.com/venueplatform/venue/ent"
	"github.com/venueplatform/venue/ent/pass"
	"github.com/venueplatform/venue/internal/apperr"
)

// Entitlement errors of GET /me/entitlements.
var (
	ErrBrandNotFound       = &apperr.Error{Status: http.StatusNotFound, Code: "BRAND_NOT_FOUND", Message: "brand not found"}
	errBrandLookup         = &apperr.Error{Status: http.StatusInternalServerError, Code: "BRAND_LOOKUP_FAILED", Message: "the brand could not be looked up"}
	errRestrictionUnverify = &apperr.Error{Status: http.StatusServiceUnavailable, Code: CodeRestrictionUnchecked, Message: "pass restrictions could not be verified"}
)

// Brand scopes of Entitlements.BrandScope besides a brand id.
const (
	ScopeAll       = "all"
	ScopeUnbranded = "none"
)

// Entitlements is what the member's passes let them do in the venue, on a
// date, optionally narrowed to a brand or one class.
type Entitlements struct {
	AsOf time.Time
	// BrandScope is a brand id, ScopeAll (no narrowing) or ScopeUnbranded
	// (a class whose type has no brand).
	BrandScope      string
	CanBookPhysical bool
	CanWatchOnline  bool
	OnlineOnly      bool
	// AllClassTypes is true when some pass has no class-type restriction;
	// otherwise ClassTypeIDs lists the bookable class types.
	AllClassTypes bool
	ClassTypeIDs  []uuid.UUID
	Passes        []*ent.Pass
}

// AllowedBrands returns the brand ids a pass is restricted to (empty: all).
func AllowedBrands(p *ent.Pass) []uuid.UUID { return brandIDs(p.Edges.PassType) }

// GetEntitlements computes the actor's member's entitlements at now. At
// most one of brandID and classID narrows them: a brand of the venue
// (BRAND_NOT_FOUND otherwise; BRAND_LOOKUP_FAILED when the lookup fails), or
// a listed class (CLASS_NOT_FOUND), whose passes must be able to book it.
// Active passes are active, valid on the venue-local date and not out of
// clips. Restrictions that cannot be read are PASS_RESTRICTION_UNVERIFIED.
func GetEntitlements(ctx context.Context, client *ent.Client, a Actor, brandID, classID *uuid.UUID, now time.Time) (*Entitlements, error) {
	loc, err := venueLocation(ctx, client)
	if err != nil {
		return nil, err
	}
	e := &Entitlements{AsOf: localDate(now, loc), BrandScope: ScopeAll}
	var ci *classInfo
	switch {
	case brandID != nil:
		if _, err := client.Brand.Get(ctx, *brandID); ent.IsNotFound(err) {
			return nil, ErrBrandNotFound
		} else if err != nil {
			return nil, withCause(errBrandLookup, err)
		}
		e.BrandScope = brandID.String()
	case classID != nil:
		cl, err := client.ClassInstance.Get(ctx, *classID)
		if ent.IsNotFound(err) || (err == nil && !cl.Listed) {
			return nil, ErrClassNotFound
		}
		if err != nil {
			return nil, err
		}
		info, err := loadClassInfo(ctx, client, cl, loc)
		if err != nil {
			return nil, err
		}
		ci = &info
		e.BrandScope = ScopeUnbranded
		if info.brand != nil {
			e.BrandScope = info.brand.String()
		}
	}
	ps, err := memberPasses(ctx, client, a.Member.ID, nil)
	if err != nil {
		return nil, withCause(errRestrictionUnverify, err)
	}
	types := map[uuid.UUID]bool{}
	for _, p := range ps {
		if ci != nil {
			if bad, _ := checkPass(p, *ci); bad != nil {
				continue
			}
		} else {
			if _, ok := validOn(p, e.AsOf); !ok || p.Status != pass.StatusActive ||
				(p.ClipsRemaining != nil && *p.ClipsRemaining <= 0) {
				continue
			}
			if bs := brandIDs(p.Edges.PassType); brandID != nil && len(bs) > 0 && !slices.Contains(bs, *brandID) {
				continue
			}
		}
		e.Passes = append(e.Passes, p)
		pt := p.Edges.PassType
		e.CanBookPhysical = e.CanBookPhysical || pt.GrantsInPerson
		e.CanWatchOnline = e.CanWatchOnline || pt.GrantsOnline
		cts := classTypeIDs(pt)
		if len(cts) == 0 {
			e.AllClassTypes = true
		}
		for _, id := range cts {
			types[id] = true
		}
	}
	if ci != nil {
		// One class: it is either in person or online.
		e.CanBookPhysical = e.CanBookPhysical && !ci.class.Online
		e.CanWatchOnline = e.CanWatchOnline && ci.class.Online
	}
	e.OnlineOnly = e.CanWatchOnline && !e.CanBookPhysical
	if !e.AllClassTypes {
		e.ClassTypeIDs = make([]uuid.UUID, 0, len(types))
		for id := range types {
			e.ClassTypeIDs = append(e.ClassTypeIDs, id)
		}
		slices.SortFunc(e.ClassTypeIDs, func(a, b uuid.UUID) int { return slices.Compare(a[:], b[:]) })
	}
	return e, nil
}

// withCause returns a copy of e that logs cause (never shown to clients).
func withCause(e *apperr.Error, cause error) *apperr.Error {
	c := *e
	c.Cause = cause
	return &c
}
