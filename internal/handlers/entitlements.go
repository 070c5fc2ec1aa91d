package handlers

import (
	"context"
	"net/http"

	"github.com/google/uuid"

	"github.com/venueplatform/venue/internal/apperr"
	"github.com/venueplatform/venue/internal/booking"
	api "github.com/venueplatform/venue/internal/gen/api"
)

func invalidBrandScope(parameter, message string) *apperr.Error {
	return (&apperr.Error{Status: http.StatusBadRequest, Code: "INVALID_BRAND_SCOPE", Message: message}).With("parameter", parameter)
}

// scopeID parses an optional brand or class scope id.
func scopeID(name string, v api.OptString) (*uuid.UUID, error) {
	s, ok := v.Get()
	if !ok {
		return nil, nil
	}
	id, err := uuid.Parse(s)
	if err != nil {
		return nil, invalidBrandScope(name, name+" must be a UUID")
	}
	return &id, nil
}

// GetMyEntitlements implements getMyEntitlements.
func (h *Handler) GetMyEntitlements(ctx context.Context, p api.GetMyEntitlementsParams) (*api.EntitlementsResponse, error) {
	brandID, err := scopeID("brand_id", p.BrandID)
	if err != nil {
		return nil, err
	}
	classID, err := scopeID("class_instance_id", p.ClassInstanceID)
	if err != nil {
		return nil, err
	}
	if brandID != nil && classID != nil {
		return nil, invalidBrandScope("class_instance_id", "brand_id and class_instance_id cannot be combined")
	}
	actx, a, err := booking.AsMember(ctx, h.client, p.OrganizationID)
	if err != nil {
		return nil, err
	}
	e, err := booking.GetEntitlements(actx, h.client, a, brandID, classID, h.now())
	if err != nil {
		return nil, err
	}
	out := api.Entitlements{
		OrganizationID: p.OrganizationID, AsOf: e.AsOf, BrandScope: e.BrandScope,
		CanBookPhysical: e.CanBookPhysical, CanWatchOnline: e.CanWatchOnline, OnlineOnly: e.OnlineOnly,
		ActivePasses: make([]api.EntitlementPass, 0, len(e.Passes)),
	}
	if e.AllClassTypes {
		out.BookableClassTypeIds = api.NewEntitlementsBookableClassTypeIds1EntitlementsBookableClassTypeIds(api.EntitlementsBookableClassTypeIds1All)
	} else {
		out.BookableClassTypeIds = api.NewUUIDArrayEntitlementsBookableClassTypeIds(e.ClassTypeIDs)
	}
	for _, ps := range e.Passes {
		pt := ps.Edges.PassType
		ep := api.EntitlementPass{
			ID: ps.ID, PassTypeSlug: pt.Slug, Name: pt.Name, Category: string(pt.Category),
			Grants:    api.EntitlementGrants{InPerson: pt.GrantsInPerson, Online: pt.GrantsOnline},
			ValidFrom: ps.ValidFrom, ValidTo: api.NilDate{Null: true}, ClipsRemaining: bkNilInt(ps.ClipsRemaining),
			AllowedBrandIds: booking.AllowedBrands(ps),
		}
		if ps.ValidTo != nil {
			ep.ValidTo = api.NewNilDate(*ps.ValidTo)
		}
		out.ActivePasses = append(out.ActivePasses, ep)
	}
	return &api.EntitlementsResponse{Data: out}, nil
}
