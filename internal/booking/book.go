package booking

import (
	"context"
	"fmt"
	"time"

	"github.com/google/uuid"

	"github.com/venueplatform/venue/ent"
	entbooking "github.com/venueplatform/venue/ent/booking"
	"github.com/venueplatform/venue/ent/classinstance"
	"github.com/venueplatform/venue/internal/events"
	"github.com/venueplatform/venue/internal/system"
)

// Request is a booking request for the Actor's member.
type Request struct {
	ClassID uuid.UUID
	// PassID names the pass to book with; nil chooses the best eligible one.
	PassID *uuid.UUID
	// Key identifies the caller's request across its retries (a digest of
	// venue, principal and Idempotency-Key; empty without a key). It is kept
	// on the booking, so that a retry whose first attempt committed the
	// booking but never stored its answer (the server died in between) gets
	// that booking back, Replayed, instead of ALREADY_BOOKED.
	Key string
}

// Result is a new booking: confirmed, or waitlisted when the class is full.
type Result struct {
	Booking *ent.Booking
	Class   *ent.ClassInstance
	Pass    *ent.Pass
	// Replayed: the booking was made earlier by a request with the same Key;
	// nothing changed now (no clip, no event, no audit entry).
	Replayed bool
}

// Book books the actor's member into a class, under the class lock: a seat
// when one is free (booking.created, one clip taken), else a waitlist place
// at the end of the line (booking.waitlisted, no clip yet). The refusals are
// the package's errors (class not found or not bookable, window, daily
// limit, duplicate, pass eligibility). It runs in its own transaction, or in
// the caller's (events.WithTx).
func Book(ctx context.Context, client *ent.Client, a Actor, r Request, now time.Time) (*Result, error) {
	var res *Result
	err := events.WithTx(ctx, client, func(ctx context.Context, tx *ent.Tx) error {
		var err error
		res, err = book(ctx, tx.Client(), a, r, now)
		return err
	})
	if err != nil {
		return nil, err
	}
	return res, nil
}

func book(ctx context.Context, c *ent.Client, a Actor, r Request, now time.Time) (*Result, error) {
	pol, err := LoadPolicy(ctx, c)
	if err != nil {
		return nil, err
	}
	loc, err := venueLocation(ctx, c)
	if err != nil {
		return nil, err
	}
	cl, err := lockClass(ctx, c, r.ClassID)
	if err != nil {
		return nil, err
	}
	if r.Key != "" {
		// Before every rule: the first attempt's answer stands even if the
		// class has filled, closed or started since.
		prev, err := c.Booking.Query().Where(entbooking.MemberID(a.Member.ID), entbooking.ClassInstanceID(cl.ID),
			entbooking.RequestKey(r.Key)).First(ctx)
		if err != nil && !ent.IsNotFound(err) {
			return nil, fmt.Errorf("booking: earlier attempt: %w", err)
		}
		if prev != nil {
			var p *ent.Pass
			if prev.PassID != nil {
				if p, err = c.Pass.Get(ctx, *prev.PassID); err != nil {
					return nil, fmt.Errorf("booking: earlier attempt's pass: %w", err)
				}
			}
			return &Result{Booking: prev, Class: cl, Pass: p, Replayed: true}, nil
		}
	}
	if a.Self && !cl.Listed {
		return nil, ErrClassNotFound
	}
	if err := bookable(cl, pol, now); err != nil {
		return nil, err
	}
	if err := lockMember(ctx, c, a.Member.ID); err != nil {
		return nil, err
	}
	dup, err := c.Booking.Query().Where(entbooking.ClassInstanceID(cl.ID), entbooking.MemberID(a.Member.ID),
		entbooking.StatusIn(Live...)).First(ctx)
	if err != nil && !ent.IsNotFound(err) {
		return nil, fmt.Errorf("booking: duplicate: %w", err)
	}
	if dup != nil {
		return nil, alreadyBooked(dup.ID)
	}
	if err := checkDailyLimit(ctx, c, a.Member.ID, cl, pol, loc); err != nil {
		return nil, err
	}
	ci, err := loadClassInfo(ctx, c, cl, loc)
	if err != nil {
		return nil, err
	}
	ps, err := memberPasses(ctx, c, a.Member.ID, r.PassID)
	if err != nil {
		// The passes come with their brand and class-type restrictions: without
		// them no pass can be shown to allow the class.
		return nil, withCause(errRestrictionUnverify, err)
	}
	p, err := choosePass(ps, ci, r.PassID != nil)
	if err != nil {
		// None of the member's own passes can: one shared with it (shared.go).
		sp, serr := chooseShared(ctx, c, a.Member.ID, r.PassID, ci, loc)
		switch {
		case sp != nil:
			p, err = sp, nil
			ctx = withSharedPasses(ctx)
		case serr != nil && len(ps) == 0:
			err = serr
		}
	}
	if err != nil {
		return nil, err
	}
	create := c.Booking.Create().SetMemberID(a.Member.ID).SetClassInstanceID(cl.ID).SetPassID(p.ID).
		SetBookedVia(a.Via).SetNillableRequestKey(nilIfEmpty(r.Key)).
		// Taken under the class lock: created_at orders a class's bookings by arrival.
		SetCreatedAt(time.Now()).SetUpdatedAt(time.Now())
	typ := events.BookingCreated
	if cl.BookedCount < cl.Capacity {
		charged, ok, err := takeClip(ctx, c, p)
		if err != nil {
			return nil, err
		}
		if !ok {
			return nil, passNotUsable(ReasonNoClips)
		}
		create.SetStatus(entbooking.StatusConfirmed).SetClipCharged(charged)
	} else {
		pos, err := nextWaitlistPosition(ctx, c, cl)
		if err != nil {
			return nil, err
		}
		create.SetStatus(entbooking.StatusWaitlisted).SetWaitlistPosition(pos)
		typ = events.BookingWaitlisted
	}
	b, err := create.Save(ctx)
	if err != nil {
		return nil, fmt.Errorf("booking: create: %w", err)
	}
	extra := map[string]any{"start_time": utc(cl.StartTime)}
	if b.WaitlistPosition != nil {
		extra["waitlist_position"] = *b.WaitlistPosition
	}
	if err := record(ctx, c, typ, b, extra); err != nil {
		return nil, err
	}
	if err := auditEntry(ctx, c, "booking.created", b, map[string]any{
		"status": string(b.Status), "class_instance_id": cl.ID.String(), "member_id": a.Member.ID.String(),
		"pass_id": p.ID.String(), "booked_via": string(a.Via),
	}); err != nil {
		return nil, err
	}
	return &Result{Booking: b, Class: cl, Pass: p}, nil
}

