package handlers

import (
	"context"
	"time"

	"github.com/google/uuid"

	"github.com/venueplatform/venue/ent"
	entbooking "github.com/venueplatform/venue/ent/booking"
	"github.com/venueplatform/venue/internal/apperr"
	"github.com/venueplatform/venue/internal/booking"
	api "github.com/venueplatform/venue/internal/gen/api"
	"github.com/venueplatform/venue/internal/idempotency"
	"github.com/venueplatform/venue/internal/input"
	"github.com/venueplatform/venue/internal/pagination"
	"github.com/venueplatform/venue/internal/schedule"
	"github.com/venueplatform/venue/internal/viewer"
)

// bookingActor resolves who a booking call acts as: a user as their
// relationship with org (Self), or an API key for the member it names.
// It returns the context to act in.
func (h *Handler) bookingActor(ctx context.Context, org uuid.UUID, memberID *uuid.UUID, clientID string) (context.Context, booking.Actor, error) {
	if k, ok := viewer.FromContext(ctx).(viewer.APIKey); ok {
		if org != uuid.Nil && org != k.Org {
			return nil, booking.Actor{}, apperr.NotFound("organization")
		}
		a, err := booking.ForClient(ctx, h.client, memberID, clientID, entbooking.BookedViaAPIKey)
		return ctx, a, err
	}
	if memberID != nil || clientID != "" {
		return nil, booking.Actor{}, apperr.Validation("member_id", "member_id and client_id are for API keys; a member books for themselves")
	}
	if org == uuid.Nil {
		return nil, booking.Actor{}, apperr.Validation("X-Organization-ID", "X-Organization-ID (or organization_id) names the venue to book in")
	}
	return booking.AsMember(ctx, h.client, org)
}

// CreateBooking implements createBooking.
func (h *Handler) CreateBooking(ctx context.Context, req *api.BookingCreateRequest, p api.CreateBookingParams) (*api.BookingResponse, error) {
	org := p.XOrganizationID.Or(uuid.Nil)
	if body, ok := req.OrganizationID.Get(); ok {
		if org != uuid.Nil && org != body {
			return nil, apperr.Validation("organization_id", "organization_id differs from X-Organization-ID")
		}
		org = body
	}
	var memberID *uuid.UUID
	if v, ok := req.MemberID.Get(); ok {
		memberID = &v
	}
	actx, a, err := h.bookingActor(ctx, org, memberID, req.ClientID.Or(""))
	if err != nil {
		return nil, err
	}
	r := booking.Request{ClassID: req.ClassInstanceID}
	// With an Idempotency-Key the booking remembers its request: a retry
	// after a crash that lost the stored answer gets the same booking.
	r.Key, _ = idempotency.Derive(ctx, "createBooking")
	if v, ok := req.PassID.Get(); ok {
		r.PassID = &v
	}
	now := h.now()
	res, err := booking.Book(actx, h.client, a, r, now)
	if err != nil {
		return nil, err
	}
	return &api.BookingResponse{Data: bookingItem(res.Booking, res.Class, now)}, nil
}

// GetBooking implements getBooking: the user's own booking, or any of the
// API key's venue.
func (h *Handler) GetBooking(ctx context.Context, p api.GetBookingParams) (*api.BookingResponse, error) {
	b, err := h.findBooking(ctx, p.ID)
	if err != nil {
		return nil, err
	}
	return &api.BookingResponse{Data: bookingItem(b, b.Edges.ClassInstance, h.now())}, nil
}

// findBooking reads a booking the caller may see, with its class.
func (h *Handler) findBooking(ctx context.Context, id uuid.UUID) (*ent.Booking, error) {
	if u, ok := viewer.UserFromContext(ctx); ok {
		return booking.GetOwn(ctx, h.client, u.UserID, id)
	}
	return booking.Get(ctx, h.client, booking.Actor{}, id)
}

// CancelBooking implements cancelBooking.
func (h *Handler) CancelBooking(ctx context.Context, p api.CancelBookingParams) (*api.BookingCancelResponse, error) {
	actx, a, err := h.ownerActor(ctx, p.ID)
	if err != nil {
		return nil, err
	}
	now := h.now()
	// With an Idempotency-Key the cancellation remembers its request: a
	// retry after a crash that lost the stored answer gets the same answer.
	key, _ := idempotency.Derive(ctx, "cancelBooking")
	res, err := booking.Cancel(actx, h.client, a, p.ID, key, now)
	if err != nil {
		return nil, err
	}
	cl, err := h.client.ClassInstance.Get(actx, res.Booking.ClassInstanceID)
	if err != nil {
		return nil, err
	}
	return &api.BookingCancelResponse{Data: api.BookingCancellation{
		Booking: bookingItem(res.Booking, cl, now), Late: res.Late, ClipRestored: res.ClipRestored,
		PromotedCount: res.PromotedCount,
	}}, nil
}

