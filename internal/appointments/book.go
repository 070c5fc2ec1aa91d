package appointments

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/venueplatform/venue/ent"
	entappointment "github.com/venueplatform/venue/ent/appointment"
	"github.com/venueplatform/venue/ent/appointmentpolicy"
	"github.com/venueplatform/venue/ent/pass"
	"github.com/venueplatform/venue/internal/apperr"
	"github.com/venueplatform/venue/internal/audit"
	"github.com/venueplatform/venue/internal/events"
	"github.com/venueplatform/venue/internal/notify"
	"github.com/venueplatform/venue/internal/viewer"
)

// Actor is who books: a member for themselves (Self: the self-service
// cutoff applies) or staff and integrations for a named member.
type Actor struct {
	Member *ent.Member
	Self   bool
	Via    entappointment.BookedVia
}

// Request is one appointment to book.
type Request struct {
	ServiceID  uuid.UUID
	VariantID  *uuid.UUID
	ProviderID *uuid.UUID // nil: any free provider
	LocationID *uuid.UUID
	RoomID     *uuid.UUID
	Start      time.Time
	PassID     *uuid.UUID
	// PaymentChoice is online or venue; honoured only in client_choice mode.
	PaymentChoice string
	Notes         string
	// NotifyChannels tell the member about the booking (staff bookings),
	// through the notification rules.
	NotifyChannels []notify.Channel

	// hold makes the booking an online checkout's: pending_payment, holding
	// the time until the hold expires (checkout.go).
	hold *hold
	// carry is the appointment a reschedule replaces: its price and payment
	// (free, pass, venue, or what was paid online) move to the new one.
	carry *ent.Appointment
	// price replaces the service's price (a bundle's share).
	price *int64
}

// exclusionViolation is PostgreSQL's SQLSTATE for a refused exclusion constraint.
const exclusionViolation = "23P01"

// IsOverlap reports whether err is the database refusing an overlapping
// appointment (the exclusion constraints).
func IsOverlap(err error) bool {
	var pg *pgconn.PgError
	return errors.As(err, &pg) && pg.Code == exclusionViolation
}

// Book books r for the actor in the viewer's venue: the start must be one the
// availability read offers (else 409 SLOT_UNAVAILABLE, reason not_offered);
// an insert that loses a race for the time to another booking is refused by
// the database (409 SLOT_UNAVAILABLE, reason taken). The appointment is free
// when its price is zero, covered by the member's pass when one is named (a
// clip taken), else paid at the venue; online payment at booking is 402
// PAYMENT_REQUIRED (checkout of appointments belongs to the payments work).
func Book(ctx context.Context, client *ent.Client, a Actor, r Request, now time.Time) (*ent.Appointment, error) {
	v, err := LoadVenue(ctx, client)
	if err != nil {
		return nil, err
	}
	var out *ent.Appointment
	err = events.WithTx(ctx, client, func(ctx context.Context, tx *ent.Tx) error {
		var err error
		out, err = book(ctx, tx.Client(), v, a, r, now, nil, true)
		return err
	})
	if err != nil {
		if IsOverlap(err) {
			return nil, slotUnavailable(ReasonSlotTaken)
		}
		return nil, err
	}
	return out, nil
}

