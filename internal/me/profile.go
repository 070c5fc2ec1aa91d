package me

import (
	"context"
	"slices"
	"strings"

	"github.com/google/uuid"

	"github.com/venueplatform/venue/ent"
	"github.com/venueplatform/venue/ent/member"
	"github.com/venueplatform/venue/ent/session"
	"github.com/venueplatform/venue/internal/apperr"
	"github.com/venueplatform/venue/internal/system"
)

// Workspace groups of a relationship.
const (
	GroupOwned         = "owned"
	GroupWorksAt       = "works_at"
	GroupMemberVenues  = "member_venues"
	GroupRelationships = "relationships"
)

// Service answers the /me operations.
type Service struct {
	client *ent.Client
	// MFAEnabled reports whether the user has a confirmed second factor
	// (nil: never).
	MFAEnabled func(ctx context.Context, uid uuid.UUID) (bool, error)
}

// New returns a Service over client.
func New(client *ent.Client) *Service { return &Service{client: client} }

// Profile is the signed-in user with their relationships.
type Profile struct {
	User        *ent.User
	ActiveOrg   uuid.UUID
	MFAEnabled  bool
	Memberships []Membership
}

// Membership is one relationship seen as a workspace.
type Membership struct {
	Member       *ent.Member
	Org          *ent.Organization
	Permissions  []string
	Capabilities []string
	Active       bool
	Individual   bool
	Owned        bool
	Workplace    bool
	Relationship bool
	Selectable   bool
	Group        string
}

// Profile returns the signed-in user's profile.
func (s *Service) Profile(ctx context.Context) (*Profile, error) {
	sctx, u, err := Self(ctx)
	if err != nil {
		return nil, err
	}
	usr, err := s.client.User.Get(sctx, u.UserID)
	if err != nil {
		return nil, err
	}
	p := &Profile{User: usr}
	sess, err := s.client.Session.Query().Where(session.ID(u.SessionID)).Only(sctx)
	if err != nil && !ent.IsNotFound(err) {
		return nil, err
	}
	if sess != nil && sess.ActiveOrganizationID != nil {
		p.ActiveOrg = *sess.ActiveOrganizationID
	}
	if s.MFAEnabled != nil {
		if p.MFAEnabled, err = s.MFAEnabled(ctx, u.UserID); err != nil {
			return nil, err
		}
	}
	rows, err := relationships(ctx, s.client, u.UserID)
	if err != nil {
		return nil, err
	}
	solo, err := s.soleOwners(ctx, rows)
	if err != nil {
		return nil, err
	}
	for _, m := range rows {
		ms := Membership{Member: m, Org: m.Edges.Organization, Permissions: []string{}, Selectable: Selectable(m)}
		ms.Active = m.OrganizationID == p.ActiveOrg && ms.Selectable
		if ms.Active {
			ms.Permissions = PermissionsOf(m)
		}
		switch m.Role {
		case member.RoleOwner:
			ms.Owned, ms.Group, ms.Individual = true, GroupOwned, solo[m.OrganizationID]
		case member.RoleStaff:
			ms.Workplace, ms.Group = true, GroupWorksAt
		default:
			ms.Relationship, ms.Group = true, GroupMemberVenues
			if m.Status != member.StatusActive {
				ms.Group = GroupRelationships
			}
		}
		ms.Capabilities = capabilities(m)
		p.Memberships = append(p.Memberships, ms)
	}
	// A stored choice that is no longer a workspace (demoted, removed) is
	// not active: bearer requests act in no venue either (LoadWorkspace).
	if !slices.ContainsFunc(p.Memberships, func(m Membership) bool { return m.Active }) {
		p.ActiveOrg = uuid.Nil
	}
	return p, nil
}

