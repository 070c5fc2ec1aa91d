package handlers_test

import (
	"context"
	"net/http"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/stretchr/testify/require"

	"github.com/venueplatform/venue/ent/auditlog"
	"github.com/venueplatform/venue/internal/booking"
	api "github.com/venueplatform/venue/internal/gen/api"
)

func buddyParams(org uuid.UUID) api.InviteBookingBuddyParams {
	return api.InviteBookingBuddyParams{XOrganizationID: org, IdempotencyKey: uuid.NewString()}
}

// TestBookingBuddy: inviting needs a confirmed booking and an existing
// client of the venue; the invitee accepts and is booked with their own
// pass; only the invitee can accept, once; another venue's clients and
// classes are not found.
func TestBookingBuddy(t *testing.T) {
	e := newBookEnv(t, "studio")
	ctx := context.Background()
	cl := e.class(t, e.op, e.classType, 48*time.Hour, 5)
	ana := e.member(t, e.op, "ana@example.com", e.ten, ptrInt(5))
	bo := e.member(t, e.op, "bo@example.com", e.ten, ptrInt(5))
	cy := e.member(t, e.op, "cy@example.com", e.ten, ptrInt(5))
	req := &api.BookingBuddyInviteRequest{ClassInstanceID: cl.ID, InviteeEmail: api.NewOptString("bo@example.com"), Message: api.NewOptString("join me")}

	_, err := ana.c.InviteBookingBuddy(ctx, req, buddyParams(e.venue.ID))
	requireCode(t, err, http.StatusUnprocessableEntity, booking.CodeInviterNotConfirmed)
	_, err = ana.c.CreateBooking(ctx, bookReq(cl.ID), inVenue(e.venue.ID))
	require.NoError(t, err)
	inv, err := ana.c.InviteBookingBuddy(ctx, req, buddyParams(e.venue.ID))
	require.NoError(t, err)
	require.Equal(t, bo.m.ID, inv.Data.InviteeMemberID)
	require.Equal(t, api.BookingBuddyInviteStatusPending, inv.Data.Status)
	require.Equal(t, cl.StartTime.UTC(), inv.Data.ExpiresAt)
	require.Equal(t, 1, e.client.AuditLog.Query().Where(auditlog.Action("booking.buddy_invited")).CountX(e.op))

	// Someone else cannot accept it.
	_, err = cy.c.AcceptBookingBuddy(ctx, api.AcceptBookingBuddyParams{ID: inv.Data.ID, XOrganizationID: e.venue.ID})
	requireCode(t, err, http.StatusNotFound, "NOT_FOUND")
	acc, err := bo.c.AcceptBookingBuddy(ctx, api.AcceptBookingBuddyParams{ID: inv.Data.ID, XOrganizationID: e.venue.ID})
	require.NoError(t, err)
	require.Equal(t, api.BookingBuddyInviteStatusAccepted, acc.Data.Invite.Status)
	require.Equal(t, api.BookingStatusConfirmed, acc.Data.Booking.Status)
	require.Equal(t, "buddy", acc.Data.Booking.BookedVia.Value)
	require.Equal(t, bo.pass.ID, acc.Data.Booking.PassID.Value)
	require.Equal(t, acc.Data.Booking.ID, acc.Data.Invite.BookingID.Value)
	_, err = bo.c.AcceptBookingBuddy(ctx, api.AcceptBookingBuddyParams{ID: inv.Data.ID, XOrganizationID: e.venue.ID})
	requireCode(t, err, http.StatusUnprocessableEntity, booking.CodeInviteNotPending)

	// The invitee already holds a booking now.
	_, err = ana.c.InviteBookingBuddy(ctx, req, buddyParams(e.venue.ID))
	requireCode(t, err, http.StatusConflict, booking.CodeAlreadyBooked)
	// Unknown client id, missing key.
	_, err = ana.c.InviteBookingBuddy(ctx, &api.BookingBuddyInviteRequest{ClassInstanceID: cl.ID, InviteeClientID: api.NewOptString("C-9999")}, buddyParams(e.venue.ID))
	requireCode(t, err, http.StatusNotFound, booking.CodeClientNotFound)

	// Cross-venue: venue B's client and class are not found from venue A,
	// and venue A's invitation cannot be accepted in venue B.
	b := e.venueB(t, "other")
	e.member(t, b.op, "dee@example.com", b.ten, ptrInt(2))
	_, err = ana.c.InviteBookingBuddy(ctx, &api.BookingBuddyInviteRequest{ClassInstanceID: cl.ID, InviteeEmail: api.NewOptString("dee@example.com")}, buddyParams(e.venue.ID))
	requireCode(t, err, http.StatusNotFound, booking.CodeClientNotFound)
	_, err = ana.c.InviteBookingBuddy(ctx, &api.BookingBuddyInviteRequest{ClassInstanceID: b.class.ID, InviteeEmail: api.NewOptString("cy@example.com")}, buddyParams(e.venue.ID))
	requireCode(t, err, http.StatusNotFound, booking.CodeClassNotFound)
	inv2, err := ana.c.InviteBookingBuddy(ctx, &api.BookingBuddyInviteRequest{ClassInstanceID: cl.ID, InviteeEmail: api.NewOptString("cy@example.com")}, buddyParams(e.venue.ID))
	require.NoError(t, err)
	e.member(t, b.op, "cy@example.com", nil, nil)
	_, err = cy.c.AcceptBookingBuddy(ctx, api.AcceptBookingBuddyParams{ID: inv2.Data.ID, XOrganizationID: b.org})
	requireCode(t, err, http.StatusNotFound, "NOT_FOUND")
}
