package handlers

import (
	"context"

	api "github.com/venueplatform/venue/internal/gen/api"
	"github.com/venueplatform/venue/internal/schedule"
)

// CreateAdminScheduleClasses implements createAdminScheduleClasses.
func (h *Handler) CreateAdminScheduleClasses(ctx context.Context, req *api.AdminScheduleCreateRequest, _ api.CreateAdminScheduleClassesParams) (*api.AdminScheduleCreateResponse, error) {
	if err := schedule.Authorize(ctx, schedule.AccessWrite); err != nil {
		return nil, err
	}
	p := schedule.CreateParams{ClassTypeID: req.ClassTypeID, InstructorID: optUUID(req.InstructorID),
		LocationID: optUUID(req.LocationID), RoomID: optUUID(req.RoomID), Start: req.StartTime, End: req.EndTime,
		Capacity: req.Capacity, Online: req.Online.Or(false)}
	if d, ok := req.RepeatWeeklyUntil.Get(); ok {
		p.RepeatUntil = &d
	}
	rows, err := schedule.Create(ctx, h.client, p, h.now())
	if err != nil {
		return nil, err
	}
	out := &api.AdminScheduleCreateResponse{Data: make([]api.AdminScheduleRow, 0, len(rows))}
	for _, r := range rows {
		out.Data = append(out.Data, adminRow(r))
	}
	return out, nil
}
