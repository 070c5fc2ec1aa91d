package appointments

import (
	"context"
	"net/http"
	"time"

	"github.com/google/uuid"

	"github.com/venueplatform/venue/ent"
	entappointment "github.com/venueplatform/venue/ent/appointment"
	entvisit "github.com/venueplatform/venue/ent/visit"
	"github.com/venueplatform/venue/internal/apperr"
	"github.com/venueplatform/venue/internal/audit"
	"github.com/venueplatform/venue/internal/concurrency"
	"github.com/venueplatform/venue/internal/events"
)

// Visit limits (the contract's: 2 to 8 services).
const (
	MinVisitServices = 2
	MaxVisitServices = 8
)

// VisitItem is one service of a visit.
type VisitItem struct {
	ServiceID uuid.UUID
	VariantID *uuid.UUID
}

// VisitRequest books several services in sequence.
type VisitRequest struct {
	Items      []VisitItem
	ProviderID *uuid.UUID // nil: any free provider per service
	LocationID *uuid.UUID
	Start      time.Time
	// The totals the member saw; a visit whose totals differ is refused.
	ExpectedTotalMinor int64
	ExpectedDueMinor   int64
	ExpectedCurrency   string
	// PaymentChoice is online or venue; honoured only in client_choice mode.
	PaymentChoice string

	// bundle books a combo package: its id and each item's share of its
	// price (bundles.go).
	bundle *uuid.UUID
	prices []int64
}

// BookVisit books r's services one after the other from r.Start, all or
// nothing: each starts at the first time on the venue's slot grid after the
// previous one's end and buffers, and must be offered there (409
// SLOT_UNAVAILABLE with details.service_index for the first that is not,
// and none is booked). Grouped visits must be enabled by the venue (422
// GROUPED_VISITS_DISABLED); at most the venue's max_services_per_visit (2 to
// 8; else 400 VALIDATION_ERROR). Totals other than the expected ones are 409
// QUOTE_STALE (details: total_minor, due_minor, currency); payment due at
// booking (the venue's online mode) is 402 PAYMENT_REQUIRED.
func BookVisit(ctx context.Context, client *ent.Client, a Actor, r VisitRequest, now time.Time) (*ent.Visit, []*ent.Appointment, error) {
	v, err := LoadVenue(ctx, client)
	if err != nil {
		return nil, nil, err
	}
	return bookVisit(ctx, client, v, a, r, now, nil)
}

