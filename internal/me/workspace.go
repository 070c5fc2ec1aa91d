package me

import (
	"context"
	"errors"
	"net/http"
	"slices"

	"github.com/google/uuid"

	"github.com/venueplatform/venue/ent"
	"github.com/venueplatform/venue/ent/member"
	"github.com/venueplatform/venue/ent/session"
	"github.com/venueplatform/venue/internal/apperr"
	"github.com/venueplatform/venue/internal/scope"
	"github.com/venueplatform/venue/internal/system"
	"github.com/venueplatform/venue/internal/viewer"
)

// ErrNotSelectable is a workspace choice of a client (member-only)
// relationship.
var ErrNotSelectable = &apperr.Error{Status: http.StatusForbidden, Code: "WORKSPACE_NOT_SELECTABLE",
	Message: "a client relationship is not a workspace; choose a venue you own or work at"}

// Workspace is the organization a session acts in, with the user's role and
// staff permissions there.
type Workspace struct {
	Org         uuid.UUID
	Role        string
	Permissions []string
}

// Selectable reports whether m is a workspace: an active owner or staff
// relationship.
func Selectable(m *ent.Member) bool {
	return m.Status == member.StatusActive && (m.Role == member.RoleOwner || m.Role == member.RoleStaff)
}

// PermissionsOf returns the staff permissions of a selectable relationship:
// all of them for an owner, the granted ones for staff.
func PermissionsOf(m *ent.Member) []string {
	if m.Role == member.RoleOwner {
		return slices.Clone(scope.Permissions)
	}
	if m.Permissions == nil {
		return []string{}
	}
	return slices.Clone(m.Permissions)
}

// LoadWorkspace reads the active organization of the session sid of user
// uid, with the role and permissions the relationship holds now. A session
// without one, or whose relationship is no longer selectable, has none (the
// zero Workspace).
func LoadWorkspace(ctx context.Context, client *ent.Client, uid, sid uuid.UUID) (Workspace, error) {
	// System call site: the bearer request is being authenticated, so no
	// viewer exists yet; both reads are bound to the token's user and session.
	sctx := system.Allow(ctx, "sessions.workspace")
	sess, err := client.Session.Query().Where(session.ID(sid), session.UserID(uid)).
		Select(session.FieldActiveOrganizationID).Only(sctx)
	if ent.IsNotFound(err) {
		return Workspace{}, nil
	}
	if err != nil {
		return Workspace{}, err
	}
	if sess.ActiveOrganizationID == nil {
		return Workspace{}, nil
	}
	m, err := client.Member.Query().
		Where(member.OrganizationID(*sess.ActiveOrganizationID), member.UserID(uid)).Only(sctx)
	if ent.IsNotFound(err) {
		return Workspace{}, nil
	}
	if err != nil {
		return Workspace{}, err
	}
	if !Selectable(m) {
		return Workspace{}, nil
	}
	return Workspace{Org: m.OrganizationID, Role: string(m.Role), Permissions: PermissionsOf(m)}, nil
}

// Self returns the user viewer of ctx acting as themselves, outside any
// workspace: the viewer under which a user reads and changes their own
// account rows.
func Self(ctx context.Context) (context.Context, viewer.User, error) {
	u, ok := viewer.UserFromContext(ctx)
	if !ok {
		return nil, viewer.User{}, apperr.Unauthorized("a user session is required")
	}
	self := viewer.User{UserID: u.UserID, SessionID: u.SessionID, MFA: u.MFA, StepUpAt: u.StepUpAt}
	return system.Elevate(ctx, "me.self", self), u, nil
}

// relationships returns the user's relationships with venues, with their
// venues.
func relationships(ctx context.Context, client *ent.Client, uid uuid.UUID) ([]*ent.Member, error) {
	// System call site: the user lists their own relationships across
	// venues; the query is bound to their id.
	return client.Member.Query().Where(member.UserID(uid)).WithOrganization().
		Order(ent.Asc(member.FieldCreatedAt)).All(system.Allow(ctx, "me.memberships"))
}

// relationship returns the user's relationship with org, a not-found error
// when there is none.
func relationship(ctx context.Context, client *ent.Client, uid, org uuid.UUID) (*ent.Member, error) {
	m, err := client.Member.Query().Where(member.UserID(uid), member.OrganizationID(org)).
		WithOrganization().Only(system.Allow(ctx, "me.memberships"))
	if ent.IsNotFound(err) {
		return nil, apperr.NotFound("organization")
	}
	return m, err
}

// SelectOrganization makes org the session's active organization and returns
// the workspace it gives.
func (s *Service) SelectOrganization(ctx context.Context, org uuid.UUID) (Workspace, error) {
	sctx, u, err := Self(ctx)
	if err != nil {
		return Workspace{}, err
	}
	m, err := relationship(ctx, s.client, u.UserID, org)
	if err != nil {
		return Workspace{}, err
	}
	if !Selectable(m) {
		return Workspace{}, ErrNotSelectable
	}
	n, err := s.client.Session.Update().Where(session.ID(u.SessionID)).
		SetActiveOrganizationID(org).Save(sctx)
	if err != nil {
		return Workspace{}, err
	}
	if n == 0 {
		return Workspace{}, errors.New("me: session not found")
	}
	return Workspace{Org: org, Role: string(m.Role), Permissions: PermissionsOf(m)}, nil
}

// relationshipNotFound is the answer for a venue the user has no usable
// relationship with.
var relationshipNotFound = apperr.NotFound("organization")

// ActiveRelationship reports whether the user has an active relationship
// (member, staff or owner) with org.
func ActiveRelationship(ctx context.Context, client *ent.Client, uid, org uuid.UUID) (bool, error) {
	m, err := relationship(ctx, client, uid, org)
	if err != nil {
		var e *apperr.Error
		if errors.As(err, &e) && e.Status == http.StatusNotFound {
			return false, nil
		}
		return false, err
	}
	return m.Status == member.StatusActive, nil
}
