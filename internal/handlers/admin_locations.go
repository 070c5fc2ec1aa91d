package handlers

import (
	"context"

	"github.com/venueplatform/venue/ent"
	"github.com/venueplatform/venue/internal/appointments"
	api "github.com/venueplatform/venue/internal/gen/api"
	"github.com/venueplatform/venue/internal/gen/apient"
)

// adminLocation is l (loaded with its hours and photos) for staff.
func adminLocation(l *ent.Location) api.AdminLocation {
	out := api.AdminLocation{ID: l.ID, Name: l.Name, Address: l.Address, City: l.City, Active: l.Active,
		ImageURL: api.NilString{Null: true}, GalleryUrls: make([]string, 0, len(l.Edges.Photos)),
		OpeningHours: apient.Map(l.Edges.OpeningHours, apient.OpeningHours), UpdatedAt: l.UpdatedAt.UTC()}
	if l.ImageURL != nil {
		out.ImageURL = api.NewNilString(*l.ImageURL)
	}
	for _, p := range l.Edges.Photos {
		out.GalleryUrls = append(out.GalleryUrls, p.URL)
	}
	return out
}

// ListAdminLocations implements listAdminLocations.
func (h *Handler) ListAdminLocations(ctx context.Context) (*api.AdminLocationListResponse, error) {
	if err := appointments.AuthorizeAny(ctx, appointments.PermSettingsBusiness, appointments.PermLocationsManage); err != nil {
		return nil, err
	}
	ls, err := appointments.Locations(ctx, h.client)
	if err != nil {
		return nil, err
	}
	return &api.AdminLocationListResponse{Data: apient.Map(ls, adminLocation)}, nil
}

// GetAdminLocation implements getAdminLocation.
func (h *Handler) GetAdminLocation(ctx context.Context, p api.GetAdminLocationParams) (*api.AdminLocationResponse, error) {
	if err := appointments.AuthorizeAny(ctx, appointments.PermSettingsBusiness, appointments.PermLocationsManage); err != nil {
		return nil, err
	}
	l, err := appointments.LocationOf(ctx, h.client, p.LocationId)
	if err != nil {
		return nil, err
	}
	return &api.AdminLocationResponse{Data: adminLocation(l)}, nil
}

// UpdateAdminLocation implements updateAdminLocation.
func (h *Handler) UpdateAdminLocation(ctx context.Context, req *api.AdminLocationUpdateRequest, p api.UpdateAdminLocationParams) (*api.AdminLocationResponse, error) {
	if err := appointments.Authorize(ctx, appointments.PermLocationsManage); err != nil {
		return nil, err
	}
	var patch appointments.LocationPatch
	if img, ok := req.ImageURL.Get(); ok {
		s := img.String()
		patch.ImageURL, patch.SetImage = &s, true
	} else if req.ImageURL.Set && req.ImageURL.Null {
		patch.SetImage = true
	}
	if req.GalleryUrls != nil {
		patch.SetGallery = true
		patch.GalleryURLs = make([]string, len(req.GalleryUrls))
		for i, u := range req.GalleryUrls {
			patch.GalleryURLs[i] = u.String()
		}
	}
	if req.OpeningHours != nil {
		patch.SetHours = true
		patch.OpeningHours = make([]appointments.DayHours, len(req.OpeningHours))
		for i, d := range req.OpeningHours {
			patch.OpeningHours[i] = appointments.DayHours{Weekday: d.Weekday, OpensAt: d.OpensAt.Value,
				ClosesAt: d.ClosesAt.Value, Closed: d.Closed.Value}
		}
	}
	if u, ok := req.RemoveGalleryURL.Get(); ok {
		s := u.String()
		patch.RemoveGallery = &s
	}
	var l *ent.Location
	err := h.inTx(ctx, func(ctx context.Context, c *ent.Client) error {
		var err error
		l, err = appointments.UpdateLocation(ctx, c, p.LocationId, patch)
		return err
	})
	if err != nil {
		return nil, err
	}
	return &api.AdminLocationResponse{Data: adminLocation(l)}, nil
}
