package appointments

import (
	"context"
	"time"

	"github.com/google/uuid"

	"github.com/venueplatform/venue/ent"
	entappointment "github.com/venueplatform/venue/ent/appointment"
	"github.com/venueplatform/venue/ent/appointmentpolicy"
	entvisit "github.com/venueplatform/venue/ent/visit"
	"github.com/venueplatform/venue/internal/apperr"
	"github.com/venueplatform/venue/internal/concurrency"
	"github.com/venueplatform/venue/internal/events"
)

// MaxPlanCandidates caps the candidates of one visit plan.
const MaxPlanCandidates = 200

// Reasons a visit plan is not enabled.
const (
	PlanDisabled        = "grouped_visits_disabled"
	PlanTooManyServices = "too_many_services"
)

// PlanRequest asks which visits of Items can be booked on a venue-local date.
type PlanRequest struct {
	Date        time.Time // any time of the venue-local date
	Items       []VisitItem
	ProviderID  *uuid.UUID
	LocationID  *uuid.UUID
	FromVisitID *uuid.UUID
}

// PlanItem is one service of a candidate visit.
type PlanItem struct {
	ServiceID  uuid.UUID
	VariantID  *uuid.UUID
	ProviderID uuid.UUID
	Start, End time.Time
	PriceMinor int64
}

// PlanCandidate is a visit that can be booked: its items in order.
type PlanCandidate struct {
	Start, End time.Time
	Currency   string
	TotalMinor int64
	DueMinor   int64
	Items      []PlanItem
}

// Plan answers a PlanRequest.
type Plan struct {
	Enabled     bool
	Reason      string
	MaxServices int
	RefundTerms *string
	Mode        appointmentpolicy.PaymentAtBookingMode
	Timezone    string
	Candidates  []PlanCandidate
}

// PlanVisit lists, for the member actor, every start of r's first service on
// r's date from which all of r's services can be booked in sequence exactly
// as BookVisit places them, with each candidate's totals and amount due at
// booking (in the venue's mode, as BookVisit checks them). A venue without
// grouped visits, or more services than it allows, answers a plan that is
// not enabled and has no candidates. FromVisitID (the member's own visit)
// counts that visit's time as free. Nothing is held.
func PlanVisit(ctx context.Context, client *ent.Client, a Actor, r PlanRequest, now time.Time) (*Plan, error) {
	v, err := LoadVenue(ctx, client)
	if err != nil {
		return nil, err
	}
	out := &Plan{Enabled: true, MaxServices: v.Policy.MaxServicesPerVisit, RefundTerms: v.Policy.RefundTerms,
		Mode: v.Policy.PaymentMode, Timezone: v.Loc.String(), Candidates: []PlanCandidate{}}
	switch {
	case !v.Policy.GroupedVisitsEnabled:
		out.Enabled, out.Reason = false, PlanDisabled
		return out, nil
	case len(r.Items) > v.Policy.MaxServicesPerVisit:
		out.Enabled, out.Reason = false, PlanTooManyServices
		return out, nil
	case len(r.Items) == 0:
		return nil, apperr.Validation("services", "name at least one service")
	}
	var exclude []uuid.UUID
	if r.FromVisitID != nil {
		visit, err := client.Visit.Query().Where(entvisit.ID(*r.FromVisitID)).Only(ctx)
		if ent.IsNotFound(err) || (err == nil && a.Self && visit.MemberID != a.Member.ID) {
			return nil, apperr.NotFound("visit")
		}
		if err != nil {
			return nil, err
		}
		if exclude, err = client.Appointment.Query().Where(entappointment.VisitID(visit.ID)).IDs(ctx); err != nil {
			return nil, err
		}
	}
	day := midnight(r.Date, v.Loc)
	next := nextDay(day, v.Loc)
	avs := make([]*Availability, len(r.Items))
	for i, it := range r.Items {
		avs[i], err = Compute(ctx, client, v, Query{ServiceID: it.ServiceID, VariantID: it.VariantID, ProviderID: r.ProviderID,
			LocationID: r.LocationID, From: day, To: next, Now: now, SelfService: a.Self, ExcludeAll: exclude})
		if err != nil {
			return nil, err
		}
	}
	for _, first := range avs[0].Slots {
		if !first.Start.Before(next) || len(out.Candidates) >= MaxPlanCandidates {
			break
		}
		if c, ok := sequence(v, avs, r.Items, first.Start); ok {
			out.Candidates = append(out.Candidates, c)
		}
	}
	return out, nil
}

// sequence places items one after the other from start as BookVisit does.
func sequence(v *Venue, avs []*Availability, items []VisitItem, start time.Time) (PlanCandidate, bool) {
	c := PlanCandidate{Start: start}
	for i, av := range avs {
		svc := av.Service
		if i > 0 {
			start = onGrid(start.Add(time.Duration(svc.BufferBeforeMinutes)*time.Minute), v)
		}
		slot, ok := av.Find(start)
		if !ok {
			return c, false
		}
		cand, _ := av.Candidate(slot.Providers[0])
		if c.Currency != "" && svc.Currency != c.Currency {
			return c, false
		}
		c.Currency = svc.Currency
		_, _, due := dueOf(v, depositOf(svc, av.Variant, cand.PriceMinor), cand.PriceMinor, "")
		end := start.Add(cand.Duration)
		c.Items = append(c.Items, PlanItem{ServiceID: svc.ID, VariantID: items[i].VariantID, ProviderID: cand.Provider.ID,
			Start: start, End: end, PriceMinor: cand.PriceMinor})
		c.TotalMinor += cand.PriceMinor
		c.DueMinor += due
		c.End = end
		start = end.Add(time.Duration(svc.BufferAfterMinutes) * time.Minute)
	}
	return c, true
}

