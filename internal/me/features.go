package me

import (
	"context"

	"github.com/google/uuid"

	"github.com/venueplatform/venue/ent"
	"github.com/venueplatform/venue/ent/featureprovisioning"
	"github.com/venueplatform/venue/ent/member"
	"github.com/venueplatform/venue/internal/system"
	"github.com/venueplatform/venue/internal/viewer"
)

// Feature is one module flag of a venue.
type Feature struct {
	Enabled bool
	// Source is where the flag comes from: "venue" (set in its
	// provisioning) or "default" (the platform's default for a module the
	// venue never set).
	Source string
	// Tier is the venue's plan.
	Tier string
}

// defaultModules are the modules the platform acts on, with their state for
// a venue that never set them: e-mail notifications and booking inquiries
// are on, SMS and push notifications off (notify.ModuleEmail and friends,
// inquiries.ModuleKey).
var defaultModules = map[string]bool{
	"notifications_email": true,
	"notifications_sms":   false,
	"notifications_push":  false,
	"inquiries":           true,
}

// apiModule is the module key of the venue's API flag
// (feature_provisioning.api_enabled).
const apiModule = "api"

// Features returns the module flags of org (when non-nil, a venue the user
// has an active relationship with) or else of the session's active
// organization; an empty map when there is neither.
func (s *Service) Features(ctx context.Context, org *uuid.UUID) (map[string]Feature, error) {
	_, u, err := Self(ctx)
	if err != nil {
		return nil, err
	}
	id := u.Org
	if org != nil {
		m, err := relationship(ctx, s.client, u.UserID, *org)
		if err != nil {
			return nil, err
		}
		if m.Status != member.StatusActive {
			return nil, relationshipNotFound
		}
		id = *org
	}
	out := map[string]Feature{}
	if id == uuid.Nil {
		return out, nil
	}
	// The venue's own flags, read as a visitor of that venue.
	vctx := system.Elevate(ctx, "me.features_visitor", viewer.Public{Org: id})
	o, err := s.client.Organization.Get(vctx, id)
	if err != nil {
		return nil, err
	}
	tier := string(o.Plan)
	for k, on := range defaultModules {
		out[k] = Feature{Enabled: on, Source: "default", Tier: tier}
	}
	fp, err := s.client.FeatureProvisioning.Query().Where(featureprovisioning.OrganizationID(id)).Only(vctx)
	if ent.IsNotFound(err) {
		return out, nil
	}
	if err != nil {
		return nil, err
	}
	for k, on := range fp.Modules {
		out[k] = Feature{Enabled: on, Source: "venue", Tier: tier}
	}
	out[apiModule] = Feature{Enabled: fp.APIEnabled, Source: "venue", Tier: tier}
	return out, nil
}

// Minimal is the cross-origin sign-in state.
type Minimal struct {
	LoggedIn  bool
	FirstName string
	VenueID   uuid.UUID
}

// Minimal answers the sign-in state of ctx: logged out without a user
// viewer.
func (s *Service) Minimal(ctx context.Context) (Minimal, error) {
	sctx, u, err := Self(ctx)
	if err != nil {
		return Minimal{}, nil
	}
	usr, err := s.client.User.Get(sctx, u.UserID)
	if ent.IsNotFound(err) {
		return Minimal{}, nil
	}
	if err != nil {
		return Minimal{}, err
	}
	return Minimal{LoggedIn: true, FirstName: usr.FirstName, VenueID: u.Org}, nil
}
