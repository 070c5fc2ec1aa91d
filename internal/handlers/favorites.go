package handlers

import (
	"context"

	api "github.com/venueplatform/venue/internal/gen/api"
)

// AddFavoriteVenue implements api.Handler.
func (h *Handler) AddFavoriteVenue(ctx context.Context, params api.AddFavoriteVenueParams) (*api.FavoriteVenueResponse, error) {
	if err := h.me.AddFavorite(ctx, params.OrganizationId); err != nil {
		return nil, err
	}
	return &api.FavoriteVenueResponse{Data: api.FavoriteVenue{OrganizationID: params.OrganizationId, Favorite: true}}, nil
}

// RemoveFavoriteVenue implements api.Handler.
func (h *Handler) RemoveFavoriteVenue(ctx context.Context, params api.RemoveFavoriteVenueParams) (*api.FavoriteVenueResponse, error) {
	if err := h.me.RemoveFavorite(ctx, params.OrganizationId); err != nil {
		return nil, err
	}
	return &api.FavoriteVenueResponse{Data: api.FavoriteVenue{OrganizationID: params.OrganizationId, Favorite: false}}, nil
}

// GetVenueAffinities implements api.Handler.
func (h *Handler) GetVenueAffinities(ctx context.Context) (*api.VenueAffinityResponse, error) {
	list, err := h.me.Affinities(ctx)
	if err != nil {
		return nil, err
	}
	data := make([]api.VenueAffinity, len(list))
	for i, a := range list {
		data[i] = api.VenueAffinity{
			OrganizationID: a.OrganizationID, Slug: a.Slug, Name: a.Name, City: a.City, Score: a.Score,
			Favorite: a.Favorite, ActivePasses: a.ActivePasses, RecentBookings: a.RecentBookings, Member: a.Member,
			RecentAppointments: a.RecentAppointments,
		}
	}
	return &api.VenueAffinityResponse{Data: data, Meta: api.ListMeta{Total: len(data)}}, nil
}
