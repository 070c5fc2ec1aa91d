// Package viewer carries who is calling through a request's context: an API
// key, a user session, a public visitor of one venue, or a venue operator at a
// shell. The tenancy rules of ent read it; nothing else decides which venue a
// call may see.
package viewer

import (
	"context"
	"slices"

	"github.com/google/uuid"
)

// Viewer is the identity a request acts as.
type Viewer interface {
	// Venue returns the venue (organization) the viewer acts in.
	Venue() (uuid.UUID, bool)
	// ReadOnly reports whether the viewer may only read.
	ReadOnly() bool
	// Actor names the viewer in audit entries.
	Actor() string
}

type ctxKey struct{}

// NewContext returns a copy of ctx that carries v.
func NewContext(ctx context.Context, v Viewer) context.Context {
	return context.WithValue(ctx, ctxKey{}, v)
}

// FromContext returns the viewer of ctx, or nil when there is none.
func FromContext(ctx context.Context) Viewer {
	v, _ := ctx.Value(ctxKey{}).(Viewer)
	return v
}

// VenueFromContext returns the venue of the viewer of ctx.
func VenueFromContext(ctx context.Context) (uuid.UUID, bool) {
	if v := FromContext(ctx); v != nil {
		return v.Venue()
	}
	return uuid.Nil, false
}

// Public is an anonymous visitor of one venue's public pages.
type Public struct {
	Org uuid.UUID
}

// Venue implements Viewer.
func (p Public) Venue() (uuid.UUID, bool) { return p.Org, p.Org != uuid.Nil }

// ReadOnly implements Viewer: visitors never write.
func (Public) ReadOnly() bool { return true }

// Actor implements Viewer.
func (Public) Actor() string { return "public" }

// APIKey is an organization-scoped API key with explicit scopes.
type APIKey struct {
	Org    uuid.UUID
	KeyID  uuid.UUID
	Name   string
	Scopes []string
	// CreatedBy is the staff user who issued the key, when recorded.
	CreatedBy      *uuid.UUID
	CreatedByEmail string
}

// Venue implements Viewer.
func (k APIKey) Venue() (uuid.UUID, bool) { return k.Org, k.Org != uuid.Nil }

// ReadOnly implements Viewer: a key without any write scope only reads.
func (k APIKey) ReadOnly() bool {
	return !slices.ContainsFunc(k.Scopes, func(s string) bool { return len(s) > 6 && s[:6] == "write:" })
}

// Actor implements Viewer.
func (k APIKey) Actor() string { return "api_key:" + k.KeyID.String() }

// HasScope reports whether the key carries scope.
func (k APIKey) HasScope(scope string) bool { return slices.Contains(k.Scopes, scope) }

// Operator is a venue administrator acting in one venue from a shell
// (venuectl) or a system job scoped to one venue.
type Operator struct {
	Org  uuid.UUID
	Name string
}

// Venue implements Viewer.
func (o Operator) Venue() (uuid.UUID, bool) { return o.Org, o.Org != uuid.Nil }

// ReadOnly implements Viewer.
func (Operator) ReadOnly() bool { return false }

// Actor implements Viewer.
func (o Operator) Actor() string {
	if o.Name == "" {
		return "operator"
	}
	return "operator:" + o.Name
}