// ownerActor resolves the actor of a call on booking id: for a user, their
// relationship with the booking's venue (their own bookings only); for an
// API key, the booking's member.
func (h *Handler) ownerActor(ctx context.Context, id uuid.UUID) (context.Context, booking.Actor, error) {
	if u, ok := viewer.UserFromContext(ctx); ok {
		b, err := booking.GetOwn(ctx, h.client, u.UserID, id)
		if err != nil {
			return nil, booking.Actor{}, err
		}
		return booking.AsMember(ctx, h.client, b.OrganizationID)
	}
	b, err := booking.Get(ctx, h.client, booking.Actor{}, id)
	if err != nil {
		return nil, booking.Actor{}, err
	}
	a, err := booking.ForClient(ctx, h.client, &b.MemberID, "", entbooking.BookedViaAPIKey)
	if err != nil {
		return nil, booking.Actor{}, booking.ErrBookingNotFound
	}
	return ctx, a, nil
}

// ListBookings implements listBookings: the user's own bookings.
func (h *Handler) ListBookings(ctx context.Context, p api.ListBookingsParams) (*api.BookingListResponse, error) {
	u, ok := viewer.UserFromContext(ctx)
	if !ok {
		return nil, apperr.Unauthorized("a user session is required")
	}
	signer, err := h.cursorSigner()
	if err != nil {
		return nil, err
	}
	f := booking.ListFilter{Org: p.OrganizationID.Or(p.XOrganizationID.Or(uuid.Nil)), Limit: p.Limit.Or(20)}
	if err := h.cycle(ctx, p, &f); err != nil {
		return nil, err
	}
	list := "bookings:" + u.UserID.String() + ":" + f.Org.String() + ":" + f.From.String() + ":" + f.To.String()
	var key booking.Key
	if ok, err := signer.After(list, p.After.Or(""), &key); err != nil {
		return nil, err
	} else if ok {
		f.After = &key
	}
	rows, err := booking.ListOwn(ctx, h.client, u.UserID, f)
	if err != nil {
		return nil, err
	}
	rows, meta, err := pagination.Next(signer, list, rows, f.Limit, func(b *ent.Booking) any { return booking.KeyOf(b) })
	if err != nil {
		return nil, err
	}
	now := h.now()
	out := &api.BookingListResponse{Data: make([]api.BookingItem, 0, len(rows)),
		Meta: api.BookingListMeta{Limit: meta.Limit, HasMore: meta.HasMore, NextCursor: bkNilString(meta.NextCursor)}}
	for _, b := range rows {
		out.Data = append(out.Data, bookingItem(b, b.Edges.ClassInstance, now))
	}
	return out, nil
}

// cycle turns cycle_start and cycle_end (venue-local dates, inclusive) into
// the filter's start-time bounds; they need organization_id.
func (h *Handler) cycle(ctx context.Context, p api.ListBookingsParams, f *booking.ListFilter) error {
	start, hasStart := p.CycleStart.Get()
	end, hasEnd := p.CycleEnd.Get()
	if !hasStart && !hasEnd {
		return nil
	}
	if f.Org == uuid.Nil {
		return apperr.Validation("organization_id", "cycle_start and cycle_end need organization_id")
	}
	loc, err := booking.VenueLocationOf(ctx, h.client, f.Org)
	if err != nil {
		return err
	}
	parse := func(name, v string) (time.Time, error) {
		d, err := time.ParseInLocation(time.DateOnly, v, loc)
		if err != nil {
			return time.Time{}, apperr.Validation(name, name+" must be a date (YYYY-MM-DD)")
		}
		if e := input.Date(d); e != nil {
			return time.Time{}, apperr.Validation(name, name+" "+e.Reason)
		}
		return d, nil
	}
	if hasStart {
		if f.From, err = parse("cycle_start", start); err != nil {
			return err
		}
	}
	if hasEnd {
		d, err := parse("cycle_end", end)
		if err != nil {
			return err
		}
		if hasStart && d.Before(f.From) {
			return schedule.ErrInvalidRange("cycle_end", "cycle_end is before cycle_start")
		}
		f.To = d.AddDate(0, 0, 1)
	}
	return nil
}
