package booking

import (
	"context"
	"fmt"

	"github.com/google/uuid"

	"github.com/venueplatform/venue/ent"
	entbooking "github.com/venueplatform/venue/ent/booking"
	"github.com/venueplatform/venue/ent/member"
	"github.com/venueplatform/venue/internal/apperr"
	"github.com/venueplatform/venue/internal/audit"
	"github.com/venueplatform/venue/internal/system"
	"github.com/venueplatform/venue/internal/viewer"
)

// Actor is who books or cancels: a member for themselves (a user's bearer
// session) or a venue integration or staff for a named member.
type Actor struct {
	// Member is the member the booking is for.
	Member *ent.Member
	// Self is true when the member acts for themselves: their bookings only.
	Self bool
	// Via records the channel on new bookings.
	Via entbooking.BookedVia
}

// AsMember returns a context in which the signed-in user acts as their
// member relationship with the venue org (a viewer.User whose Org is org,
// for this call only, as joining a venue does), and the Actor. A user
// without an active relationship with org gets ErrNotMember; an unknown
// venue the same (it reveals nothing).
func AsMember(ctx context.Context, client *ent.Client, org uuid.UUID) (context.Context, Actor, error) {
	u, ok := viewer.UserFromContext(ctx)
	if !ok {
		return nil, Actor{}, apperr.Unauthorized("a user session is required")
	}
	// System call site: the user reads their own relationship with the
	// venue, bound to their id.
	m, err := client.Member.Query().Where(member.UserID(u.UserID), member.OrganizationID(org)).
		Only(system.Allow(ctx, "me.memberships"))
	if ent.IsNotFound(err) {
		return nil, Actor{}, ErrNotMember
	}
	if err != nil {
		return nil, Actor{}, fmt.Errorf("booking: relationship: %w", err)
	}
	if m.Status != member.StatusActive {
		return nil, Actor{}, ErrNotMember
	}
	mctx := system.Elevate(ctx, "booking.as_member", viewer.User{UserID: u.UserID, SessionID: u.SessionID, Org: org,
		MemberID: m.ID, MFA: u.MFA, StepUpAt: u.StepUpAt})
	return mctx, Actor{Member: m, Self: true, Via: entbooking.BookedViaMember}, nil
}

// ForClient returns the Actor of a venue viewer (API key, staff) booking
// for a member named by id or by the venue's client id (client_display_id).
// An unknown or foreign member is ErrClientNotFound.
func ForClient(ctx context.Context, client *ent.Client, memberID *uuid.UUID, clientID string, via entbooking.BookedVia) (Actor, error) {
	q := client.Member.Query()
	switch {
	case memberID != nil:
		q.Where(member.ID(*memberID))
	case clientID != "":
		q.Where(member.ClientDisplayID(clientID))
	default:
		return Actor{}, apperr.Validation("member_id", "member_id or client_id is required with an API key")
	}
	m, err := q.Only(ctx)
	if ent.IsNotFound(err) {
		return Actor{}, ErrClientNotFound
	}
	if err != nil {
		return Actor{}, fmt.Errorf("booking: member: %w", err)
	}
	if m.Status != member.StatusActive {
		return Actor{}, ErrClientNotFound.With("reason", "inactive")
	}
	return Actor{Member: m, Via: via}, nil
}

// auditEntry records action on booking b for the context's viewer.
func auditEntry(ctx context.Context, tx *ent.Client, action string, b *ent.Booking, details map[string]any) error {
	_, err := audit.Record(ctx, tx, withUser(ctx, audit.Entry{Action: action, Target: "booking:" + b.ID.String(), Details: details}))
	return err
}

// withUser names a user viewer as the entry's actor.
func withUser(ctx context.Context, e audit.Entry) audit.Entry {
	if u, ok := viewer.UserFromContext(ctx); ok {
		e.ActorKind = audit.KindUser
		e.UserID = &u.UserID
	}
	return e
}
