package appointments

import (
	"context"
	"fmt"
	"slices"
	"sort"
	"time"

	"github.com/google/uuid"

	"github.com/venueplatform/venue/ent"
	entappointment "github.com/venueplatform/venue/ent/appointment"
	"github.com/venueplatform/venue/ent/classinstance"
	"github.com/venueplatform/venue/ent/instructor"
	"github.com/venueplatform/venue/ent/providerhours"
	"github.com/venueplatform/venue/ent/providertimeoff"
	"github.com/venueplatform/venue/ent/service"
	"github.com/venueplatform/venue/ent/serviceprovider"
	"github.com/venueplatform/venue/ent/servicevariant"
	"github.com/venueplatform/venue/internal/apperr"
	"github.com/venueplatform/venue/internal/system"
)

// Holding are the appointment statuses that keep the provider's (and the
// room's) time: with pending_payment, the statuses of the database's
// exclusion constraint. A pending_payment appointment (an online checkout
// waiting for its payment) keeps the time only until its hold expires;
// availability treats an expired hold as free and a booking releases it
// (releaseExpiredHolds) before its insert.
var Holding = []entappointment.Status{
	entappointment.StatusBooked, entappointment.StatusCheckedIn, entappointment.StatusInProgress,
	entappointment.StatusCompleted, entappointment.StatusNoShow,
}

// MaxAvailabilityDays is the widest window one availability read computes.
const MaxAvailabilityDays = 62

// Query asks for the free start times of a service.
type Query struct {
	ServiceID  uuid.UUID
	VariantID  *uuid.UUID
	ProviderID *uuid.UUID // nil: any assigned provider
	LocationID *uuid.UUID
	// From and To are venue-local dates (any time of the day), To inclusive.
	From, To time.Time
	Now      time.Time
	// SelfService applies the venue's self-service cutoff (members).
	SelfService bool
	// Exclude is an appointment whose time counts as free (a reschedule's own).
	Exclude *uuid.UUID
	// ExcludeAll are further appointments whose time counts as free (a
	// visit's own, when the visit moves).
	ExcludeAll []uuid.UUID
}

// Candidate is an assigned provider with the duration and price they give
// the asked service (and variant).
type Candidate struct {
	Assignment *ent.ServiceProvider
	Provider   *ent.Instructor
	Duration   time.Duration
	PriceMinor int64
}

// Slot is one free start time and the providers free for it, in the order
// of the service's assignments (primary first, then sort order).
type Slot struct {
	Start, End time.Time
	Providers  []uuid.UUID
}

// Availability is the answer of an availability read.
type Availability struct {
	Service    *ent.Service
	Variant    *ent.ServiceVariant
	Candidates []Candidate
	Slots      []Slot
	Timezone   string
	Interval   time.Duration
}

// Candidate returns the candidate of provider id.
func (a *Availability) Candidate(id uuid.UUID) (Candidate, bool) {
	for _, c := range a.Candidates {
		if c.Provider.ID == id {
			return c, true
		}
	}
	return Candidate{}, false
}

// Find returns the slot starting at t.
func (a *Availability) Find(t time.Time) (Slot, bool) {
	i := sort.Search(len(a.Slots), func(i int) bool { return !a.Slots[i].Start.Before(t) })
	if i < len(a.Slots) && a.Slots[i].Start.Equal(t) {
		return a.Slots[i], true
	}
	return Slot{}, false
}

