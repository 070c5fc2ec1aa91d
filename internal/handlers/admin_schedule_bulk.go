package handlers

import (
	"context"

	"github.com/google/uuid"

	"github.com/venueplatform/venue/internal/apperr"
	"github.com/venueplatform/venue/internal/concurrency"
	api "github.com/venueplatform/venue/internal/gen/api"
	"github.com/venueplatform/venue/internal/notify"
	"github.com/venueplatform/venue/internal/schedule"
)

// BulkEditAdminSchedule implements bulkEditAdminSchedule.
func (h *Handler) BulkEditAdminSchedule(ctx context.Context, req *api.AdminScheduleBulkEditRequest, _ api.BulkEditAdminScheduleParams) (*api.AdminScheduleBulkResponse, error) {
	if err := schedule.Authorize(ctx, schedule.AccessWrite); err != nil {
		return nil, err
	}
	patch := schedule.Patch{Notify: notifyRequest(req.Notify)}
	if s, ok := req.Set.Get(); ok {
		if s.RoomID.Set {
			patch.SetRoom, patch.RoomID = true, &s.RoomID.Value
		}
		if s.Capacity.Set {
			patch.Capacity = &s.Capacity.Value
		}
		if s.InstructorID.Set {
			patch.SetInstructor, patch.InstructorID = true, &s.InstructorID.Value
		}
		if s.ClassTypeID.Set {
			patch.ClassTypeID = &s.ClassTypeID.Value
		}
	}
	if t, ok := req.Time.Get(); ok {
		cc, err := h.clockChange(ctx, t)
		if err != nil {
			return nil, err
		}
		patch.Clock = cc
	}
	tokens := map[uuid.UUID]concurrency.Token{}
	for k, v := range req.ExpectedUpdatedAt.Value {
		id, err := uuid.Parse(k)
		if err != nil {
			return nil, apperr.Validation("expected_updated_at", "expected_updated_at keys are class ids")
		}
		if tokens[id], err = concurrency.Parse(v); err != nil {
			return nil, err
		}
	}
	res, err := schedule.BulkEdit(ctx, h.client, req.InstanceIds, patch, tokens, h.now())
	if err != nil {
		return nil, err
	}
	return bulkResponse(res), nil
}

// clockChange reads a bulk edit's time object.
func (h *Handler) clockChange(ctx context.Context, t api.AdminScheduleBulkTime) (*schedule.ClockChange, error) {
	start, ok := schedule.ParseClock(t.Start)
	if !ok {
		return nil, apperr.Validation("time.start", "time.start must be HH:MM")
	}
	end, ok := schedule.ParseClock(t.End)
	if !ok {
		return nil, apperr.Validation("time.end", "time.end must be HH:MM")
	}
	if end <= start {
		return nil, apperr.Validation("time.end", "time.end must be after time.start")
	}
	cc := &schedule.ClockChange{Start: start, End: end}
	if t.Timezone.Set {
		loc, err := schedule.Location(t.Timezone.Value)
		if err != nil || t.Timezone.Value == "" || t.Timezone.Value == "Local" {
			return nil, apperr.Validation("time.timezone", "time.timezone must be an IANA time zone")
		}
		cc.Loc = loc
		return cc, nil
	}
	v, err := schedule.LoadVenue(ctx, h.client)
	if err != nil {
		return nil, err
	}
	cc.Loc = v.Loc
	return cc, nil
}

// BulkCancelAdminSchedule implements bulkCancelAdminSchedule.
func (h *Handler) BulkCancelAdminSchedule(ctx context.Context, req *api.AdminScheduleBulkCancelRequest, _ api.BulkCancelAdminScheduleParams) (*api.AdminScheduleBulkResponse, error) {
	if err := schedule.Authorize(ctx, schedule.AccessCancel); err != nil {
		return nil, err
	}
	res, err := schedule.BulkCancel(ctx, h.client, req.InstanceIds, req.Reason.Value, notifyRequest(req.Notify), h.now())
	if err != nil {
		return nil, err
	}
	return bulkResponse(res), nil
}

// AdminScheduleNotificationAvailability implements adminScheduleNotificationAvailability.
func (h *Handler) AdminScheduleNotificationAvailability(ctx context.Context, req *api.AdminScheduleAvailabilityRequest) (*api.AdminScheduleAvailabilityResponse, error) {
	if err := schedule.Authorize(ctx, schedule.AccessRead); err != nil {
		return nil, err
	}
	if err := schedule.CheckIDs(ctx, h.client, req.InstanceIds, schedule.MaxAvailability, "instance_ids"); err != nil {
		return nil, err
	}
	action := notify.Action(req.Action)
	av := h.availability(ctx, req.InstanceIds, action)
	out := api.AdminScheduleAvailability{Action: req.Action, Items: make([]api.AdminScheduleAvailabilityItem, len(req.InstanceIds))}
	for i, id := range req.InstanceIds {
		out.Items[i] = api.AdminScheduleAvailabilityItem{ID: id, Availability: actionAvailability(av[id][action])}
	}
	return &api.AdminScheduleAvailabilityResponse{Data: out}, nil
}