// bookVisit is BookVisit, or with h the visit of an online checkout: held
// in pending_payment with each of its appointments, owing the sum of their
// amounts due at booking.
func bookVisit(ctx context.Context, client *ent.Client, v *Venue, a Actor, r VisitRequest, now time.Time, h *hold) (*ent.Visit, []*ent.Appointment, error) {
	switch {
	case r.bundle != nil: // the venue's own package: its rules are the bundle's
	case !v.Policy.GroupedVisitsEnabled:
		return nil, nil, unprocessable("GROUPED_VISITS_DISABLED", "the venue does not take visits of several services")
	case len(r.Items) < MinVisitServices || len(r.Items) > v.Policy.MaxServicesPerVisit:
		return nil, nil, apperr.Validation("services", "a visit has 2 to max_services_per_visit services").
			With("max_services", v.Policy.MaxServicesPerVisit)
	}
	var visit *ent.Visit
	var out []*ent.Appointment
	err := events.WithTx(ctx, client, func(ctx context.Context, tx *ent.Tx) error {
		c := tx.Client()
		var err error
		visit, err = c.Visit.Create().SetMemberID(a.Member.ID).SetStartsAt(r.Start).SetEndsAt(r.Start).
			SetTotalPriceMinor(0).SetCurrency("XXX").SetNillableBundleID(r.bundle).Save(ctx)
		if err != nil {
			return err
		}
		start := r.Start
		var total, due int64
		currency := ""
		for i, it := range r.Items {
			svc, err := ServiceOf(ctx, c, it.ServiceID)
			if err != nil {
				return err
			}
			if i > 0 {
				start = onGrid(start.Add(time.Duration(svc.BufferBeforeMinutes)*time.Minute), v)
			}
			req := Request{ServiceID: it.ServiceID, VariantID: it.VariantID, ProviderID: r.ProviderID,
				LocationID: r.LocationID, Start: start, PaymentChoice: "venue"}
			if h != nil {
				req.PaymentChoice = r.PaymentChoice
				req.hold = &hold{expires: h.expires, visit: true}
			}
			if r.prices != nil {
				req.price = &r.prices[i]
			}
			ap, err := book(ctx, c, v, a, req, now, &visit.ID, true)
			if err != nil {
				if ae, ok := err.(*apperr.Error); ok && ae.Code == CodeSlotUnavailable {
					return ae.With("service_index", i)
				}
				if IsOverlap(err) {
					return slotUnavailable(ReasonSlotTaken).With("service_index", i)
				}
				return err
			}
			if currency != "" && ap.Currency != currency {
				return apperr.Validation("services", "a visit's services share one currency")
			}
			currency = ap.Currency
			total += ap.PriceMinor
			if h != nil {
				due += ap.DueMinor
			} else {
				var variant *ent.ServiceVariant
				if ap.VariantID != nil {
					if variant, err = c.ServiceVariant.Get(ctx, *ap.VariantID); err != nil {
						return err
					}
				}
				_, _, d := dueOf(v, depositOf(svc, variant, ap.PriceMinor), ap.PriceMinor, r.PaymentChoice)
				due += d
			}
			ap.Edges.Service = svc
			out = append(out, ap)
			start = ap.EndsAt.Add(time.Duration(svc.BufferAfterMinutes) * time.Minute)
		}
		if total != r.ExpectedTotalMinor || due != r.ExpectedDueMinor || currency != r.ExpectedCurrency {
			return (&apperr.Error{Status: http.StatusConflict, Code: "QUOTE_STALE",
				Message: "the visit's totals differ from the expected ones"}).
				With("total_minor", total).With("due_minor", due).With("currency", currency)
		}
		upd := c.Visit.UpdateOne(visit).SetEndsAt(out[len(out)-1].EndsAt).SetTotalPriceMinor(total).SetCurrency(currency)
		switch {
		case h != nil && due == 0:
			return nothingDue()
		case h != nil:
			upd.SetStatus(entvisit.StatusPendingPayment).SetHoldExpiresAt(h.expires).SetDueMinor(due).SetCheckoutKey(h.key)
		case due > 0:
			return (&apperr.Error{Status: http.StatusPaymentRequired, Code: CodePaymentRequired,
				Message: "this visit is paid when it is booked"}).With("amount_minor", due)
		}
		visit, err = upd.Save(ctx)
		return err
	})
	if err != nil {
		if IsOverlap(err) {
			return nil, nil, slotUnavailable(ReasonSlotTaken)
		}
		return nil, nil, err
	}
	return visit, out, nil
}

// onGrid is the first start on the venue's slot grid at or after t.
func onGrid(t time.Time, v *Venue) time.Time {
	day := midnight(t, v.Loc)
	step := int(v.Policy.SlotInterval / time.Minute)
	for m := 0; m <= 25*60; m += step {
		if s := wall(day, m, v.Loc); !s.Before(t) && isWall(s, day, m) {
			return s
		}
	}
	return t
}

// CancelVisit cancels visit id of the member (Self: its own only) and every
// booked appointment of it, guarded by the visit's exact updated_at token
// (missing: 400; another: 409 STALE_TARGET). A member is held to the
// self-service cutoff of the visit's first appointment (422
// SELF_SERVICE_CUTOFF); a visit that started or was cancelled is 422
// NOT_CANCELLABLE. Each appointment records appointment.cancelled; the
// services' cancellation fees apply as for single appointments.
func CancelVisit(ctx context.Context, client *ent.Client, a Actor, id uuid.UUID, tok concurrency.Token, now time.Time) (*ent.Visit, []*ent.Appointment, error) {
	visit, aps, _, err := CancelVisitWith(ctx, client, a, id, tok, now, CancelOptions{})
	return visit, aps, err
}

