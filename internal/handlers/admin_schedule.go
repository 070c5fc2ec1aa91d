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

// ListAdminSchedule implements listAdminSchedule: the venue's classes for
// staff, with notification availability within its window and row limits.
func (h *Handler) ListAdminSchedule(ctx context.Context, p api.ListAdminScheduleParams) (*api.AdminScheduleListResponse, error) {
	if err := schedule.Authorize(ctx, schedule.AccessRead); err != nil {
		return nil, err
	}
	historical := p.IncludeHistorical.Value
	if historical {
		if err := schedule.RequireHistory(ctx); err != nil {
			return nil, err
		}
	}
	v, err := schedule.LoadVenue(ctx, h.client)
	if err != nil {
		return nil, err
	}
	now := h.now()
	r, err := schedule.ParseRange("start_date", p.StartDate.Value, "end_date", p.EndDate.Value, v.Today(now), schedule.MaxStaffListDays)
	if err != nil {
		return nil, err
	}
	lp := schedule.StaffListParams{Range: r, IncludeHistorical: historical, Now: now}
	if p.LocationID.Set {
		lp.LocationID = &p.LocationID.Value
	}
	res, err := schedule.StaffList(ctx, h.client, v, lp)
	if err != nil {
		return nil, err
	}
	meta := api.AdminScheduleListMeta{StartDate: r.From, EndDate: r.To, Timezone: v.Org.Timezone,
		Total: len(res.Rows), Truncated: res.Truncated, IncludeHistorical: historical,
		HistoricalExcluded: res.HistoricalExcluded, NotificationAvailability: api.AdminScheduleListMetaNotificationAvailabilityNotRequested}
	data := make([]api.AdminScheduleRow, len(res.Rows))
	for i, row := range res.Rows {
		data[i] = adminRow(row)
	}
	if p.Include.Set {
		switch {
		case r.Days() > schedule.AvailabilityMaxDays:
			meta.NotificationAvailability = api.AdminScheduleListMetaNotificationAvailabilityOmitted
			meta.NotificationAvailabilityOmittedReason.SetTo(api.AdminScheduleListMetaNotificationAvailabilityOmittedReasonWindowTooWide)
		case len(res.Rows) > schedule.AvailabilityMaxRows:
			meta.NotificationAvailability = api.AdminScheduleListMetaNotificationAvailabilityOmitted
			meta.NotificationAvailabilityOmittedReason.SetTo(api.AdminScheduleListMetaNotificationAvailabilityOmittedReasonTooManyRows)
		default:
			meta.NotificationAvailability = api.AdminScheduleListMetaNotificationAvailabilityIncluded
			ids := make([]uuid.UUID, len(res.Rows))
			for i, row := range res.Rows {
				ids[i] = row.Class.ID
			}
			av := h.availability(ctx, ids, schedule.Actions...)
			for i := range data {
				data[i].NotificationAvailability.SetTo(availabilityByAction(av[data[i].ID]))
			}
		}
	}
	return &api.AdminScheduleListResponse{Data: data, Meta: meta}, nil
}

// availability computes notification availability; a failure answers
// availability_error entries instead of failing the read.
func (h *Handler) availability(ctx context.Context, ids []uuid.UUID, actions ...notify.Action) map[uuid.UUID]map[notify.Action]notify.ActionAvailability {
	av, err := notify.Availability(ctx, h.client, ids, actions...)
	if err == nil {
		return av
	}
	h.log.WarnContext(ctx, "notification availability failed", "error", err)
	out := make(map[uuid.UUID]map[notify.Action]notify.ActionAvailability, len(ids))
	for _, id := range ids {
		out[id] = map[notify.Action]notify.ActionAvailability{}
		for _, a := range actions {
			out[id][a] = notify.AvailabilityError()
		}
	}
	return out
}

