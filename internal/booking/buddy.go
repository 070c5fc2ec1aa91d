package booking

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/google/uuid"

	"github.com/venueplatform/venue/ent"
	entbooking "github.com/venueplatform/venue/ent/booking"
	"github.com/venueplatform/venue/ent/buddyinvite"
	"github.com/venueplatform/venue/ent/member"
	"github.com/venueplatform/venue/ent/user"
	"github.com/venueplatform/venue/internal/apperr"
	"github.com/venueplatform/venue/internal/audit"
	"github.com/venueplatform/venue/internal/events"
	"github.com/venueplatform/venue/internal/system"
)

// Invitee names the client a member invites: by the venue's client id or by
// the email of their account.
type Invitee struct {
	ClientID string
	Email    string
}

// InviteBuddy invites another client of the venue to a class the actor's
// member holds a confirmed (or checked-in) seat in. The invitee must be an
// active client of the same venue (else CLIENT_NOT_FOUND) without a live
// booking of the class (ALREADY_BOOKED); the class must still be open to
// booking. An open invitation of the same invitee by the same member is
// returned again instead of a second one. It expires at the class's start.
func InviteBuddy(ctx context.Context, client *ent.Client, a Actor, classID uuid.UUID, who Invitee, message string, now time.Time) (*ent.BuddyInvite, error) {
	var inv *ent.BuddyInvite
	err := events.WithTx(ctx, client, func(ctx context.Context, tx *ent.Tx) error {
		c := tx.Client()
		cl, err := c.ClassInstance.Get(ctx, classID)
		if ent.IsNotFound(err) || (err == nil && a.Self && !cl.Listed) {
			return ErrClassNotFound
		}
		if err != nil {
			return fmt.Errorf("booking: buddy: %w", err)
		}
		pol, err := LoadPolicy(ctx, c)
		if err != nil {
			return err
		}
		if err := bookable(cl, pol, now); err != nil {
			return err
		}
		own, err := c.Booking.Query().Where(entbooking.ClassInstanceID(classID), entbooking.MemberID(a.Member.ID),
			entbooking.StatusIn(entbooking.StatusConfirmed, entbooking.StatusCheckedIn)).First(ctx)
		if ent.IsNotFound(err) {
			return unprocessable(CodeInviterNotConfirmed, "inviting a buddy needs a confirmed booking of the class")
		}
		if err != nil {
			return fmt.Errorf("booking: buddy: %w", err)
		}
		invitee, err := findInvitee(ctx, c, who)
		if err != nil {
			return err
		}
		if invitee.ID == a.Member.ID {
			return apperr.Validation("invitee", "a member cannot invite themselves")
		}
		// System call site: the invitee's bookings are another member's rows,
		// which a member viewer cannot see; only whether one exists is read,
		// for the invitee and the class found above in the viewer's venue.
		dup, err := c.Booking.Query().Where(entbooking.ClassInstanceID(classID), entbooking.MemberID(invitee.ID),
			entbooking.StatusIn(Live...)).Exist(system.CrossMembers(ctx, "booking.buddy_invitee"))
		if err != nil {
			return fmt.Errorf("booking: buddy: %w", err)
		}
		if dup {
			return (&apperr.Error{Status: 409, Code: CodeAlreadyBooked, Message: "the invitee already holds a booking for this class"})
		}
		open, err := c.BuddyInvite.Query().Where(buddyinvite.ClassInstanceID(classID), buddyinvite.InviterMemberID(a.Member.ID),
			buddyinvite.InviteeMemberID(invitee.ID), buddyinvite.StatusEQ(buddyinvite.StatusPending)).First(ctx)
		if err != nil && !ent.IsNotFound(err) {
			return fmt.Errorf("booking: buddy: %w", err)
		}
		if open != nil {
			inv = open
			return nil
		}
		inv, err = c.BuddyInvite.Create().SetClassInstanceID(classID).SetInviterMemberID(a.Member.ID).
			SetInviterBookingID(own.ID).SetInviteeMemberID(invitee.ID).SetMessage(message).
			SetExpiresAt(cl.StartTime).Save(ctx)
		if err != nil {
			return fmt.Errorf("booking: buddy: %w", err)
		}
		return inviteAudit(ctx, c, "booking.buddy_invited", inv)
	})
	if err != nil {
		return nil, err
	}
	return inv, nil
}