// capabilities names what a relationship lets the user do.
func capabilities(m *ent.Member) []string {
	out := []string{}
	if m.Status != member.StatusActive {
		return out
	}
	out = append(out, "book", "buy")
	switch m.Role {
	case member.RoleOwner:
		out = append(out, "staff_app", "manage_venue")
	case member.RoleStaff:
		out = append(out, "staff_app")
	}
	return out
}

// soleOwners reports, for the venues the user owns, whether they run it
// alone (no other active staff or owner).
func (s *Service) soleOwners(ctx context.Context, rows []*ent.Member) (map[uuid.UUID]bool, error) {
	var owned []uuid.UUID
	for _, m := range rows {
		if m.Role == member.RoleOwner {
			owned = append(owned, m.OrganizationID)
		}
	}
	out := make(map[uuid.UUID]bool, len(owned))
	if len(owned) == 0 {
		return out, nil
	}
	var counts []struct {
		OrganizationID uuid.UUID `json:"organization_id"`
		Count          int       `json:"count"`
	}
	// System call site (the same as the listing): counting the staff of the
	// venues the user owns.
	err := s.client.Member.Query().
		Where(member.OrganizationIDIn(owned...), member.RoleIn(member.RoleOwner, member.RoleStaff),
			member.StatusEQ(member.StatusActive)).
		GroupBy(member.FieldOrganizationID).Aggregate(ent.Count()).
		Scan(system.Allow(ctx, "me.memberships"), &counts)
	if err != nil {
		return nil, err
	}
	for _, c := range counts {
		out[c.OrganizationID] = c.Count == 1
	}
	return out, nil
}

// UpdateParams are the editable profile fields; nil leaves a field as it is.
type UpdateParams struct {
	FirstName, LastName  *string
	Phone, Country, City *string
	MarketingConsent     *bool
}

// Update changes the signed-in user's profile fields and returns the profile.
func (s *Service) Update(ctx context.Context, p UpdateParams) (*Profile, error) {
	sctx, u, err := Self(ctx)
	if err != nil {
		return nil, err
	}
	upd := s.client.User.UpdateOneID(u.UserID)
	if p.FirstName != nil {
		upd.SetFirstName(strings.TrimSpace(*p.FirstName))
	}
	if p.LastName != nil {
		upd.SetLastName(strings.TrimSpace(*p.LastName))
	}
	if p.Phone != nil {
		phone := strings.TrimSpace(*p.Phone)
		if phone != "" && !validPhone(phone) {
			return nil, apperr.Validation("phone", "phone is a telephone number: digits, an optional leading +, spaces, dashes, dots or parentheses (6 to 15 digits)")
		}
		upd.SetPhone(phone)
	}
	if p.Country != nil {
		c := strings.ToUpper(strings.TrimSpace(*p.Country))
		if c != "" && (len(c) != 2 || c[0] < 'A' || c[0] > 'Z' || c[1] < 'A' || c[1] > 'Z') {
			return nil, apperr.Validation("country", "country is an ISO 3166-1 alpha-2 code")
		}
		upd.SetCountry(c)
	}
	if p.City != nil {
		upd.SetCity(strings.TrimSpace(*p.City))
	}
	if p.MarketingConsent != nil {
		upd.SetMarketingConsent(*p.MarketingConsent)
	}
	if err := upd.Exec(sctx); err != nil {
		if ent.IsValidationError(err) {
			return nil, apperr.Validation("body", "a profile field is too long")
		}
		return nil, err
	}
	return s.Profile(ctx)
}

// validPhone reports whether s looks like a telephone number: an optional
// leading +, then digits with spaces, dashes, dots or parentheses between
// them, 6 to 15 digits in all (E.164 allows at most 15).
func validPhone(s string) bool {
	digits := 0
	for i, r := range s {
		switch {
		case r >= '0' && r <= '9':
			digits++
		case r == '+' && i == 0:
		case r == ' ' || r == '-' || r == '.' || r == '(' || r == ')':
		default:
			return false
		}
	}
	return digits >= 6 && digits <= 15
}
