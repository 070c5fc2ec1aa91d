package system

import (
	"context"
	"slices"

	"github.com/venueplatform/venue/internal/viewer"
)

type siteKey struct{}

type sqlKey struct{}

type elevationKey struct{}

type membersKey struct{}

// Allow returns a context in which the ent policies allow queries and
// mutations of the entity types the bypass site lists in the registry
// (sites.go), and only those: the privacy rule rule.AllowSystemSite reads it
// at the top of every policy. Other entity types are left to the viewer's
// ordinary rules, so a site widens what its caller may touch by exactly its
// list. An unregistered name, or a site of another kind, allows nothing.
func Allow(ctx context.Context, site string) context.Context {
	return context.WithValue(ctx, siteKey{}, site)
}

// Site returns the name of the bypass site ctx came from, if any.
func Site(ctx context.Context) (string, bool) {
	s, ok := ctx.Value(siteKey{}).(string)
	return s, ok
}

// Permits reports whether ctx comes from a registered bypass site that lists
// entity type typ (an ent type name such as "Booking"), and names the site.
func Permits(ctx context.Context, typ string) (string, bool) {
	name, ok := Site(ctx)
	if !ok {
		return "", false
	}
	s, ok := registry[name]
	if !ok || s.Kind != KindBypass {
		return name, false
	}
	return name, slices.Contains(s.Entities, typ)
}

// CrossMembers returns a context in which a member viewer reaches other
// members' rows of the entity types the members site lists (sites.go): the
// member wall (rule.FilterOwnMember) steps aside for them, and nothing else
// does, so the venue rules still keep the call inside the viewer's venue.
// An unregistered name, or a site of another kind, lifts nothing.
func CrossMembers(ctx context.Context, site string) context.Context {
	return context.WithValue(ctx, membersKey{}, site)
}

// CrossesMembers reports whether ctx comes from a registered members site
// that lists entity type typ, and names the site.
func CrossesMembers(ctx context.Context, typ string) (string, bool) {
	name, ok := ctx.Value(membersKey{}).(string)
	if !ok {
		return "", false
	}
	s, ok := registry[name]
	if !ok || s.Kind != KindMembers {
		return name, false
	}
	return name, slices.Contains(s.Entities, typ)
}

// RawSQL names the raw SQL site that runs statements on the returned context:
// SQL outside ent, which no ent policy sees. The name is kept in the context
// so that logs and tracers can tell which door a statement came through.
func RawSQL(ctx context.Context, site string) context.Context {
	return context.WithValue(ctx, sqlKey{}, site)
}

// RawSQLSite returns the name of the raw SQL site of ctx, if any.
func RawSQLSite(ctx context.Context) (string, bool) {
	s, ok := ctx.Value(sqlKey{}).(string)
	return s, ok
}

// Elevate returns ctx acting as v, a viewer the code builds beyond the
// credential the caller presented (a signed-in member acting in a venue, an
// operator of a job or the CLI, a visitor of one venue's public rows). site
// names the elevation in the registry with its reason.
func Elevate(ctx context.Context, site string, v viewer.Viewer) context.Context {
	return viewer.NewContext(context.WithValue(ctx, elevationKey{}, site), v)
}

// Identify returns ctx acting as v, the caller's own identity as its
// credential proves it, attached once at an entry point (an API key, a
// session's bearer token). site names the entry point in the registry.
func Identify(ctx context.Context, site string, v viewer.Viewer) context.Context {
	return viewer.NewContext(context.WithValue(ctx, elevationKey{}, site), v)
}

// ViewerSite returns the name of the elevation or identity site that put the
// viewer of ctx there, if any.
func ViewerSite(ctx context.Context) (string, bool) {
	s, ok := ctx.Value(elevationKey{}).(string)
	return s, ok
}