// CancelVisitWith is CancelVisit with what to do with the visit's online
// payment: a member accepting the refund terms (the venue's confirmed
// grouped-visit terms; without them 422 REFUND_REQUIRED, reason
// no_refund_terms) gets the payment back less the fees of its services
// inside their windows; staff choosing to refund give it all back. Both
// exactly once (cancel_refund.go); a refund that cannot be made refuses
// the cancel and changes nothing.
func CancelVisitWith(ctx context.Context, client *ent.Client, a Actor, id uuid.UUID, tok concurrency.Token, now time.Time, o CancelOptions) (*ent.Visit, []*ent.Appointment, *CancelRefund, error) {
	if tok.IsZero() {
		return nil, nil, nil, concurrency.Missing("updated_at")
	}
	v, err := LoadVenue(ctx, client)
	if err != nil {
		return nil, nil, nil, err
	}
	var (
		visit *ent.Visit
		out   []*ent.Appointment
		q     *RefundQuote
		args  *CancelRefundArgs
	)
	err = events.WithTx(ctx, client, func(ctx context.Context, tx *ent.Tx) error {
		c := tx.Client()
		var err error
		visit, err = c.Visit.Query().Where(entvisit.ID(id)).Only(ctx)
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
		paid := paidOnline(visit.PaidAt, visit.PaidMinor)
		if a.Self && visit.BundleID != nil && paid {
			return packageRequiresStaff(visit.ID.String())
		}
		if a.Self && v.Policy.SelfServiceCutoff != nil && visit.StartsAt.Sub(now) < *v.Policy.SelfServiceCutoff {
			return unprocessable(CodeSelfServiceCutoff, "the visit is too close to cancel online; contact the venue").
				With("cutoff_hours", int(*v.Policy.SelfServiceCutoff/time.Hour))
		}
		switch {
		case a.Self && paid && !o.AcceptRefundTerms:
			return refundRequired(visit.PaidMinor, visit.Currency)
		case a.Self && paid:
			if q, err = VisitRefundQuote(ctx, c, o.Pay, v, visit, true, now); err != nil {
				return err
			}
			if q.Unavailable != "" {
				return refundUnavailable(q)
			}
		case !a.Self && o.Refund:
			if q, err = VisitRefundQuote(ctx, c, o.Pay, v, visit, false, now); err != nil {
				return err
			}
			if q, err = staffRefundChecks(ctx, c, o.Pay, q); err != nil {
				return err
			}
		}
		aps, err := c.Appointment.Query().Where(entappointment.VisitID(visit.ID), entappointment.StatusEQ(entappointment.StatusBooked)).
			WithService().Order(entappointment.ByStartsAt()).All(ctx)
		if err != nil {
			return err
		}
		reason := "member_visit"
		if !a.Self {
			reason = "staff_visit"
		}
		for _, ap := range aps {
			fee := PreviewCancel(v, ap, false, now).FeeMinor
			if !a.Self {
				fee = 0 // staff cancels carry no fee
			}
			done, err := setCancelled(ctx, c, ap, concurrency.Of(ap.UpdatedAt), fee, reason, now, nil)
			if err != nil {
				return err
			}
			out = append(out, done)
		}
		cancelled, err := c.Visit.UpdateOne(visit).Where(entvisit.UpdatedAt(tok.Time())).SetStatus(entvisit.StatusCancelled).Save(ctx)
		if ent.IsNotFound(err) {
			return concurrency.Stale(tok.Time())
		}
		if err != nil {
			return err
		}
		visit = cancelled
		if q == nil {
			return nil
		}
		if _, err := audit.Record(ctx, c, audit.Entry{Action: "visit.refund_decided", Target: "visit:" + visit.ID.String(),
			Details: refundDetails(q)}); err != nil {
			return err
		}
		refundReason := CancelRefundReason
		if !a.Self {
			refundReason = StaffCancelRefundReason
		}
		args, err = decideRefund(ctx, visit.OrganizationID, q, visit.ID, refundReason, now)
		return err
	})
	if err != nil {
		return nil, nil, nil, err
	}
	return visit, out, refundNow(ctx, o.Pay, args, q), nil
}

// GetVisit reads visit id of the viewer's venue (a member: its own only)
// with its appointments in order.
func GetVisit(ctx context.Context, c *ent.Client, id uuid.UUID) (*ent.Visit, []*ent.Appointment, error) {
	visit, err := c.Visit.Query().Where(entvisit.ID(id)).Only(ctx)
	if ent.IsNotFound(err) {
		return nil, nil, apperr.NotFound("visit")
	}
	if err != nil {
		return nil, nil, err
	}
	aps, err := c.Appointment.Query().Where(entappointment.VisitID(id)).WithService().Order(entappointment.ByStartsAt()).All(ctx)
	if err != nil {
		return nil, nil, err
	}
	return visit, aps, nil
}
