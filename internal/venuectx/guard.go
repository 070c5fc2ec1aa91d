package venuectx

import (
	"context"
	"strings"

	"github.com/google/uuid"
	"github.com/ogen-go/ogen/middleware"

	"github.com/venueplatform/venue/ent"
	"github.com/venueplatform/venue/ent/member"
	"github.com/venueplatform/venue/internal/apperr"
	"github.com/venueplatform/venue/internal/auth"
	"github.com/venueplatform/venue/internal/httpx"
	"github.com/venueplatform/venue/internal/me"
	"github.com/venueplatform/venue/internal/system"
	"github.com/venueplatform/venue/internal/viewer"
)

// Guard makes the venue header count on the operations that act in the
// caller's own venue without declaring the header: the staff operations
// (/admin/..., /calendar) and the caller's own (/me...). There a header the
// operation would otherwise ignore is either obeyed or refused, never
// ignored (docs/conventions.md, "Venue context headers"):
//
//   - naming the caller's venue (a session's active venue, an API key's
//     venue) changes nothing;
//   - naming another venue where the signed-in user is an active owner or
//     staff member makes the call act there, with the role and permissions
//     held there (the session's active venue is unchanged; a staff operation
//     then needs the second factor as it would there, mfaRequired);
//   - naming a venue where the user is only a client is 403
//     WORKSPACE_NOT_SELECTABLE on a staff operation, as choosing it as the
//     active venue is; on the user's own (/me...) operations it is accepted
//     and changes nothing, since they answer for the user (a member app
//     sends its venue's header on every call);
//   - any other venue (unknown, no active relationship, another venue than
//     an API key's own) is 404 NOT_FOUND, as a venue the caller cannot see.
//
// It runs inside the generated server, after the security handler put the
// caller in the context. X-Organization-Slug arrives as the id SlugAsID
// resolved it to. Operations that declare X-Organization-ID (bookings,
// /me/features, /me/push-token, /classes/{id}) apply their own documented
// rule, and an anonymous caller has no venue of its own to choose from.
func Guard(client *ent.Client, mfaRequired func(ctx context.Context, uid uuid.UUID) error) middleware.Middleware {
	return func(req middleware.Request, next middleware.Next) (middleware.Response, error) {
		if req.Raw == nil {
			return next(req)
		}
		raw := req.Raw.Header.Get(HeaderID)
		if raw == "" {
			return next(req)
		}
		staff, guarded := guardedOperation(req.OperationID)
		if !guarded {
			return next(req)
		}
		sel, err := Parse(raw, "")
		if err != nil {
			return middleware.Response{}, err
		}
		ctx, err := actIn(req.Context, client, sel.ID, staff, mfaRequired)
		if err != nil {
			return middleware.Response{}, err
		}
		req.Context = ctx
		return next(req)
	}
}

// actIn returns ctx acting in venue id as Guard says.
func actIn(ctx context.Context, client *ent.Client, id uuid.UUID, staff bool,
	mfaRequired func(context.Context, uuid.UUID) error) (context.Context, error) {
	switch v := viewer.FromContext(ctx).(type) {
	case nil:
		return ctx, nil
	case viewer.User:
		if v.Org == id {
			return ctx, nil
		}
		// System call site: the signed-in user's own relationship with the
		// venue they name, bound to their id.
		m, err := client.Member.Query().Where(member.UserID(v.UserID), member.OrganizationID(id)).
			Only(system.Allow(ctx, "me.memberships"))
		if ent.IsNotFound(err) {
			return nil, apperr.NotFound("venue")
		}
		if err != nil {
			return nil, err
		}
		if m.Status != member.StatusActive {
			return nil, apperr.NotFound("venue")
		}
		if !me.Selectable(m) {
			if !staff {
				// The user's own operations answer for the user; a venue
				// where the user is a client is theirs to name there.
				return ctx, nil
			}
			return nil, me.ErrNotSelectable
		}
		if staff && !v.MFA && mfaRequired != nil {
			if err := mfaRequired(ctx, v.UserID); err != nil {
				return nil, err
			}
		}
		u := v
		u.Org, u.Role, u.Permissions, u.MemberID = id, string(m.Role), me.PermissionsOf(m), uuid.Nil
		return system.Identify(ctx, "api.bearer_venue_header", u), nil
	default:
		if own, ok := v.Venue(); ok && own == id {
			return ctx, nil
		}
		return nil, apperr.NotFound("venue")
	}
}

// guardedOperation reports whether Guard applies to the operation (its id):
// one under /admin/, /calendar or /me that does not declare X-Organization-ID,
// and whether it is a staff operation.
func guardedOperation(op string) (staff, ok bool) {
	path := auth.OperationPath(op)
	staff = strings.HasPrefix(path, "/admin/") || path == "/calendar" || strings.HasPrefix(path, "/calendar/")
	own := path == "/me" || strings.HasPrefix(path, "/me/")
	if !staff && !own || httpx.DeclaresHeader(op, HeaderID) {
		return false, false
	}
	return staff, true
}
