package venuectx

import (
	"context"
	"net/http"
	"regexp"
	"strings"

	"github.com/google/uuid"

	"github.com/venueplatform/venue/ent"
	"github.com/venueplatform/venue/internal/apperr"
	"github.com/venueplatform/venue/internal/httpx"
	"github.com/venueplatform/venue/internal/system"
	"github.com/venueplatform/venue/internal/venue"
	"github.com/venueplatform/venue/internal/viewer"
)

// The venue context headers.
const (
	HeaderID   = "X-Organization-ID"
	HeaderSlug = "X-Organization-Slug"
)

// NoVenue is the venue an unknown slug resolves to: the maximum UUID
// (RFC 9562), which random (version 4) ids never take, so no row carries it.
var NoVenue = uuid.Max

// maxSlugLen is the longest slug the schema allows.
const maxSlugLen = 100

// slugChars is what a slug header may hold before lower-casing; anything else
// is malformed rather than unknown.
var slugChars = regexp.MustCompile(`^[A-Za-z0-9]+(?:-[A-Za-z0-9]+)*$`)

// Selection is the venue a request names through its headers.
type Selection struct {
	// ID is set when X-Organization-ID was sent.
	ID uuid.UUID
	// Slug is set (lower case) when only X-Organization-Slug was sent.
	Slug string
}

// IsZero reports whether the request named no venue.
func (s Selection) IsZero() bool { return s.ID == uuid.Nil && s.Slug == "" }

// Parse validates the header values id and slug (either may be empty). The id
// must be a UUID in its canonical 36-character form; a slug must look like
// one. Errors are 400 VALIDATION_ERROR naming the header.
func Parse(id, slug string) (Selection, error) {
	id, slug = strings.TrimSpace(id), strings.TrimSpace(slug)
	// A malformed slug is refused even beside an id that wins over it.
	if slug != "" && (len(slug) > maxSlugLen || !slugChars.MatchString(slug)) {
		return Selection{}, apperr.Validation(HeaderSlug, HeaderSlug+" must be a venue slug")
	}
	if id != "" {
		u, err := uuid.Parse(id)
		if err != nil || len(id) != 36 || u == uuid.Nil {
			return Selection{}, apperr.Validation(HeaderID, HeaderID+" must be a UUID")
		}
		return Selection{ID: u}, nil
	}
	if slug != "" {
		if len(slug) > maxSlugLen || !slugChars.MatchString(slug) {
			return Selection{}, apperr.Validation(HeaderSlug, HeaderSlug+" must be a venue slug")
		}
		return Selection{Slug: strings.ToLower(slug)}, nil
	}
	return Selection{}, nil
}

// FromHeader parses the venue context headers of h.
func FromHeader(h http.Header) (Selection, error) {
	return Parse(h.Get(HeaderID), h.Get(HeaderSlug))
}

// Resolve returns the venue id sel names and whether it named one: the id
// itself for X-Organization-ID, the id of the venue with the slug, or NoVenue
// for an unknown slug. Only the slug needs a lookup.
func Resolve(ctx context.Context, client *ent.Client, sel Selection) (uuid.UUID, bool, error) {
	switch {
	case sel.ID != uuid.Nil:
		return sel.ID, true, nil
	case sel.Slug != "":
		o, err := venue.Lookup(ctx, client, venue.Ref{Slug: sel.Slug})
		if ent.IsNotFound(err) {
			return NoVenue, true, nil
		}
		if err != nil {
			return uuid.Nil, false, err
		}
		return o.ID, true, nil
	default:
		return uuid.Nil, false, nil
	}
}

// WithViewer returns ctx acting in the venue sel names, and that venue:
//
//   - a caller with a venue of its own (an API key is bound to one) keeps its
//     viewer when sel names nothing or its own venue; when sel names another
//     venue the viewer becomes a public visitor of NoVenue, so queries
//     answer no rows rather than the other venue's or the caller's own;
//   - an anonymous caller becomes a public visitor of the named venue;
//   - an anonymous caller naming no venue is returned unchanged with ok false.
func WithViewer(ctx context.Context, client *ent.Client, sel Selection) (_ context.Context, id uuid.UUID, ok bool, err error) {
	id, named, err := Resolve(ctx, client, sel)
	if err != nil {
		return nil, uuid.Nil, false, err
	}
	if own, has := viewer.VenueFromContext(ctx); has {
		if !named || id == own {
			return ctx, own, true, nil
		}
		return system.Elevate(ctx, "venue.foreign_selection", viewer.Public{Org: NoVenue}), NoVenue, true, nil
	}
	if !named {
		return ctx, uuid.Nil, false, nil
	}
	return system.Identify(ctx, "venue.public_visitor", viewer.Public{Org: id}), id, true, nil
}

type ctxKey struct{}

// NewContext returns ctx carrying sel.
func NewContext(ctx context.Context, sel Selection) context.Context {
	return context.WithValue(ctx, ctxKey{}, sel)
}

// FromContext returns the selection Middleware stored in ctx (zero when none).
func FromContext(ctx context.Context) Selection {
	sel, _ := ctx.Value(ctxKey{}).(Selection)
	return sel
}

// Middleware parses the venue context headers of every request, answers a
// malformed one with 400 VALIDATION_ERROR naming the header, and stores the
// selection for FromContext. It is for operations whose OpenAPI description
// does not declare the headers as parameters; where it does, handlers pass
// the decoded values to Parse or build a Selection themselves.
func Middleware(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		sel, err := FromHeader(r.Header)
		if err != nil {
			httpx.WriteError(w, r, apperr.From(err))
			return
		}
		next.ServeHTTP(w, r.WithContext(NewContext(r.Context(), sel)))
	})
}

// SlugAsID lets X-Organization-Slug stand in for X-Organization-ID on every
// operation: when a request sends only the slug, it is resolved (an unknown
// slug to NoVenue, so the request sees no rows and never another venue's)
// and the request goes on carrying that X-Organization-ID, which the
// operations that take a venue context declare. A malformed header of
// either kind is 400 VALIDATION_ERROR naming it. When both are sent,
// X-Organization-ID wins.
func SlugAsID(client *ent.Client) func(http.Handler) http.Handler {
	return func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			sel, err := FromHeader(r.Header)
			if err != nil {
				httpx.WriteError(w, r, apperr.From(err))
				return
			}
			if sel.Slug != "" {
				id, _, err := Resolve(r.Context(), client, sel)
				if err != nil {
					httpx.WriteError(w, r, apperr.From(err))
					return
				}
				r = r.Clone(r.Context())
				r.Header.Set(HeaderID, id.String())
			}
			next.ServeHTTP(w, r)
		})
	}
}