// RescheduleVisit moves the member's (Self: its own) visit id to start
// from start, all or nothing, guarded by the visit's exact updated_at
// (missing: 400; another: 409 STALE_TARGET). Each booked appointment of the
// visit becomes rescheduled, with rescheduled_to_id naming its replacement,
// which keeps the visit, the price and the payment; provider nil keeps each
// appointment's provider (providerAny: any free one). The visit's own time
// counts as free. A service whose new time is not offered is 409
// SLOT_UNAVAILABLE with details.service_index, and nothing moves.
func RescheduleVisit(ctx context.Context, client *ent.Client, a Actor, id uuid.UUID, tok concurrency.Token, start time.Time, provider *uuid.UUID, providerAny bool, now time.Time) (*ent.Visit, []*ent.Appointment, error) {
	if tok.IsZero() {
		return nil, nil, concurrency.Missing("expected_updated_at")
	}
	v, err := LoadVenue(ctx, client)
	if err != nil {
		return nil, nil, err
	}
	err = events.WithTx(ctx, client, func(ctx context.Context, tx *ent.Tx) error {
		c := tx.Client()
		visit, err := c.Visit.Query().Where(entvisit.ID(id)).ForUpdate().Only(ctx)
		if ent.IsNotFound(err) || (err == nil && a.Self && visit.MemberID != a.Member.ID) {
			return apperr.NotFound("visit")
		}
		if err != nil {
			return err
		}
		if !tok.Matches(visit.UpdatedAt) {
			return concurrency.Stale(visit.UpdatedAt)
		}
		if visit.Status != entvisit.StatusBooked || !now.Before(visit.StartsAt) {
			return notCancellable(string(visit.Status))
		}
		if cut := v.Policy.SelfServiceCutoff; a.Self && cut != nil && (visit.StartsAt.Sub(now) < *cut || start.Sub(now) < *cut) {
			return unprocessable(CodeSelfServiceCutoff, "the visit is too close to move online; contact the venue").
				With("cutoff_hours", int(*cut/time.Hour))
		}
		old, err := c.Appointment.Query().Where(entappointment.VisitID(visit.ID), entappointment.StatusEQ(entappointment.StatusBooked)).
			WithService().Order(entappointment.ByStartsAt()).All(ctx)
		if err != nil {
			return err
		}
		if len(old) == 0 {
			return notCancellable(string(visit.Status))
		}
		ids := make([]uuid.UUID, len(old))
		for i, ap := range old {
			ids[i] = ap.ID
		}
		if _, err := c.Appointment.Update().Where(entappointment.IDIn(ids...), entappointment.StatusEQ(entappointment.StatusBooked)).
			SetStatus(entappointment.StatusRescheduled).Save(ctx); err != nil {
			return err
		}
		m, err := c.Member.Get(ctx, visit.MemberID)
		if err != nil {
			return err
		}
		at := start
		var last *ent.Appointment
		for i, ap := range old {
			svc := ap.Edges.Service
			if i > 0 {
				at = onGrid(at.Add(time.Duration(svc.BufferBeforeMinutes)*time.Minute), v)
			}
			p := &ap.ProviderID
			switch {
			case providerAny:
				p = nil
			case provider != nil:
				p = provider
			}
			req := Request{ServiceID: ap.ServiceID, VariantID: ap.VariantID, ProviderID: p, LocationID: ap.LocationID,
				RoomID: ap.RoomID, Start: at, Notes: ap.Notes, carry: ap}
			next, err := book(ctx, c, v, Actor{Member: m, Self: a.Self, Via: ap.BookedVia}, req, now, &visit.ID, false)
			if err != nil {
				if ae, ok := err.(*apperr.Error); ok && ae.Code == CodeSlotUnavailable {
					return ae.With("service_index", i)
				}
				if IsOverlap(err) {
					return slotUnavailable(ReasonSlotTaken).With("service_index", i)
				}
				return err
			}
			if err := c.Appointment.UpdateOneID(ap.ID).SetRescheduledToID(next.ID).Exec(ctx); err != nil {
				return err
			}
			if _, err := events.Record(ctx, c, events.AppointmentRescheduled, map[string]any{
				"appointment_id": ap.ID.String(), "rescheduled_to_id": next.ID.String(), "member_id": ap.MemberID.String(),
				"visit_id": visit.ID.String(), "starts_at": next.StartsAt.UTC().Format(time.RFC3339),
			}); err != nil {
				return err
			}
			if err := auditEntry(ctx, c, "appointment.rescheduled", ap, map[string]any{"rescheduled_to_id": next.ID.String(), "visit_id": visit.ID.String()}); err != nil {
				return err
			}
			last = next
			at = next.EndsAt.Add(time.Duration(svc.BufferAfterMinutes) * time.Minute)
		}
		_, err = c.Visit.UpdateOne(visit).Where(entvisit.UpdatedAt(tok.Time())).
			SetStartsAt(start).SetEndsAt(last.EndsAt).Save(ctx)
		if ent.IsNotFound(err) {
			return concurrency.Stale(tok.Time())
		}
		return err
	})
	if err != nil {
		if IsOverlap(err) {
			return nil, nil, slotUnavailable(ReasonSlotTaken)
		}
		return nil, nil, err
	}
	visit, aps, err := GetVisit(ctx, client, id)
	if err != nil {
		return nil, nil, err
	}
	live := aps[:0]
	for _, ap := range aps {
		if ap.Status != entappointment.StatusRescheduled {
			live = append(live, ap)
		}
	}
	return visit, live, nil
}
