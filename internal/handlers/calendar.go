package handlers

import (
	"context"

	api "github.com/venueplatform/venue/internal/gen/api"
	"github.com/venueplatform/venue/internal/schedule"
)

// GetCalendar implements getCalendar: the unified feed, classes in this
// version.
func (h *Handler) GetCalendar(ctx context.Context, p api.GetCalendarParams) (*api.CalendarResponse, error) {
	if err := schedule.Authorize(ctx, schedule.AccessRead); err != nil {
		return nil, err
	}
	v, err := schedule.LoadVenue(ctx, h.client)
	if err != nil {
		return nil, err
	}
	now := h.now()
	r, err := schedule.ParseRange("start", p.Start.Value, "end", p.End.Value, v.Today(now), schedule.MaxCalendarDays)
	if err != nil {
		return nil, err
	}
	items, truncated, err := schedule.Calendar(ctx, h.client, v, r, now)
	if err != nil {
		return nil, err
	}
	data := make([]api.CalendarItem, len(items))
	for i, it := range items {
		data[i] = calendarItem(it)
	}
	return &api.CalendarResponse{Data: data, Meta: api.CalendarMeta{Start: r.From, End: r.To, Timezone: v.Org.Timezone,
		Kinds: []string{schedule.CalendarKindClass}, Total: len(data), Truncated: truncated}}, nil
}

func calendarItem(it schedule.CalendarItem) api.CalendarItem {
	out := api.CalendarItem{Kind: it.Kind, ID: it.ID, StartTime: it.Start.UTC(), EndTime: it.End.UTC(), People: []api.CalendarPerson{}}
	if r := it.Class; r != nil {
		c := r.Class
		var ct api.NamedRef
		var in api.NilNamedRef
		ct, in, out.Location, out.Room = classRefs(*r)
		out.Title, out.Status = ct.Name, string(c.Status)
		if ref, ok := in.Get(); ok {
			out.People = append(out.People, api.CalendarPerson{ID: ref.ID, Name: ref.Name, Role: "instructor"})
		}
		out.Class.SetTo(api.CalendarClass{ClassType: ct, Capacity: c.Capacity, BookedCount: c.BookedCount,
			WaitlistCount: c.WaitlistCount, Online: c.Online, Listed: c.Listed})
	}
	return out
}