// GetAdminScheduleItem implements getAdminScheduleItem.
func (h *Handler) GetAdminScheduleItem(ctx context.Context, p api.GetAdminScheduleItemParams) (*api.AdminScheduleItemResponse, error) {
	if err := schedule.Authorize(ctx, schedule.AccessRead); err != nil {
		return nil, err
	}
	row, err := schedule.StaffGet(ctx, h.client, p.ID, h.now())
	if err != nil {
		return nil, err
	}
	data := adminRow(row)
	av := h.availability(ctx, []uuid.UUID{p.ID}, schedule.Actions...)
	data.NotificationAvailability.SetTo(availabilityByAction(av[p.ID]))
	return &api.AdminScheduleItemResponse{Data: data}, nil
}

// UpdateAdminScheduleItem implements updateAdminScheduleItem.
func (h *Handler) UpdateAdminScheduleItem(ctx context.Context, req *api.AdminScheduleUpdateRequest, p api.UpdateAdminScheduleItemParams) (*api.AdminScheduleWriteResponse, error) {
	if err := schedule.Authorize(ctx, schedule.AccessWrite); err != nil {
		return nil, err
	}
	tok, err := concurrency.Parse(req.ExpectedUpdatedAt.Value)
	if err != nil {
		return nil, err
	}
	patch := schedule.Patch{Expected: tok, Notify: notifyRequest(req.Notify)}
	if req.StartTime.Set {
		patch.StartTime = &req.StartTime.Value
	}
	if req.EndTime.Set {
		patch.EndTime = &req.EndTime.Value
	}
	if req.Capacity.Set {
		patch.Capacity = &req.Capacity.Value
	}
	if req.ClassTypeID.Set {
		patch.ClassTypeID = &req.ClassTypeID.Value
	}
	if req.InstructorID.Set {
		patch.SetInstructor = true
		if !req.InstructorID.Null {
			patch.InstructorID = &req.InstructorID.Value
		}
	}
	if req.RoomID.Set {
		patch.SetRoom = true
		if !req.RoomID.Null {
			patch.RoomID = &req.RoomID.Value
		}
	}
	if patch.Empty() {
		return nil, apperr.Validation("body", "name at least one field to change")
	}
	res, err := schedule.Update(ctx, h.client, p.ID, patch, h.now())
	if err != nil {
		return nil, err
	}
	return writeResponse(res), nil
}

// CancelAdminScheduleItem implements cancelAdminScheduleItem.
func (h *Handler) CancelAdminScheduleItem(ctx context.Context, req *api.AdminScheduleCancelRequest, p api.CancelAdminScheduleItemParams) (*api.AdminScheduleWriteResponse, error) {
	if err := schedule.Authorize(ctx, schedule.AccessCancel); err != nil {
		return nil, err
	}
	tok, err := optionalToken(req.ExpectedUpdatedAt)
	if err != nil {
		return nil, err
	}
	res, err := schedule.Cancel(ctx, h.client, p.ID, schedule.CancelParams{
		Expected: tok, Reason: req.Reason.Value, Notify: notifyRequest(req.Notify)}, h.now())
	if err != nil {
		return nil, err
	}
	return writeResponse(res), nil
}

// SubstituteAdminScheduleInstructor implements substituteAdminScheduleInstructor.
func (h *Handler) SubstituteAdminScheduleInstructor(ctx context.Context, req *api.AdminScheduleSubstituteRequest, p api.SubstituteAdminScheduleInstructorParams) (*api.AdminScheduleWriteResponse, error) {
	if err := schedule.Authorize(ctx, schedule.AccessWrite); err != nil {
		return nil, err
	}
	tok, err := optionalToken(req.ExpectedUpdatedAt)
	if err != nil {
		return nil, err
	}
	res, err := schedule.Substitute(ctx, h.client, p.ID, schedule.SubstituteParams{
		InstructorID: req.InstructorID, Expected: tok, Notify: notifyRequest(req.Notify)}, h.now())
	if err != nil {
		return nil, err
	}
	return writeResponse(res), nil
}

// optionalToken parses an optional expected_updated_at (zero when absent).
func optionalToken(s api.OptString) (concurrency.Token, error) {
	if !s.Set {
		return concurrency.Token{}, nil
	}
	return concurrency.Parse(s.Value)
}