// Resolve reads the service, the variant and the providers a query may book,
// without computing slots.
func Resolve(ctx context.Context, client *ent.Client, q Query) (*ent.Service, *ent.ServiceVariant, []Candidate, error) {
	svc, err := client.Service.Query().Where(service.ID(q.ServiceID), service.IsActive(true)).Only(ctx)
	if ent.IsNotFound(err) {
		return nil, nil, nil, ErrServiceNotFound
	}
	if err != nil {
		return nil, nil, nil, fmt.Errorf("appointments: service: %w", err)
	}
	var variant *ent.ServiceVariant
	if q.VariantID != nil {
		variant, err = client.ServiceVariant.Query().Where(servicevariant.ID(*q.VariantID),
			servicevariant.ServiceID(svc.ID), servicevariant.IsActive(true)).Only(ctx)
		if ent.IsNotFound(err) {
			return nil, nil, nil, apperr.NotFound("variant")
		}
		if err != nil {
			return nil, nil, nil, fmt.Errorf("appointments: variant: %w", err)
		}
	}
	aq := client.ServiceProvider.Query().Where(serviceprovider.ServiceID(svc.ID), serviceprovider.IsActive(true),
		serviceprovider.HasProviderWith(instructor.Active(true))).WithProvider().
		Order(ent.Desc(serviceprovider.FieldIsPrimary), ent.Asc(serviceprovider.FieldSortOrder), ent.Asc(serviceprovider.FieldID))
	if q.ProviderID != nil {
		if _, err := client.Instructor.Get(ctx, *q.ProviderID); ent.IsNotFound(err) {
			return nil, nil, nil, ErrProviderNotFound
		} else if err != nil {
			return nil, nil, nil, fmt.Errorf("appointments: provider: %w", err)
		}
		aq.Where(serviceprovider.ProviderID(*q.ProviderID))
	}
	rows, err := aq.All(ctx)
	if err != nil {
		return nil, nil, nil, fmt.Errorf("appointments: assignments: %w", err)
	}
	if q.ProviderID != nil && len(rows) == 0 {
		return nil, nil, nil, unprocessable(CodeProviderNotAssigned, "the provider does not offer this service")
	}
	out := make([]Candidate, 0, len(rows))
	for _, r := range rows {
		c := Candidate{Assignment: r, Provider: r.Edges.Provider,
			Duration: time.Duration(svc.DurationMinutes) * time.Minute, PriceMinor: svc.PriceMinor}
		switch {
		case variant != nil:
			c.Duration, c.PriceMinor = time.Duration(variant.DurationMinutes)*time.Minute, variant.PriceMinor
		default:
			if r.CustomDurationMinutes != nil {
				c.Duration = time.Duration(*r.CustomDurationMinutes) * time.Minute
			}
			if r.CustomPriceMinor != nil {
				c.PriceMinor = *r.CustomPriceMinor
			}
		}
		out = append(out, c)
	}
	return svc, variant, out, nil
}

// span is a half-open time range [from, until).
type span struct{ from, until time.Time }

