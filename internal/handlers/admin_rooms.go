package handlers

import (
	"context"
	"errors"

	"github.com/venueplatform/venue/ent"
	"github.com/venueplatform/venue/internal/apperr"
	"github.com/venueplatform/venue/internal/appointments"
	api "github.com/venueplatform/venue/internal/gen/api"
	"github.com/venueplatform/venue/internal/gen/apient"
)

func adminRoom(r *ent.Room) api.AdminRoom {
	e := apient.Room(r)
	out := api.AdminRoom{ID: e.ID, Name: e.Name, Capacity: e.Capacity, RoomType: e.RoomType,
		LocationID: r.LocationID, IsActive: r.Active, FloorPlanURL: api.NilString{Null: true}}
	if r.FloorPlanURL != nil {
		out.FloorPlanURL = api.NewNilString(*r.FloorPlanURL)
	}
	return out
}

// ListAdminRooms implements listAdminRooms.
func (h *Handler) ListAdminRooms(ctx context.Context) (*api.AdminRoomListResponse, error) {
	if err := appointments.Authorize(ctx, appointments.PermSettingsBusiness); err != nil {
		return nil, err
	}
	rs, err := appointments.Rooms(ctx, h.client)
	if err != nil {
		return nil, err
	}
	return &api.AdminRoomListResponse{Data: apient.Map(rs, adminRoom)}, nil
}

// CreateAdminRoom implements createAdminRoom.
func (h *Handler) CreateAdminRoom(ctx context.Context, req *api.AdminRoomCreateRequest, _ api.CreateAdminRoomParams) (*api.AdminRoomResponse, error) {
	if err := appointments.Authorize(ctx, appointments.PermSettingsBusiness); err != nil {
		return nil, err
	}
	var r *ent.Room
	err := h.inTx(ctx, func(ctx context.Context, c *ent.Client) error {
		var err error
		r, err = appointments.CreateRoom(ctx, c, appointments.NewRoom{Name: req.Name, Capacity: req.Capacity,
			RoomType: req.RoomType.Or(""), LocationID: optUUID(req.LocationID)})
		return err
	})
	if err != nil {
		return nil, err
	}
	return &api.AdminRoomResponse{Data: adminRoom(r)}, nil
}

// GetAdminRoom implements getAdminRoom.
func (h *Handler) GetAdminRoom(ctx context.Context, p api.GetAdminRoomParams) (*api.AdminRoomResponse, error) {
	if err := appointments.Authorize(ctx, appointments.PermSettingsBusiness); err != nil {
		return nil, err
	}
	r, err := appointments.RoomOf(ctx, h.client, p.RoomId)
	if err != nil {
		return nil, err
	}
	return &api.AdminRoomResponse{Data: adminRoom(r)}, nil
}

// UpdateAdminRoom implements updateAdminRoom. A partial outcome
// (ROOM_CAPACITY_PARTIAL) commits the room before it is answered.
func (h *Handler) UpdateAdminRoom(ctx context.Context, req *api.AdminRoomUpdateRequest, p api.UpdateAdminRoomParams) (*api.AdminRoomResponse, error) {
	if err := appointments.Authorize(ctx, appointments.PermSettingsBusiness); err != nil {
		return nil, err
	}
	patch := appointments.RoomPatch{Name: optValue(req.Name), Capacity: optValue(req.Capacity),
		RoomType: optValue(req.RoomType), IsActive: optValue(req.IsActive), ClearFloorPlan: req.FloorPlanURL.Set}
	var r *ent.Room
	var partial error
	err := h.inTx(ctx, func(ctx context.Context, c *ent.Client) error {
		var err error
		r, err = appointments.UpdateRoom(ctx, c, p.RoomId, patch, h.now())
		var ae *apperr.Error
		if errors.As(err, &ae) && ae.Code == appointments.CodeRoomCapacityPartial {
			partial, err = err, nil
		}
		return err
	})
	if err != nil {
		return nil, err
	}
	if partial != nil {
		return nil, partial
	}
	return &api.AdminRoomResponse{Data: adminRoom(r)}, nil
}
