package handlers

import (
	"context"

	"github.com/venueplatform/venue/internal/apperr"
	"github.com/venueplatform/venue/internal/appointments"
	api "github.com/venueplatform/venue/internal/gen/api"
	"github.com/venueplatform/venue/internal/media"
)

// mediaService is the configured file store of uploads; without one the
// image operations answer 503 UNAVAILABLE.
func (h *Handler) mediaService() (*media.Service, error) {
	if h.set.Media == nil {
		return nil, &apperr.Error{Status: 503, Code: "UNAVAILABLE", Message: "file uploads are not configured"}
	}
	return h.set.Media, nil
}

func imageWarnings(w []string) api.ServiceImageWriteWarnings {
	if len(w) == 0 {
		return nil
	}
	out := make(api.ServiceImageWriteWarnings, 0, len(w))
	for _, s := range w {
		out = append(out, api.ServiceImageWriteWarningsItem(s))
	}
	return out
}

// CreateServiceImageUpload implements createServiceImageUpload.
func (h *Handler) CreateServiceImageUpload(ctx context.Context, p api.CreateServiceImageUploadParams) (*api.ServiceImageUploadResponse, error) {
	if err := appointments.Authorize(ctx, appointments.PermBookingsManage); err != nil {
		return nil, err
	}
	m, err := h.mediaService()
	if err != nil {
		return nil, err
	}
	t, err := appointments.ServiceImageUpload(ctx, h.client, m, p.ID)
	if err != nil {
		return nil, err
	}
	return &api.ServiceImageUploadResponse{Data: api.ServiceImageUpload{UploadURL: media.UploadPrefix + t.Token,
		Method: api.ServiceImageUploadMethodPUT, Path: t.Path(), MaxBytes: media.MaxImageBytes,
		MinWidth: media.MinWidth, MinHeight: media.MinHeight, ExpiresAt: t.ExpiresAt}}, nil
}

// FinalizeServiceImage implements finalizeServiceImage.
func (h *Handler) FinalizeServiceImage(ctx context.Context, req *api.ServiceImageFinalizeRequest, p api.FinalizeServiceImageParams) (*api.ServiceImageResponse, error) {
	if err := appointments.Authorize(ctx, appointments.PermBookingsManage); err != nil {
		return nil, err
	}
	m, err := h.mediaService()
	if err != nil {
		return nil, err
	}
	res, err := appointments.FinalizeServiceImage(ctx, h.client, m, p.ID, req.Path)
	if err != nil {
		return nil, err
	}
	return &api.ServiceImageResponse{Data: api.ServiceImage{ImageUrl: res.URL, Width: api.NewOptInt(res.Width),
		Height: api.NewOptInt(res.Height), WriteWarnings: imageWarnings(res.Warnings)}}, nil
}

// DeleteServiceImage implements deleteServiceImage.
func (h *Handler) DeleteServiceImage(ctx context.Context, p api.DeleteServiceImageParams) (*api.ServiceImageDeleteResponse, error) {
	if err := appointments.Authorize(ctx, appointments.PermBookingsManage); err != nil {
		return nil, err
	}
	m, err := h.mediaService()
	if err != nil {
		return nil, err
	}
	w, err := appointments.DeleteServiceImage(ctx, h.client, m, p.ID)
	if err != nil {
		return nil, err
	}
	return &api.ServiceImageDeleteResponse{Data: api.ServiceImageDeleted{Ok: api.ServiceImageDeletedOkTrue, WriteWarnings: imageWarnings(w)}}, nil
}