// Compute answers q for the viewer's venue v: the free start times on the
// venue's slot grid, counted from each venue-local midnight, at which an
// assigned provider works (weekly hours, at the location when one is asked),
// is not off, teaches no class, and holds no appointment over the service's
// time plus its buffers; never in the past, and for self-service not inside
// the cutoff. Only the asked window is read.
func Compute(ctx context.Context, client *ent.Client, v *Venue, q Query) (*Availability, error) {
	svc, variant, cands, err := Resolve(ctx, client, q)
	if err != nil {
		return nil, err
	}
	from := midnight(q.From, v.Loc)
	to := midnight(q.To, v.Loc)
	if to.Before(from) {
		return nil, apperr.Validation("to", "the window ends before it starts").With("reason", "INVALID_RANGE")
	}
	days := 0
	for d := from; !d.After(to); d = nextDay(d, v.Loc) {
		days++
	}
	if days > MaxAvailabilityDays {
		return nil, apperr.Validation("to", fmt.Sprintf("the window is at most %d days", MaxAvailabilityDays))
	}
	end := nextDay(to, v.Loc)
	out := &Availability{Service: svc, Variant: variant, Candidates: cands, Timezone: v.Loc.String(), Interval: v.Policy.SlotInterval}
	if len(cands) == 0 {
		return out, nil
	}
	ids := make([]uuid.UUID, len(cands))
	for i, c := range cands {
		ids[i] = c.Provider.ID
	}
	hours, busy, err := loadProviders(ctx, client, ids, q, from, end)
	if err != nil {
		return nil, err
	}
	earliest := q.Now
	if q.SelfService && v.Policy.SelfServiceCutoff != nil {
		earliest = q.Now.Add(*v.Policy.SelfServiceCutoff)
	}
	before := time.Duration(svc.BufferBeforeMinutes) * time.Minute
	after := time.Duration(svc.BufferAfterMinutes) * time.Minute
	step := int(v.Policy.SlotInterval / time.Minute)
	if step <= 0 {
		step = 15
	}
	byStart := map[time.Time]*Slot{}
	for _, c := range cands {
		pid := c.Provider.ID
		b := busy[pid]
		for d := from; d.Before(end); d = nextDay(d, v.Loc) {
			for _, h := range hours[pid] {
				if h.Weekday != int(d.Weekday()) {
					continue
				}
				open := wall(d, h.StartMinute, v.Loc)
				closing := wall(d, h.EndMinute, v.Loc)
				first := (h.StartMinute + step - 1) / step * step
				for m := first; m < h.EndMinute; m += step {
					start := wall(d, m, v.Loc)
					if !isWall(start, d, m) { // a local time the daylight-saving change skips
						continue
					}
					stop := start.Add(c.Duration)
					if start.Before(open) || stop.After(closing) || start.Before(earliest) {
						continue
					}
					if overlaps(b, start.Add(-before), stop.Add(after)) {
						continue
					}
					s, ok := byStart[start]
					if !ok {
						s = &Slot{Start: start, End: stop}
						byStart[start] = s
					}
					if !slices.Contains(s.Providers, pid) {
						s.Providers = append(s.Providers, pid)
					}
				}
			}
		}
	}
	out.Slots = make([]Slot, 0, len(byStart))
	for _, s := range byStart {
		out.Slots = append(out.Slots, *s)
	}
	sort.Slice(out.Slots, func(i, j int) bool { return out.Slots[i].Start.Before(out.Slots[j].Start) })
	return out, nil
}