// bookable refuses a class that is not scheduled, has started, or is
// outside the policy's booking window at now.
func bookable(cl *ent.ClassInstance, pol Policy, now time.Time) error {
	switch {
	case cl.Status == classinstance.StatusCancelled:
		return classNotBookable("cancelled")
	case cl.Status == classinstance.StatusCompleted:
		return classNotBookable("completed")
	case cl.Status == classinstance.StatusLive || !now.Before(cl.StartTime):
		return classNotBookable("started")
	}
	opens, closes := pol.Window(cl.StartTime)
	if now.Before(opens) {
		return notOpen(opens)
	}
	if !now.Before(closes) {
		return closed(closes)
	}
	return nil
}

// checkDailyLimit refuses a booking past the policy's daily limit: the
// member's live bookings whose classes start on the class's venue-local day.
func checkDailyLimit(ctx context.Context, c *ent.Client, member uuid.UUID, cl *ent.ClassInstance, pol Policy, loc *time.Location) error {
	if pol.DailyLimit <= 0 {
		return nil
	}
	y, m, d := cl.StartTime.In(loc).Date()
	from := time.Date(y, m, d, 0, 0, 0, 0, loc)
	to := from.AddDate(0, 0, 1)
	n, err := c.Booking.Query().Where(entbooking.MemberID(member), entbooking.StatusIn(Live...),
		entbooking.HasClassInstanceWith(classinstance.StartTimeGTE(from), classinstance.StartTimeLT(to))).Count(ctx)
	if err != nil {
		return fmt.Errorf("booking: daily limit: %w", err)
	}
	if n >= pol.DailyLimit {
		return dailyLimit(pol.DailyLimit)
	}
	return nil
}

func nilIfEmpty(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

// nextWaitlistPosition is the rank a new waitlist place of cl (locked) takes:
// after the ranked places. The class's waitlist count includes unranked
// (imported) places, which wait behind the ranked ones, so it counts them
// only when there are any.
func nextWaitlistPosition(ctx context.Context, c *ent.Client, cl *ent.ClassInstance) (int, error) {
	if cl.WaitlistCount == 0 {
		return 1, nil
	}
	// System call site: the places ahead are other members' bookings, which a
	// member viewer cannot see; only their number is read, in the class the
	// caller locked (found in the viewer's venue).
	n, err := c.Booking.Query().Where(entbooking.ClassInstanceID(cl.ID), entbooking.StatusEQ(entbooking.StatusWaitlisted),
		entbooking.WaitlistPositionNotNil()).Count(system.CrossMembers(ctx, "booking.waitlist_rank"))
	if err != nil {
		return 0, fmt.Errorf("booking: waitlist position: %w", err)
	}
	return n + 1, nil
}