// book checks and inserts one appointment in the transaction of c, and
// records appointment.created when created is true (a reschedule records its
// own event instead).
func book(ctx context.Context, c *ent.Client, v *Venue, a Actor, r Request, now time.Time, visit *uuid.UUID, created bool) (*ent.Appointment, error) {
	av, err := Compute(ctx, c, v, Query{ServiceID: r.ServiceID, VariantID: r.VariantID, ProviderID: r.ProviderID,
		LocationID: r.LocationID, From: r.Start, To: r.Start, Now: now, SelfService: a.Self})
	if err != nil {
		return nil, err
	}
	slot, ok := av.Find(r.Start)
	if !ok {
		return nil, slotUnavailable(ReasonSlotNotOffered)
	}
	cand, _ := av.Candidate(slot.Providers[0])
	svc := av.Service
	var payment entappointment.Payment
	var due int64
	price := cand.PriceMinor
	if r.price != nil {
		price = *r.price
	}
	switch {
	case r.carry != nil:
		payment, due, price = r.carry.Payment, r.carry.DueMinor, r.carry.PriceMinor
	case r.hold != nil:
		if payment, due, err = r.hold.check(v, svc, depositOf(svc, av.Variant, price), price, r); err != nil {
			return nil, err
		}
	default:
		payment, err = paymentOf(v, price, r)
	}
	if err != nil {
		return nil, err
	}
	start := r.Start
	end := start.Add(cand.Duration)
	create := c.Appointment.Create().SetMemberID(a.Member.ID).SetProviderID(cand.Provider.ID).
		SetServiceID(svc.ID).SetNillableVariantID(r.VariantID).SetNillableLocationID(r.LocationID).
		SetNillableRoomID(r.RoomID).SetNillableVisitID(visit).
		SetStartsAt(start).SetEndsAt(end).
		SetBusyFrom(start.Add(-time.Duration(svc.BufferBeforeMinutes) * time.Minute)).
		SetBusyUntil(end.Add(time.Duration(svc.BufferAfterMinutes) * time.Minute)).
		SetPriceMinor(price).SetCurrency(svc.Currency).SetPayment(payment).
		SetBookedVia(a.Via).SetNotes(r.Notes)
	if r.hold != nil {
		create.SetStatus(entappointment.StatusPendingPayment).SetHoldExpiresAt(r.hold.expires).SetDueMinor(due)
		if r.hold.key != "" {
			create.SetCheckoutKey(r.hold.key)
		}
		created = false // recorded when the payment books it
	}
	if err := releaseExpiredHolds(ctx, c, cand.Provider.ID, r.RoomID,
		start.Add(-time.Duration(svc.BufferBeforeMinutes)*time.Minute),
		end.Add(time.Duration(svc.BufferAfterMinutes)*time.Minute), now); err != nil {
		return nil, err
	}
	if k := r.carry; k != nil {
		create.SetDueMinor(k.DueMinor).SetPaidMinor(k.PaidMinor).SetNillablePaidAt(k.PaidAt).
			SetNillablePaymentIntentID(k.PaymentIntentID).SetNillablePassID(k.PassID).SetCurrency(k.Currency)
	} else if payment == entappointment.PaymentPass {
		if err := takeClip(ctx, c, a, *r.PassID, start.In(v.Loc)); err != nil {
			return nil, err
		}
		create.SetPassID(*r.PassID)
	}
	ap, err := create.Save(ctx)
	if err != nil {
		return nil, err
	}
	if !created {
		return ap, nil
	}
	if _, err := events.Record(ctx, c, events.AppointmentCreated, map[string]any{
		"appointment_id": ap.ID.String(), "status": string(ap.Status), "member_id": ap.MemberID.String(),
		"provider_id": ap.ProviderID.String(), "service_id": ap.ServiceID.String(),
		"starts_at": ap.StartsAt.UTC().Format(time.RFC3339),
	}); err != nil {
		return nil, err
	}
	if err := auditEntry(ctx, c, "appointment.created", ap, map[string]any{"via": string(a.Via)}); err != nil {
		return nil, err
	}
	if err := notifyBooked(ctx, c, v, svc, ap, r.NotifyChannels); err != nil {
		return nil, err
	}
	return ap, nil
}