// loadProviders reads, for the providers ids and the window [from, end), their
// weekly hours and their busy spans (appointments, time off, classes), each
// provider's spans sorted and merged.
func loadProviders(ctx context.Context, client *ent.Client, ids []uuid.UUID, q Query, from, end time.Time) (map[uuid.UUID][]*ent.ProviderHours, map[uuid.UUID][]span, error) {
	hq := client.ProviderHours.Query().Where(providerhours.ProviderIDIn(ids...))
	if q.LocationID != nil {
		hq.Where(providerhours.Or(providerhours.LocationIDIsNil(), providerhours.LocationID(*q.LocationID)))
	}
	hrs, err := hq.All(ctx)
	if err != nil {
		return nil, nil, fmt.Errorf("appointments: hours: %w", err)
	}
	hours := map[uuid.UUID][]*ent.ProviderHours{}
	for _, h := range hrs {
		hours[h.ProviderID] = append(hours[h.ProviderID], h)
	}
	busy := map[uuid.UUID][]span{}
	// Members site: the busy spans of every member's appointments of these
	// providers in the window; nothing else of the rows is read.
	var appts []struct {
		ID         uuid.UUID `json:"id"`
		ProviderID uuid.UUID `json:"provider_id"`
		BusyFrom   time.Time `json:"busy_from"`
		BusyUntil  time.Time `json:"busy_until"`
	}
	// An appointment lasts at most a day plus its buffers (four hours each
	// side): one starting 29 hours before the window may still reach into it.
	err = client.Appointment.Query().Where(
		entappointment.ProviderIDIn(ids...),
		entappointment.Or(entappointment.StatusIn(Holding...),
			entappointment.And(entappointment.StatusEQ(entappointment.StatusPendingPayment), entappointment.HoldExpiresAtGT(q.Now))),
		entappointment.StartsAtGTE(from.Add(-29*time.Hour)),
		entappointment.StartsAtLT(end.Add(5*time.Hour)),
	).Select(entappointment.FieldID, entappointment.FieldProviderID, entappointment.FieldBusyFrom, entappointment.FieldBusyUntil).
		Scan(system.CrossMembers(ctx, "appointments.busy"), &appts)
	if err != nil {
		return nil, nil, fmt.Errorf("appointments: busy: %w", err)
	}
	for _, a := range appts {
		if (q.Exclude != nil && a.ID == *q.Exclude) || slices.Contains(q.ExcludeAll, a.ID) {
			continue
		}
		busy[a.ProviderID] = append(busy[a.ProviderID], span{a.BusyFrom, a.BusyUntil})
	}
	offs, err := client.ProviderTimeOff.Query().Where(providertimeoff.ProviderIDIn(ids...),
		providertimeoff.StartsAtLT(end), providertimeoff.EndsAtGT(from)).All(ctx)
	if err != nil {
		return nil, nil, fmt.Errorf("appointments: time off: %w", err)
	}
	for _, o := range offs {
		busy[o.ProviderID] = append(busy[o.ProviderID], span{o.StartsAt, o.EndsAt})
	}
	classes, err := client.ClassInstance.Query().Where(classinstance.InstructorIDIn(ids...),
		classinstance.StatusNEQ(classinstance.StatusCancelled),
		classinstance.StartTimeLT(end), classinstance.EndTimeGT(from)).All(ctx)
	if err != nil {
		return nil, nil, fmt.Errorf("appointments: classes: %w", err)
	}
	for _, c := range classes {
		busy[*c.InstructorID] = append(busy[*c.InstructorID], span{c.StartTime, c.EndTime})
	}
	for id, b := range busy {
		busy[id] = merge(b)
	}
	return hours, busy, nil
}

// merge sorts spans and joins the overlapping ones.
func merge(b []span) []span {
	sort.Slice(b, func(i, j int) bool { return b[i].from.Before(b[j].from) })
	out := b[:0]
	for _, s := range b {
		if n := len(out); n > 0 && !s.from.After(out[n-1].until) {
			if s.until.After(out[n-1].until) {
				out[n-1].until = s.until
			}
			continue
		}
		out = append(out, s)
	}
	return out
}

// overlaps reports whether [from, until) meets one of the merged spans b.
func overlaps(b []span, from, until time.Time) bool {
	i := sort.Search(len(b), func(i int) bool { return b[i].until.After(from) })
	return i < len(b) && b[i].from.Before(until)
}

// midnight is the venue-local midnight of t's venue-local date.
func midnight(t time.Time, loc *time.Location) time.Time {
	l := t.In(loc)
	return time.Date(l.Year(), l.Month(), l.Day(), 0, 0, 0, 0, loc)
}

// nextDay is the venue-local midnight after d's (23, 24 or 25 hours later).
func nextDay(d time.Time, loc *time.Location) time.Time {
	return time.Date(d.Year(), d.Month(), d.Day()+1, 0, 0, 0, 0, loc)
}

// wall is the instant of minute m of day d's wall clock.
func wall(d time.Time, m int, loc *time.Location) time.Time {
	return time.Date(d.Year(), d.Month(), d.Day(), 0, m, 0, 0, loc)
}

// isWall reports whether t shows minute m of day d on the venue's wall clock
// (false for a time the spring change skips, which time.Date moves).
func isWall(t, d time.Time, m int) bool {
	if m == 24*60 {
		return true
	}
	return t.Day() == d.Day() && t.Hour()*60+t.Minute() == m
}

// LocalMidnight is the venue-local midnight of t's venue-local date.
func LocalMidnight(t time.Time, loc *time.Location) time.Time { return midnight(t, loc) }
