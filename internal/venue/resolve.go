package venue

import (
	"context"
	"fmt"

	"github.com/google/uuid"

	"github.com/venueplatform/venue/ent"
	"github.com/venueplatform/venue/ent/featureprovisioning"
	"github.com/venueplatform/venue/ent/organization"
	"github.com/venueplatform/venue/internal/system"
)

// Ref names a venue from outside: by id, or else by slug. The zero Ref names
// no venue (Lookup answers not found).
type Ref struct {
	ID   uuid.UUID
	Slug string
}

// RefOf reads s as a venue id when it parses as a UUID, else as a slug: the
// reading of paths that take either.
func RefOf(s string) Ref {
	if id, err := uuid.Parse(s); err == nil {
		return Ref{ID: id}
	}
	return Ref{Slug: s}
}

// Lookup returns the organization r names, or an ent not-found error. It is
// the one place a slug or id from a path, a header or the command line
// becomes a venue; each caller says what not found means to its client.
func Lookup(ctx context.Context, client *ent.Client, r Ref) (*ent.Organization, error) {
	// System call site: a slug or id names the venue before any viewer of
	// it exists; only this row is read.
	q := client.Organization.Query()
	if r.ID != uuid.Nil {
		q.Where(organization.ID(r.ID))
	} else {
		q.Where(organization.SlugEQ(r.Slug))
	}
	return q.Only(system.Allow(ctx, "venue.resolve"))
}

// BySlug returns the venue with slug and its feature provisioning, or an ent
// not-found error.
func BySlug(ctx context.Context, client *ent.Client, slug string) (*Venue, error) {
	org, err := Lookup(ctx, client, Ref{Slug: slug})
	if err != nil {
		return nil, err
	}
	// System call site: the flags of the venue just named, before any
	// viewer of it exists; only its row is read.
	fp, err := client.FeatureProvisioning.Query().
		Where(featureprovisioning.OrganizationIDEQ(org.ID)).Only(system.Allow(ctx, "venue.resolve"))
	if err != nil && !ent.IsNotFound(err) {
		return nil, fmt.Errorf("venue features: %w", err)
	}
	return &Venue{Organization: org, Features: fp}, nil
}
