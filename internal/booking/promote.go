package booking

import (
	"context"
	"fmt"
	"time"

	"entgo.io/ent/dialect/sql"
	"github.com/google/uuid"

	"github.com/venueplatform/venue/ent"
	entbooking "github.com/venueplatform/venue/ent/booking"
	"github.com/venueplatform/venue/ent/classinstance"
	"github.com/venueplatform/venue/internal/events"
	"github.com/venueplatform/venue/internal/system"
)

// Promote fills the free seats of a class from its waitlist (see promote);
// for staff actions that free seats (a capacity raise). It runs in its own
// transaction, or in the caller's (events.WithTx).
func Promote(ctx context.Context, client *ent.Client, classID uuid.UUID, now time.Time) ([]*ent.Booking, error) {
	var out []*ent.Booking
	err := events.WithTx(ctx, client, func(ctx context.Context, tx *ent.Tx) error {
		if _, err := lockClass(ctx, tx.Client(), classID); err != nil {
			return err
		}
		var err error
		out, err = promote(ctx, tx.Client(), classID, now)
		return err
	})
	return out, err
}

// promote gives the free seats of a class, whose lock the caller holds, to
// its waitlist in order, before the class starts: each promoted booking
// takes a clip from its own pass, or from another eligible pass of the
// member's when its own can no longer book; a member with no eligible pass
// is skipped and keeps their place. booking.promoted is recorded for each.
func promote(ctx context.Context, c *ent.Client, classID uuid.UUID, now time.Time) ([]*ent.Booking, error) {
	// The class row as the trigger left it (counts changed in this transaction).
	cl, err := c.ClassInstance.Get(ctx, classID)
	if err != nil {
		return nil, fmt.Errorf("booking: promote: %w", err)
	}
	free := cl.Capacity - cl.BookedCount
	if free <= 0 || cl.Status != classinstance.StatusScheduled || !now.Before(cl.StartTime) {
		return nil, nil
	}
	// The waitlisted bookings and their passes are other members' rows (the
	// seat is often freed by another member): they are read, charged and
	// confirmed at a named site, not as the acting viewer, and only through
	// the class read above in the viewer's venue.
	pctx := system.Allow(ctx, "booking.waitlist_promotion")
	// Waitlist order: position, then arrival. A row without a position (one
	// written before positions existed, or by an import) waits behind every
	// ranked one, in arrival order.
	waiting, err := c.Booking.Query().Where(entbooking.ClassInstanceID(classID), entbooking.StatusEQ(entbooking.StatusWaitlisted)).
		Order(entbooking.ByWaitlistPosition(sql.OrderNullsLast()), entbooking.ByCreatedAt(), entbooking.ByID()).All(pctx)
	if err != nil || len(waiting) == 0 {
		return nil, err
	}
	loc, err := venueLocation(ctx, c)
	if err != nil {
		return nil, err
	}
	ci, err := loadClassInfo(ctx, c, cl, loc)
	if err != nil {
		return nil, err
	}
	var out []*ent.Booking
	for _, w := range waiting {
		if free == 0 {
			break
		}
		// No member lock here: a promotion checks no daily limit, and the clip
		// is taken by a conditional update, so taking several members' locks
		// in waitlist order (a deadlock risk across classes) buys nothing.
		p, err := promotionPass(pctx, c, w, ci)
		if err != nil {
			return nil, err
		}
		if p == nil {
			continue // skipped: keeps their place
		}
		charged, ok, err := takeClip(pctx, c, p)
		if err != nil {
			return nil, err
		}
		if !ok {
			continue
		}
		// Positions moved up with every promotion before this one.
		if w, err = c.Booking.Get(pctx, w.ID); err != nil {
			return nil, fmt.Errorf("booking: promote: %w", err)
		}
		pos := w.WaitlistPosition // nil for an unranked row: no gap to close
		nb, err := c.Booking.UpdateOne(w).SetStatus(entbooking.StatusConfirmed).ClearWaitlistPosition().
			SetPassID(p.ID).SetClipCharged(charged).SetPromotedAt(now).Save(pctx)
		if err != nil {
			return nil, fmt.Errorf("booking: promote: %w", err)
		}
		if pos != nil {
			if err := closeGap(ctx, c, classID, *pos); err != nil {
				return nil, err
			}
		}
		if err := record(ctx, c, events.BookingPromoted, nb, map[string]any{"start_time": utc(cl.StartTime)}); err != nil {
			return nil, err
		}
		out = append(out, nb)
		free--
	}
	return out, nil
}

// promotionPass returns the pass a waitlisted booking is promoted with: its
// own when still eligible, else the member's best eligible pass; nil when
// none.
func promotionPass(ctx context.Context, c *ent.Client, w *ent.Booking, ci classInfo) (*ent.Pass, error) {
	ps, err := memberPasses(ctx, c, w.MemberID, nil)
	if err != nil {
		return nil, err
	}
	if w.PassID != nil {
		for _, p := range ps {
			if p.ID == *w.PassID {
				if e, _ := checkPass(p, ci); e == nil {
					return p, nil
				}
			}
		}
	}
	p, err := choosePass(ps, ci, false)
	if err != nil {
		return nil, nil
	}
	return p, nil
}
