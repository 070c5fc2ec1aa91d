package members

import (
	"context"
	"fmt"

	"github.com/google/uuid"

	"github.com/venueplatform/venue/ent"
	"github.com/venueplatform/venue/ent/member"
	"github.com/venueplatform/venue/internal/apperr"
	"github.com/venueplatform/venue/internal/audit"
	"github.com/venueplatform/venue/internal/booking"
	"github.com/venueplatform/venue/internal/events"
	"github.com/venueplatform/venue/internal/system"
	"github.com/venueplatform/venue/internal/venue"
	"github.com/venueplatform/venue/internal/viewer"
)

// Reasons a user cannot join.
const (
	ReasonAlreadyMember = "already_member"
	ReasonBlocked       = "blocked"
	ReasonUnlisted      = "unlisted"
)

// JoinState is a venue's join state for the user.
type JoinState struct {
	Org     *ent.Organization
	Member  bool
	CanJoin bool
	Reason  string
}

// JoinResult is the relationship after a join.
type JoinResult struct {
	Org     *ent.Organization
	Member  *ent.Member
	Created bool
}

// ResolveVenue finds a venue by slug or organization id (venue.Lookup); an
// unknown one is 404 NOT_FOUND.
func ResolveVenue(ctx context.Context, client *ent.Client, ref string) (*ent.Organization, error) {
	o, err := venue.Lookup(ctx, client, venue.RefOf(ref))
	if ent.IsNotFound(err) {
		return nil, apperr.NotFound("venue")
	}
	return o, err
}

// currentMember returns the user's relationship with org, nil when there is none.
func currentMember(ctx context.Context, client *ent.Client, uid, org uuid.UUID) (*ent.Member, error) {
	// System call site: the user reads their own relationship with the venue.
	m, err := client.Member.Query().Where(member.UserID(uid), member.OrganizationID(org)).
		Only(system.Allow(ctx, "me.memberships"))
	if ent.IsNotFound(err) {
		return nil, nil
	}
	return m, err
}

func sessionUser(ctx context.Context) (viewer.User, error) {
	u, ok := viewer.UserFromContext(ctx)
	if !ok {
		return viewer.User{}, apperr.Unauthorized("a user session is required")
	}
	return u, nil
}

// GetJoinState reports whether the user is a member of the venue ref and can
// join it.
func GetJoinState(ctx context.Context, client *ent.Client, ref string) (*JoinState, error) {
	u, err := sessionUser(ctx)
	if err != nil {
		return nil, err
	}
	o, err := ResolveVenue(ctx, client, ref)
	if err != nil {
		return nil, err
	}
	m, err := currentMember(ctx, client, u.UserID, o.ID)
	if err != nil {
		return nil, err
	}
	return newJoinState(o, m), nil
}

func newJoinState(o *ent.Organization, m *ent.Member) *JoinState {
	s := &JoinState{Org: o}
	switch {
	case m != nil && m.Status == member.StatusBlocked:
		s.Reason = ReasonBlocked
	case m != nil && m.Status == member.StatusActive:
		s.Member, s.Reason = true, ReasonAlreadyMember
	case m == nil && !o.Listed:
		s.Reason = ReasonUnlisted
	default:
		s.CanJoin = true
	}
	return s
}

// Join makes the user an active member of the venue ref. consent must be
// true. Joining again when already an active member changes nothing.
func Join(ctx context.Context, client *ent.Client, ref string, consent bool) (*JoinResult, error) {
	if !consent {
		return nil, apperr.Validation("consent", "consent must be true to join a venue")
	}
	u, err := sessionUser(ctx)
	if err != nil {
		return nil, err
	}
	o, err := ResolveVenue(ctx, client, ref)
	if err != nil {
		return nil, err
	}
	self := system.Elevate(ctx, "join.self", viewer.User{UserID: u.UserID, SessionID: u.SessionID})
	usr, err := client.User.Get(self, u.UserID)
	if err != nil {
		return nil, err
	}
	jctx := system.Elevate(ctx, "join.in_venue", viewer.User{UserID: u.UserID, SessionID: u.SessionID, Org: o.ID})
	var res *JoinResult
	err = events.WithTx(jctx, client, func(jctx context.Context, tx *ent.Tx) error {
		var err error
		res, err = joinTx(jctx, tx, o, u, usr)
		return err
	})
	if err != nil {
		return nil, err
	}
	return res, nil
}

// joinTx makes the change of Join in tx: the relationship, its client id, the audit entry and
// the member.created event.
func joinTx(jctx context.Context, tx *ent.Tx, o *ent.Organization, u viewer.User, usr *ent.User) (*JoinResult, error) {
	// One join per venue at a time: the client id sequence and the
	// one-relationship rule both rely on it.
	if err := lockVenue(jctx, tx.Client(), o.ID); err != nil {
		return nil, err
	}
	before, err := currentMember(jctx, tx.Client(), u.UserID, o.ID)
	if err != nil {
		return nil, err
	}
	st := newJoinState(o, before)
	switch st.Reason {
	case ReasonAlreadyMember:
		return &JoinResult{Org: o, Member: before}, nil
	case ReasonBlocked:
		return nil, apperr.AccessDenied(ReasonBlocked, "the venue does not accept this account")
	case ReasonUnlisted:
		return nil, apperr.AccessDenied(ReasonUnlisted, "the venue is not open for joining")
	}
	en, err := Enroll(jctx, tx.Client(), EnrollParams{
		Email: usr.Email, FirstName: usr.FirstName, LastName: usr.LastName, Phone: usr.Phone,
		Status: string(member.StatusActive),
	})
	if err != nil {
		return nil, fmt.Errorf("members: join enroll: %w", err)
	}
	m := en.Member
	if m.ClientDisplayID == nil {
		id, err := nextClientID(jctx, tx.Client(), o.ID)
		if err != nil {
			return nil, err
		}
		if m, err = tx.Member.UpdateOne(m).SetClientDisplayID(id).Save(jctx); err != nil {
			return nil, fmt.Errorf("members: join client id: %w", err)
		}
	}
	action := "member.joined"
	if !en.CreatedMember {
		action = "member.rejoined"
	}
	// Pass shares sent to the joining person's address become theirs.
	if err := booking.ClaimShareInvites(jctx, tx.Client(), m.ID, usr.Email); err != nil {
		return nil, err
	}
	uid := u.UserID
	if _, err := audit.Record(jctx, tx.Client(), audit.Entry{
		ActorKind: audit.KindUser, UserID: &uid, Action: action, Target: "member:" + m.ID.String(),
		Details: map[string]any{"client_display_id": deref(m.ClientDisplayID), "role": string(m.Role)},
	}); err != nil {
		return nil, err
	}
	if en.CreatedMember {
		if _, err := events.Record(jctx, tx.Client(), events.MemberCreated, map[string]any{
			"member_id": m.ID.String(), "user_id": uid.String(), "organization_id": o.ID.String(),
			"client_display_id": deref(m.ClientDisplayID), "source": "join",
		}); err != nil {
			return nil, err
		}
	}
	return &JoinResult{Org: o, Member: m, Created: true}, nil
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}
