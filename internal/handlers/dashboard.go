package handlers

import (
	"context"

	"github.com/google/uuid"

	"github.com/venueplatform/venue/internal/concurrency"
	api "github.com/venueplatform/venue/internal/gen/api"
	"github.com/venueplatform/venue/internal/schedule"
)

// GetAdminDashboardToday implements getAdminDashboardToday: the class
// timeline of the venue-local today.
func (h *Handler) GetAdminDashboardToday(ctx context.Context, p api.GetAdminDashboardTodayParams) (*api.DashboardTodayResponse, error) {
	if err := schedule.Authorize(ctx, schedule.AccessRead); err != nil {
		return nil, err
	}
	v, err := schedule.LoadVenue(ctx, h.client)
	if err != nil {
		return nil, err
	}
	var loc *uuid.UUID
	if p.LocationID.Set {
		loc = &p.LocationID.Value
	}
	t, err := schedule.TodayTimeline(ctx, h.client, v, loc, h.now())
	if err != nil {
		return nil, err
	}
	out := api.DashboardToday{Date: t.Date, Timezone: v.Org.Timezone, Classes: make([]api.DashboardTimelineClass, len(t.Rows)),
		Totals: api.DashboardTodayTotals{Classes: t.Totals.Classes, Cancelled: t.Totals.Cancelled, Capacity: t.Totals.Capacity,
			Booked: t.Totals.Booked, Waitlisted: t.Totals.Waitlisted, CheckedIn: t.Totals.CheckedIn}}
	for i, r := range t.Rows {
		c := r.Class
		item := api.DashboardTimelineClass{ID: c.ID, StartTime: c.StartTime.UTC(), EndTime: c.EndTime.UTC(),
			Status: api.ClassStatus(c.Status), Capacity: c.Capacity, BookedCount: c.BookedCount,
			WaitlistCount: c.WaitlistCount, CheckedInCount: r.CheckedIn, UpdatedAt: concurrency.Format(c.UpdatedAt)}
		item.ClassType, item.Instructor, item.Location, item.Room = classRefs(r)
		out.Classes[i] = item
	}
	return &api.DashboardTodayResponse{Data: out}, nil
}