// paymentOf decides how an appointment of price is paid.
func paymentOf(v *Venue, price int64, r Request) (entappointment.Payment, error) {
	switch {
	case price == 0:
		return entappointment.PaymentFree, nil
	case r.PassID != nil:
		return entappointment.PaymentPass, nil
	}
	online := v.Policy.PaymentMode == appointmentpolicy.PaymentAtBookingModeOnline ||
		(v.Policy.PaymentMode == appointmentpolicy.PaymentAtBookingModeClientChoice && r.PaymentChoice == "online")
	if online {
		return "", (&apperr.Error{Status: 402, Code: CodePaymentRequired,
			Message: "this appointment is paid when it is booked"}).With("amount_minor", price)
	}
	return entappointment.PaymentVenue, nil
}

// takeClip charges the member's pass id for an appointment on local day:
// the pass must be the member's, active, valid that day and have a clip left
// (unless unlimited).
func takeClip(ctx context.Context, c *ent.Client, a Actor, id uuid.UUID, day time.Time) error {
	p, err := c.Pass.Query().Where(pass.ID(id), pass.MemberID(a.Member.ID)).Only(ctx)
	if ent.IsNotFound(err) {
		return apperr.NotFound("pass")
	}
	if err != nil {
		return fmt.Errorf("appointments: pass: %w", err)
	}
	date := time.Date(day.Year(), day.Month(), day.Day(), 0, 0, 0, 0, time.UTC)
	switch {
	case p.Status != pass.StatusActive:
		return unprocessable(CodePassNotUsable, "the pass cannot pay for this appointment").With("reason", ReasonPassNotActive)
	case date.Before(p.ValidFrom.UTC().Truncate(24*time.Hour)) || (p.ValidTo != nil && date.After(*p.ValidTo)):
		return unprocessable(CodePassNotUsable, "the pass cannot pay for this appointment").With("reason", ReasonPassNotValidDate)
	case p.ClipsRemaining == nil:
		return nil
	}
	n, err := c.Pass.Update().Where(pass.ID(p.ID), pass.ClipsRemainingGT(0)).AddClipsRemaining(-1).Save(ctx)
	if err != nil {
		return fmt.Errorf("appointments: take clip: %w", err)
	}
	if n == 0 {
		return unprocessable(CodePassNotUsable, "the pass cannot pay for this appointment").With("reason", ReasonPassNoClips)
	}
	return nil
}

// auditEntry records action on appointment ap for the context's viewer.
func auditEntry(ctx context.Context, c *ent.Client, action string, ap *ent.Appointment, details map[string]any) error {
	e := audit.Entry{Action: action, Target: "appointment:" + ap.ID.String(), Details: details}
	if u, ok := viewer.UserFromContext(ctx); ok {
		e.ActorKind = audit.KindUser
		e.UserID = &u.UserID
	}
	_, err := audit.Record(ctx, c, e)
	return err
}

// NotifyKind is the notification kind of a staff booking's message to the
// member (the bookings category of the member's preferences).
const NotifyKind = "booking.appointment_created"

// notifyBooked queues, in the booking's transaction, the message to the
// member on each of channels (none: silent).
func notifyBooked(ctx context.Context, c *ent.Client, v *Venue, svc *ent.Service, ap *ent.Appointment, channels []notify.Channel) error {
	if len(channels) == 0 {
		return nil
	}
	local := ap.StartsAt.In(v.Loc)
	msg := notify.Message{Kind: NotifyKind,
		Subject: fmt.Sprintf("%s booked for %s", svc.Name, local.Format("Mon 2 Jan 15:04")),
		Body: fmt.Sprintf("%s has booked %s for you on %s at %s.", v.Org.Name, svc.Name,
			local.Format("Monday 2 January 2006"), local.Format("15:04")),
		Data:          map[string]any{"appointment_id": ap.ID.String(), "starts_at": ap.StartsAt.UTC().Format(time.RFC3339)},
		CorrelationID: "appointment:" + ap.ID.String()}
	for _, ch := range channels {
		if _, err := notify.EnqueueForMembers(ctx, c, []uuid.UUID{ap.MemberID}, ch, msg); err != nil {
			return err
		}
	}
	return nil
}