// findInvitee returns the active member of the viewer's venue named by who.
func findInvitee(ctx context.Context, c *ent.Client, who Invitee) (*ent.Member, error) {
	q := c.Member.Query().Where(member.StatusEQ(member.StatusActive))
	switch {
	case who.ClientID != "":
		q.Where(member.ClientDisplayID(who.ClientID))
	case who.Email != "":
		q.Where(member.HasUserWith(user.EmailEQ(strings.ToLower(strings.TrimSpace(who.Email)))))
	default:
		return nil, apperr.Validation("invitee_client_id", "invitee_client_id or invitee_email is required")
	}
	m, err := q.First(ctx)
	if ent.IsNotFound(err) {
		return nil, ErrClientNotFound
	}
	if err != nil {
		return nil, fmt.Errorf("booking: invitee: %w", err)
	}
	return m, nil
}

// AcceptBuddy accepts invitation id for the actor's member (its invitee;
// anyone else's is not found): the invitee is booked into the class with the
// ordinary rules and their own pass (confirmed or waitlisted), and the
// invitation records the booking. A refused booking leaves the invitation
// open; an invitation that is not pending is 422 INVITE_NOT_PENDING
// (details.status), one past the class's start is expired.
//
// key, when not empty, identifies the request (see Request.Key): the booking
// keeps it, and a retry with the same key of an acceptance that committed
// but never stored its answer (the server died in between) gets that
// acceptance back (Result.Replayed) instead of INVITE_NOT_PENDING.
func AcceptBuddy(ctx context.Context, client *ent.Client, a Actor, id uuid.UUID, passID *uuid.UUID, key string, now time.Time) (*ent.BuddyInvite, *Result, error) {
	var (
		inv *ent.BuddyInvite
		res *Result
	)
	err := events.WithTx(ctx, client, func(ctx context.Context, tx *ent.Tx) error {
		c := tx.Client()
		var err error
		inv, err = c.BuddyInvite.Query().Where(buddyinvite.ID(id), buddyinvite.InviteeMemberID(a.Member.ID)).Only(ctx)
		if ent.IsNotFound(err) {
			return apperr.NotFound("invitation")
		}
		if err != nil {
			return fmt.Errorf("booking: accept: %w", err)
		}
		if inv.Status == buddyinvite.StatusPending && !now.Before(inv.ExpiresAt) {
			inv.Status = buddyinvite.StatusExpired
		}
		if inv.Status == buddyinvite.StatusAccepted && key != "" && inv.BookingID != nil {
			prev, err := c.Booking.Get(ctx, *inv.BookingID)
			if err != nil {
				return fmt.Errorf("booking: accepted invitation's booking: %w", err)
			}
			if prev.RequestKey != nil && *prev.RequestKey == key {
				cl, err := c.ClassInstance.Get(ctx, prev.ClassInstanceID)
				if err != nil {
					return fmt.Errorf("booking: accepted invitation's class: %w", err)
				}
				res = &Result{Booking: prev, Class: cl, Replayed: true}
				return nil
			}
		}
		if inv.Status != buddyinvite.StatusPending {
			return unprocessable(CodeInviteNotPending, "the invitation is no longer open").With("status", string(inv.Status))
		}
		res, err = book(ctx, c, Actor{Member: a.Member, Self: a.Self, Via: entbooking.BookedViaBuddy},
			Request{ClassID: inv.ClassInstanceID, PassID: passID, Key: key}, now)
		if err != nil {
			return err
		}
		inv, err = c.BuddyInvite.UpdateOne(inv).SetStatus(buddyinvite.StatusAccepted).
			SetBookingID(res.Booking.ID).SetRespondedAt(now).Save(ctx)
		if err != nil {
			return fmt.Errorf("booking: accept: %w", err)
		}
		return inviteAudit(ctx, c, "booking.buddy_accepted", inv)
	})
	if err != nil {
		return nil, nil, err
	}
	return inv, res, nil
}

func inviteAudit(ctx context.Context, c *ent.Client, action string, inv *ent.BuddyInvite) error {
	e := audit.Entry{Action: action, Target: "buddy_invite:" + inv.ID.String(), Details: map[string]any{
		"class_instance_id": inv.ClassInstanceID.String(), "inviter_member_id": inv.InviterMemberID.String(),
		"invitee_member_id": inv.InviteeMemberID.String(), "status": string(inv.Status),
	}}
	if inv.BookingID != nil {
		e.Details["booking_id"] = inv.BookingID.String()
	}
	_, err := audit.Record(ctx, c, withUser(ctx, e))
	return err
}
