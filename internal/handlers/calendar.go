package handlers

import (
	"context"
	"slices"
	"strings"

	"github.com/venueplatform/venue/ent"
	"github.com/venueplatform/venue/internal/appointments"
	api "github.com/venueplatform/venue/internal/gen/api"
	"github.com/venueplatform/venue/internal/schedule"
)

// Calendar kinds the appointment book adds beside classes.
const (
	calendarKindAppointment = "appointment"
	calendarKindUnavailable = "unavailable"
	calendarKindShift       = "shift"
)

// GetCalendar implements getCalendar: the unified feed of classes,
// appointments, providers' unavailable time, staff shifts and calendar events
// (private events, streams, room rentals, maintenance). Each kind is one list
// merged here.
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
	start, end := r.Bounds(v.Loc)
	rows, err := appointments.Calendar(ctx, h.client, start, end, schedule.MaxCalendarItems)
	if err != nil {
		return nil, err
	}
	evs, names, err := h.calendarEvents(ctx, start, end)
	if err != nil {
		return nil, err
	}
	data := make([]api.CalendarItem, 0, len(items)+len(rows.Appointments)+len(rows.Unavailable)+len(rows.Shifts)+len(evs))
	for _, it := range items {
		data = append(data, calendarItem(it))
	}
	for _, ap := range rows.Appointments {
		data = append(data, calendarAppointment(ap))
	}
	for _, off := range rows.Unavailable {
		data = append(data, calendarUnavailable(off))
	}
	for _, sh := range rows.Shifts {
		data = append(data, calendarShift(sh))
	}
	for _, ev := range evs {
		data = append(data, calendarEventItem(ev, names))
	}
	slices.SortStableFunc(data, func(a, b api.CalendarItem) int {
		if c := a.StartTime.Compare(b.StartTime); c != 0 {
			return c
		}
		if c := strings.Compare(a.Kind, b.Kind); c != 0 {
			return c
		}
		return strings.Compare(a.ID.String(), b.ID.String())
	})
	if len(data) > schedule.MaxCalendarItems {
		data, truncated = data[:schedule.MaxCalendarItems], true
	}
	return &api.CalendarResponse{Data: data, Meta: api.CalendarMeta{Start: r.From, End: r.To, Timezone: v.Org.Timezone,
		Kinds: append([]string{schedule.CalendarKindClass, calendarKindAppointment, calendarKindUnavailable, calendarKindShift}, schedule.CalendarEventKinds...),
		Total: len(data), Truncated: truncated}}, nil
}

// calendarAppointment is ap (loaded with its service, variant, provider,
// location and room) as a calendar item.
func calendarAppointment(ap *ent.Appointment) api.CalendarItem {
	out := api.CalendarItem{Kind: calendarKindAppointment, ID: ap.ID, StartTime: ap.StartsAt.UTC(), EndTime: ap.EndsAt.UTC(),
		Status: string(ap.Status), People: []api.CalendarPerson{}}
	body := api.CalendarAppointment{MemberID: ap.MemberID, VisitID: nilUUIDOf(ap.VisitID), PriceMinor: ap.PriceMinor,
		Currency: ap.Currency, Payment: api.CalendarAppointmentPayment(ap.Payment),
		BookedVia: api.CalendarAppointmentBookedVia(ap.BookedVia), Variant: api.NilNamedRef{Null: true}}
	if s := ap.Edges.Service; s != nil {
		body.Service = api.NamedRef{ID: s.ID, Name: s.Name}
		out.Title = s.Name
	}
	if vr := ap.Edges.Variant; vr != nil {
		body.Variant = api.NewNilNamedRef(api.NamedRef{ID: vr.ID, Name: vr.Name})
		out.Title += " (" + vr.Name + ")"
	}
	if p := ap.Edges.Provider; p != nil {
		out.People = append(out.People, api.CalendarPerson{ID: p.ID, Name: fullName(p.FirstName, p.LastName), Role: "provider"})
	}
	out.Location, out.Room = api.NilNamedRef{Null: true}, api.NilNamedRef{Null: true}
	if l := ap.Edges.Location; l != nil {
		out.Location = api.NewNilNamedRef(api.NamedRef{ID: l.ID, Name: l.Name})
	}
	if r := ap.Edges.Room; r != nil {
		out.Room = api.NewNilNamedRef(api.NamedRef{ID: r.ID, Name: r.Name})
	}
	out.Appointment.SetTo(body)
	return out
}

// calendarUnavailable is a provider's time off (loaded with the provider) as
// a calendar item.
func calendarUnavailable(off *ent.ProviderTimeOff) api.CalendarItem {
	out := api.CalendarItem{Kind: calendarKindUnavailable, ID: off.ID, StartTime: off.StartsAt.UTC(),
		EndTime: off.EndsAt.UTC(), Status: calendarKindUnavailable, Title: "Unavailable",
		Location: api.NilNamedRef{Null: true}, Room: api.NilNamedRef{Null: true}, People: []api.CalendarPerson{}}
	body := api.CalendarUnavailable{Reason: off.Reason, Provider: api.NamedRef{ID: off.ProviderID}}
	if p := off.Edges.Provider; p != nil {
		body.Provider.Name = fullName(p.FirstName, p.LastName)
		out.People = append(out.People, api.CalendarPerson{ID: p.ID, Name: body.Provider.Name, Role: "provider"})
		out.Title = body.Provider.Name + " unavailable"
	}
	out.Unavailable.SetTo(body)
	return out
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

// calendarShift is a member of staff's shift (loaded with the person and
// the location) as a calendar item.
func calendarShift(sh *ent.StaffShift) api.CalendarItem {
	s := shiftOut(sh)
	out := api.CalendarItem{Kind: calendarKindShift, ID: sh.ID, StartTime: s.StartTime, EndTime: s.EndTime,
		Status: "scheduled", Title: "Shift", Location: s.Location, Room: api.NilNamedRef{Null: true},
		People: []api.CalendarPerson{}}
	if s.Staff.Name != "" {
		out.Title = s.Staff.Name + " on shift"
		out.People = append(out.People, api.CalendarPerson{ID: s.Staff.ID, Name: s.Staff.Name, Role: "staff"})
	}
	out.Shift.SetTo(api.CalendarShift{Staff: s.Staff, Note: s.Note})
	return out
}
