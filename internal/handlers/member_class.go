package handlers

import (
	"context"
	"net/http"

	"github.com/venueplatform/venue/ent"
	"github.com/venueplatform/venue/internal/apperr"
	api "github.com/venueplatform/venue/internal/gen/api"
	"github.com/venueplatform/venue/internal/me"
	"github.com/venueplatform/venue/internal/schedule"
	"github.com/venueplatform/venue/internal/system"
	"github.com/venueplatform/venue/internal/viewer"
)

// GetMemberClass implements getMemberClass: a class of a venue the user is an
// active member of, read through the same schedule read as the public pages.
func (h *Handler) GetMemberClass(ctx context.Context, p api.GetMemberClassParams) (*api.ClassDetailResponse, error) {
	u, ok := viewer.UserFromContext(ctx)
	if !ok {
		return nil, apperr.Unauthorized("a user session is required")
	}
	active, err := me.ActiveRelationship(ctx, h.client, u.UserID, p.XOrganizationID)
	if err != nil {
		return nil, err
	}
	if !active {
		return nil, apperr.AccessDenied("not_a_member", "an active relationship with the venue is required")
	}
	row, err := schedule.Get(system.Elevate(ctx, "schedule.member_class_visitor", viewer.Public{Org: p.XOrganizationID}), h.client, p.ID, h.now())
	if ent.IsNotFound(err) {
		return nil, &apperr.Error{Status: http.StatusNotFound, Code: "CLASS_NOT_FOUND", Message: "class not found"}
	}
	if err != nil {
		return nil, err
	}
	return &api.ClassDetailResponse{Data: scheduleRow(row)}, nil
}
