package me

import (
	"context"
	"sort"

	"github.com/google/uuid"

	"github.com/venueplatform/venue/ent"
	"github.com/venueplatform/venue/ent/featureprovisioning"
	"github.com/venueplatform/venue/ent/member"
	"github.com/venueplatform/venue/internal/viewer"
)

// Feature is one module flag of a venue.
type Feature struct {
	Enabled bool
	// Source is where the flag comes from: "venue" (its provisioning).
	Source string
	// Tier is the venue's plan.
	Tier string
}

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
	vctx := viewer.NewContext(ctx, viewer.Public{Org: id})
	o, err := s.client.Organization.Get(vctx, id)
	if err != nil {
		return nil, err
	}
	fp, err := s.client.FeatureProvisioning.Query().Where(featureprovisioning.OrganizationID(id)).Only(vctx)
	if ent.IsNotFound(err) {
		return out, nil
	}
	if err != nil {
		return nil, err
	}
	keys := make([]string, 0, len(fp.Modules))
	for k := range fp.Modules {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		out[k] = Feature{Enabled: fp.Modules[k], Source: "venue", Tier: string(o.Plan)}
	}
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
