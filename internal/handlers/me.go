package handlers

import (
	"context"

	"github.com/google/uuid"

	api "github.com/venueplatform/venue/internal/gen/api"
	"github.com/venueplatform/venue/internal/me"
	"github.com/venueplatform/venue/internal/members"
)

// GetMe implements api.Handler.
func (h *Handler) GetMe(ctx context.Context) (*api.MeResponse, error) {
	p, err := h.me.Profile(ctx)
	if err != nil {
		return nil, err
	}
	return &api.MeResponse{Data: meOf(p)}, nil
}

// UpdateMe implements api.Handler.
func (h *Handler) UpdateMe(ctx context.Context, req *api.MeUpdateRequest) (*api.MeResponse, error) {
	p, err := h.me.Update(ctx, me.UpdateParams{
		FirstName: optPtr(req.FirstName), LastName: optPtr(req.LastName), Phone: optPtr(req.Phone),
		Country: optPtr(req.Country), City: optPtr(req.City),
		MarketingConsent: optBoolPtr(req.MarketingConsent),
	})
	if err != nil {
		return nil, err
	}
	return &api.MeResponse{Data: meOf(p)}, nil
}

// SetActiveOrganization implements api.Handler.
func (h *Handler) SetActiveOrganization(ctx context.Context, req *api.ActiveOrganizationRequest) (*api.ActiveOrganizationResponse, error) {
	w, err := h.me.SelectOrganization(ctx, req.OrganizationID)
	if err != nil {
		return nil, err
	}
	return &api.ActiveOrganizationResponse{Data: api.ActiveOrganization{
		OrganizationID: w.Org, Role: api.ActiveOrganizationRole(w.Role), Permissions: w.Permissions,
	}}, nil
}

// GetMyFeatures implements api.Handler.
func (h *Handler) GetMyFeatures(ctx context.Context, params api.GetMyFeaturesParams) (*api.FeaturesResponse, error) {
	var org *uuid.UUID
	if id, ok := params.XOrganizationID.Get(); ok {
		org = &id
	}
	fs, err := h.me.Features(ctx, org)
	if err != nil {
		return nil, err
	}
	data := api.FeaturesResponseData{}
	for k, f := range fs {
		af := api.Feature{Enabled: f.Enabled, Source: f.Source}
		if f.Tier != "" {
			af.Tier = api.NewOptString(f.Tier)
		}
		data[k] = af
	}
	return &api.FeaturesResponse{Data: data}, nil
}

// GetMeMinimal implements api.Handler.
func (h *Handler) GetMeMinimal(ctx context.Context) (*api.MeMinimalResponse, error) {
	m, err := h.me.Minimal(ctx)
	if err != nil {
		return nil, err
	}
	out := api.MeMinimal{LoggedIn: m.LoggedIn}
	out.FirstName.SetToNull()
	out.VenueID.SetToNull()
	out.PreferredBrandID.SetToNull()
	if m.LoggedIn {
		out.FirstName.SetTo(m.FirstName)
	}
	if m.VenueID != uuid.Nil {
		out.VenueID.SetTo(m.VenueID)
	}
	return &api.MeMinimalResponse{Data: out}, nil
}

// GetVenueJoin implements api.Handler.
func (h *Handler) GetVenueJoin(ctx context.Context, params api.GetVenueJoinParams) (*api.JoinStateResponse, error) {
	s, err := members.GetJoinState(ctx, h.client, params.Slug)
	if err != nil {
		return nil, err
	}
	out := api.JoinState{OrganizationID: s.Org.ID, Member: s.Member, CanJoin: s.CanJoin}
	if s.Reason != "" {
		out.Reason = api.NewOptJoinStateReason(api.JoinStateReason(s.Reason))
	}
	return &api.JoinStateResponse{Data: out}, nil
}

// JoinVenue implements api.Handler. The Idempotency-Key is enforced by the
// idempotency guard (server's registry).
func (h *Handler) JoinVenue(ctx context.Context, req *api.JoinRequest, params api.JoinVenueParams) (*api.JoinResponse, error) {
	r, err := members.Join(ctx, h.client, params.Slug, req.Consent)
	if err != nil {
		return nil, err
	}
	out := api.Join{
		OrganizationID: r.Org.ID, MemberID: r.Member.ID, Role: api.JoinRole(r.Member.Role),
		Status: api.JoinStatus(r.Member.Status), Created: r.Created,
	}
	if r.Member.ClientDisplayID != nil {
		out.ClientDisplayID = api.NewOptString(*r.Member.ClientDisplayID)
	}
	return &api.JoinResponse{Data: out}, nil
}

func meOf(p *me.Profile) api.Me {
	u := p.User
	out := api.Me{
		ID: u.ID, Email: u.Email, FirstName: u.FirstName, LastName: u.LastName,
		AccountState: string(u.AccountState), MarketingConsent: u.MarketingConsent, MfaEnabled: p.MFAEnabled,
		PermissionsScope: api.MePermissionsScopeActiveOrg, Memberships: []api.Membership{},
	}
	setOpt(&out.Phone, u.Phone)
	setOpt(&out.Country, u.Country)
	setOpt(&out.City, u.City)
	out.ActiveOrganizationID.SetToNull()
	if p.ActiveOrg != uuid.Nil {
		out.ActiveOrganizationID.SetTo(p.ActiveOrg)
	}
	for _, m := range p.Memberships {
		am := api.Membership{
			OrganizationID: m.Org.ID, OrganizationName: m.Org.Name, OrganizationSlug: m.Org.Slug,
			Role: api.MembershipRole(m.Member.Role), Status: api.MembershipStatus(m.Member.Status),
			Permissions: m.Permissions, Capabilities: m.Capabilities,
			IsActive: m.Active, IsIndividual: m.Individual, IsOwned: m.Owned, IsWorkplace: m.Workplace,
			IsRelationship: m.Relationship, IsSelectable: m.Selectable,
			WorkspaceGroup: api.MembershipWorkspaceGroup(m.Group),
		}
		if m.Member.ClientDisplayID != nil {
			am.ClientDisplayID = api.NewOptString(*m.Member.ClientDisplayID)
		}
		out.Memberships = append(out.Memberships, am)
	}
	return out
}

func setOpt(dst *api.OptString, v string) {
	if v != "" {
		*dst = api.NewOptString(v)
	}
}

func optPtr(o api.OptString) *string {
	if v, ok := o.Get(); ok {
		return &v
	}
	return nil
}

func optBoolPtr(o api.OptBool) *bool {
	if v, ok := o.Get(); ok {
		return &v
	}
	return nil
}
