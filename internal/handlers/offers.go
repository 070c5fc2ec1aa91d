package handlers

import (
	"context"

	"github.com/google/uuid"

	"github.com/venueplatform/venue/ent"
	"github.com/venueplatform/venue/internal/apperr"
	"github.com/venueplatform/venue/internal/catalogue"
	api "github.com/venueplatform/venue/internal/gen/api"
)

// ListVenueOffers implements listVenueOffers.
func (h *Handler) ListVenueOffers(ctx context.Context, p api.ListVenueOffersParams) (*api.OfferListResponse, error) {
	ctx, _, err := h.venueContext(ctx, p.Slug)
	if err != nil {
		return nil, err
	}
	list, err := catalogue.Offers(ctx, h.client, p.Surface.Or(""), optUUID(p.BrandID), h.now())
	if err != nil {
		return nil, err
	}
	data := make([]api.Offer, len(list))
	for i, o := range list {
		data[i] = offer(o)
	}
	return &api.OfferListResponse{Data: data, Meta: api.ListMeta{Total: len(data)}}, nil
}

// GetVenueOffer implements getVenueOffer.
func (h *Handler) GetVenueOffer(ctx context.Context, p api.GetVenueOfferParams) (*api.OfferResponse, error) {
	ctx, _, err := h.venueContext(ctx, p.Slug)
	if err != nil {
		return nil, err
	}
	o, err := catalogue.GetOffer(ctx, h.client, p.OfferId, string(p.Surface.Or(api.GetVenueOfferSurfacePublicLink)), h.now())
	if ent.IsNotFound(err) {
		return nil, apperr.NotFound("offer")
	}
	if err != nil {
		return nil, err
	}
	return &api.OfferResponse{Data: offer(o)}, nil
}

func offer(o catalogue.Offer) api.Offer {
	s := o.Sale
	ids := make([]uuid.UUID, len(s.Edges.ApplicablePassTypes))
	for i, pt := range s.Edges.ApplicablePassTypes {
		ids[i] = pt.ID
	}
	r := s.CommercialRule
	out := api.Offer{
		ID: s.ID, Name: s.Name, Status: api.OfferStatus(o.Status),
		StartsAt: s.StartsAt.UTC(), EndsAt: s.EndsAt.UTC(), ProductFamily: string(s.ProductFamily),
		Placements: append([]string{}, s.Placements...), ApplicablePassTypeIds: ids,
		CommercialRule: api.CommercialRule{
			Version: r.Version, Kind: r.Kind,
			Pricing:                         api.CommercialRulePricing{Mode: r.Pricing.Mode, Price: r.Pricing.Price},
			Currency:                        r.Currency,
			VatMode:                         r.VatMode,
			WaiveRegistrationFeePassTypeIds: append([]string{}, r.WaiveRegistrationFeePassTypeIDs...),
			Duration:                        api.CommercialRuleDuration{Mode: r.Duration.Mode, EndsAt: r.Duration.EndsAt},
			FollowingPrice:                  api.CommercialRuleFollowingPrice{Mode: r.FollowingPrice.Mode},
		},
		Presentation: api.OfferPresentation{
			Style:                 api.OfferPresentationStyle(s.Presentation.Style),
			ShowRemainingCapacity: s.Presentation.ShowRemainingCapacity,
			ShowTimeToEnd:         s.Presentation.ShowTimeToEnd,
		},
		Capacity: api.OfferCapacity{Claimed: s.ClaimedCount},
	}
	if s.CapacityMax != nil {
		out.Capacity.Maximum.SetTo(*s.CapacityMax)
		out.Capacity.Remaining.SetTo(*o.Remaining)
	} else {
		out.Capacity.Maximum.SetToNull()
		out.Capacity.Remaining.SetToNull()
	}
	return out
}
