package handlers

import (
	"context"

	"github.com/venueplatform/venue/ent"
	"github.com/venueplatform/venue/internal/appointments"
	api "github.com/venueplatform/venue/internal/gen/api"
)

func shiftOut(s *ent.StaffShift) api.StaffShift {
	out := api.StaffShift{ID: s.ID, Staff: api.NamedRef{ID: s.StaffID}, Location: api.NilNamedRef{Null: true},
		StartTime: s.StartsAt.UTC(), EndTime: s.EndsAt.UTC(), Note: s.Note}
	if p := s.Edges.Staff; p != nil {
		out.Staff.Name = fullName(p.FirstName, p.LastName)
	}
	if l := s.Edges.Location; l != nil {
		out.Location = api.NewNilNamedRef(api.NamedRef{ID: l.ID, Name: l.Name})
	}
	return out
}

// ListStaffShifts implements listStaffShifts.
func (h *Handler) ListStaffShifts(ctx context.Context, p api.ListStaffShiftsParams) (*api.StaffShiftListResponse, error) {
	if err := appointments.Authorize(ctx, appointments.PermStaffView); err != nil {
		return nil, err
	}
	rows, err := appointments.Shifts(ctx, h.client, p.From, p.To, optUUID(p.StaffID))
	if err != nil {
		return nil, err
	}
	if len(rows) > appointments.MaxShiftsListed {
		rows = rows[:appointments.MaxShiftsListed]
	}
	out := &api.StaffShiftListResponse{Data: make([]api.StaffShift, 0, len(rows))}
	for _, s := range rows {
		out.Data = append(out.Data, shiftOut(s))
	}
	return out, nil
}

// CreateStaffShift implements createStaffShift.
func (h *Handler) CreateStaffShift(ctx context.Context, req *api.StaffShiftCreateRequest, _ api.CreateStaffShiftParams) (*api.StaffShiftResponse, error) {
	if err := appointments.Authorize(ctx, appointments.PermBookingsManage); err != nil {
		return nil, err
	}
	s, err := appointments.CreateShift(ctx, h.client, appointments.NewShift{StaffID: req.StaffID,
		LocationID: optUUID(req.LocationID), Start: req.StartTime, End: req.EndTime, Note: req.Note.Or("")})
	if err != nil {
		return nil, err
	}
	return &api.StaffShiftResponse{Data: shiftOut(s)}, nil
}

// DeleteStaffShift implements deleteStaffShift.
func (h *Handler) DeleteStaffShift(ctx context.Context, p api.DeleteStaffShiftParams) error {
	if err := appointments.Authorize(ctx, appointments.PermBookingsManage); err != nil {
		return err
	}
	return appointments.DeleteShift(ctx, h.client, p.ShiftId)
}
