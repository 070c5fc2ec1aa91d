package handlers

import (
	"context"

	"github.com/venueplatform/venue/internal/booking"
	api "github.com/venueplatform/venue/internal/gen/api"
	"github.com/venueplatform/venue/internal/gen/apient"
	"github.com/venueplatform/venue/internal/idempotency"
	"github.com/venueplatform/venue/internal/viewer"
)

// InviteBookingBuddy implements inviteBookingBuddy.
func (h *Handler) InviteBookingBuddy(ctx context.Context, req *api.BookingBuddyInviteRequest, p api.InviteBookingBuddyParams) (*api.BookingBuddyInviteResponse, error) {
	actx, a, err := booking.AsMember(ctx, h.client, p.XOrganizationID)
	if err != nil {
		return nil, err
	}
	who := booking.Invitee{ClientID: req.InviteeClientID.Or(""), Email: req.InviteeEmail.Or("")}
	inv, err := booking.InviteBuddy(actx, h.client, a, req.ClassInstanceID, who, req.Message.Or(""), h.now())
	if err != nil {
		return nil, err
	}
	return &api.BookingBuddyInviteResponse{Data: apient.BookingBuddyInvite(inv)}, nil
}

// AcceptBookingBuddy implements acceptBookingBuddy.
func (h *Handler) AcceptBookingBuddy(ctx context.Context, p api.AcceptBookingBuddyParams) (*api.BookingBuddyAcceptResponse, error) {
	actx, a, err := booking.AsMember(ctx, h.client, p.XOrganizationID)
	if err != nil {
		return nil, err
	}
	now := h.now()
	// With an Idempotency-Key the booking remembers its request: a retry
	// after a crash that lost the stored answer gets the same acceptance.
	key, _ := idempotency.Derive(ctx, "acceptBookingBuddy")
	inv, res, err := booking.AcceptBuddy(actx, h.client, a, p.ID, nil, key, now)
	if err != nil {
		return nil, err
	}
	return &api.BookingBuddyAcceptResponse{Data: api.BookingBuddyAcceptance{
		Invite: apient.BookingBuddyInvite(inv), Booking: bookingItem(res.Booking, res.Class, now),
	}}, nil
}

// AdmitBookingWatch implements admitBookingWatch.
func (h *Handler) AdmitBookingWatch(ctx context.Context, p api.AdmitBookingWatchParams) (*api.BookingWatchResponse, error) {
	if _, ok := viewer.UserFromContext(ctx); !ok {
		return nil, booking.ErrBookingNotFound
	}
	actx, a, err := h.ownerActor(ctx, p.ID)
	if err != nil {
		return nil, err
	}
	b, w, err := booking.Admit(actx, h.client, a, p.ID, h.now())
	if err != nil {
		return nil, err
	}
	return &api.BookingWatchResponse{Data: api.BookingWatchAdmission{BookingID: b.ID, Watch: watchView(w)}}, nil
}
