package handlers

import (
	"context"

	"github.com/venueplatform/venue/internal/appointments"
	api "github.com/venueplatform/venue/internal/gen/api"
)

// ListStaffDirectory implements listStaffDirectory.
func (h *Handler) ListStaffDirectory(ctx context.Context, p api.ListStaffDirectoryParams) (*api.StaffDirectoryResponse, error) {
	if err := appointments.Authorize(ctx, appointments.PermStaffView); err != nil {
		return nil, err
	}
	var active *bool
	if v, ok := p.Active.Get(); ok {
		active = &v
	}
	list, truncated, err := appointments.Directory(ctx, h.client, active)
	if err != nil {
		return nil, err
	}
	out := &api.StaffDirectoryResponse{Data: make([]api.StaffDirectoryEntry, len(list)),
		Meta: api.StaffDirectoryMeta{Total: len(list), Truncated: truncated}}
	for i, e := range list {
		s := e.Staff
		out.Data[i] = api.StaffDirectoryEntry{ID: s.ID, Name: fullName(s.FirstName, s.LastName), FirstName: s.FirstName,
			LastName: s.LastName, Email: s.Email, PhotoURL: s.PhotoURL, Active: s.Active, ServiceCount: e.Services,
			HasWorkingHours: e.HasWorkingHours}
	}
	return out, nil
}
