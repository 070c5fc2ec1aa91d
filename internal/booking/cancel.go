package booking

import (
	"context"
	"fmt"
	"time"

	"github.com/google/uuid"

	"github.com/venueplatform/venue/ent"
	"github.com/venueplatform/venue/ent/auditlog"
	entbooking "github.com/venueplatform/venue/ent/booking"
	"github.com/venueplatform/venue/ent/classinstance"
	"github.com/venueplatform/venue/internal/events"
)

// Cancel reasons of member cancellations (cancel_reason, event data.reason).
const (
	ReasonMember     = "member"
	ReasonLateMember = "late_member"
)

// CancelResult is a cancelled booking and what the cancellation did.
type CancelResult struct {
	Booking *ent.Booking
	// Late is true for a late cancellation.
	Late bool
	// ClipRestored is true when the booking's clip went back to its pass.
	ClipRestored bool
	// Promoted are the waitlisted bookings that took the freed seat (empty
	// on a replay).
	Promoted []*ent.Booking
	// PromotedCount is how many took the freed seat, also on a replay.
	PromotedCount int
	// Replayed is true when the answer is that of an earlier attempt of the
	// same request (same Idempotency-Key): nothing changed this time.
	Replayed bool
}

// Get returns a booking the actor may see: with Self, only the member's own
// (another member's is ErrBookingNotFound, exactly like an unknown id).
func Get(ctx context.Context, client *ent.Client, a Actor, id uuid.UUID) (*ent.Booking, error) {
	q := client.Booking.Query().Where(entbooking.ID(id))
	if a.Self {
		q.Where(entbooking.MemberID(a.Member.ID))
	}
	b, err := q.WithClassInstance().Only(ctx)
	if ent.IsNotFound(err) {
		return nil, ErrBookingNotFound
	}
	if err != nil {
		return nil, fmt.Errorf("booking: get: %w", err)
	}
	return b, nil
}

// Cancel cancels booking id for the actor (Self: only the member's own):
// a waitlist place is simply left; a seat cancelled before the policy's
// late-cancellation window becomes cancelled with its clip restored; inside
// the window it becomes late-cancelled, the clip is forfeited (unless the
// policy says otherwise) and the policy's fee is recorded as unpaid. Nobody
// cancels after the class started, nor an attended or already cancelled
// booking (NOT_CANCELLABLE). A freed seat is offered to the waitlist.
//
// key, when not empty, identifies the request (see idempotency.Derive): it is
// kept on the booking, and a retry carrying the same key after the booking
// was cancelled by it gets that cancellation back (Replayed) instead of
// NOT_CANCELLABLE, so a retry whose first answer was lost in a crash is safe.
func Cancel(ctx context.Context, client *ent.Client, a Actor, id uuid.UUID, key string, now time.Time) (*CancelResult, error) {
	var res *CancelResult
	err := events.WithTx(ctx, client, func(ctx context.Context, tx *ent.Tx) error {
		var err error
		res, err = cancel(ctx, tx.Client(), a, id, key, now)
		return err
	})
	if err != nil {
		return nil, err
	}
	return res, nil
}

func cancel(ctx context.Context, c *ent.Client, a Actor, id uuid.UUID, key string, now time.Time) (*CancelResult, error) {
	b, err := Get(ctx, c, a, id)
	if err != nil {
		return nil, err
	}
	pol, err := LoadPolicy(ctx, c)
	if err != nil {
		return nil, err
	}
	cl, err := lockClass(ctx, c, b.ClassInstanceID)
	if err != nil {
		return nil, err
	}
	// Re-read under the lock: the status may have changed while waiting.
	if b, err = c.Booking.Get(ctx, id); err != nil {
		return nil, fmt.Errorf("booking: cancel: %w", err)
	}
	switch b.Status {
	case entbooking.StatusCancelled, entbooking.StatusLateCancelled:
		if key != "" && b.CancelRequestKey != nil && *b.CancelRequestKey == key {
			return replayCancel(ctx, c, b)
		}
		return nil, notCancellable("already_cancelled")
	case entbooking.StatusCheckedIn, entbooking.StatusNoShow:
		return nil, notCancellable("attended")
	}
	if cl.Status == classinstance.StatusCompleted || !now.Before(cl.StartTime) {
		return nil, notCancellable("started")
	}
	res := &CancelResult{}
	upd := c.Booking.UpdateOne(b).SetCancelledAt(now).ClearWaitlistPosition()
	reason := ReasonMember
	switch {
	case b.Status == entbooking.StatusWaitlisted:
		upd.SetStatus(entbooking.StatusCancelled)
	case pol.IsLate(cl.StartTime, now):
		res.Late, reason = true, ReasonLateMember
		upd.SetStatus(entbooking.StatusLateCancelled)
		if !pol.LateCancelForfeitsClip && b.ClipCharged {
			res.ClipRestored = true
		}
		var passType *uuid.UUID
		if b.PassID != nil {
			if p, err := c.Pass.Get(ctx, *b.PassID); err == nil {
				passType = &p.PassTypeID
			}
		}
		if fee := pol.Fee(passType); fee > 0 {
			upd.SetLateCancelFeeMinor(fee).SetFeeStatus(entbooking.FeeStatusUnpaid)
		}
	default:
		upd.SetStatus(entbooking.StatusCancelled)
		res.ClipRestored = b.ClipCharged
	}
	if res.ClipRestored {
		if err := restoreClips(ctx, c, []uuid.UUID{*b.PassID}); err != nil {
			return nil, err
		}
		upd.SetClipCharged(false)
	}
	upd.SetCancelReason(reason).SetNillableCancelRequestKey(nilIfEmpty(key))
	nb, err := upd.Save(ctx)
	if err != nil {
		return nil, fmt.Errorf("booking: cancel: %w", err)
	}
	res.Booking = nb
	if b.WaitlistPosition != nil {
		if err := closeGap(ctx, c, cl.ID, *b.WaitlistPosition); err != nil {
			return nil, err
		}
	}
	if err := record(ctx, c, events.BookingCancelled, nb, map[string]any{
		"reason": reason, "clip_restored": res.ClipRestored, "late": res.Late,
	}); err != nil {
		return nil, err
	}
	action := "booking.cancelled"
	if res.Late {
		action = "booking.late_cancelled"
	}
	details := map[string]any{"class_instance_id": cl.ID.String(), "member_id": nb.MemberID.String(),
		"previous_status": string(b.Status), "clip_restored": res.ClipRestored}
	if nb.LateCancelFeeMinor != nil {
		details["fee_minor"] = *nb.LateCancelFeeMinor
	}
	if b.Status != entbooking.StatusWaitlisted {
		if res.Promoted, err = promote(ctx, c, cl.ID, now); err != nil {
			return nil, err
		}
	}
	res.PromotedCount = len(res.Promoted)
	// The entry also keeps what a replayed answer needs (see replayCancel).
	details["promoted_count"] = res.PromotedCount
	if err := auditEntry(ctx, c, action, nb, details); err != nil {
		return nil, err
	}
	return res, nil
}

// replayCancel answers a retried cancellation with what the first one did,
// read back from its audit entry (late, clip restored); nothing changes and
// nobody is promoted again.
func replayCancel(ctx context.Context, c *ent.Client, b *ent.Booking) (*CancelResult, error) {
	res := &CancelResult{Booking: b, Late: b.Status == entbooking.StatusLateCancelled, Replayed: true}
	entry, err := c.AuditLog.Query().
		Where(auditlog.Target("booking:"+b.ID.String()), auditlog.ActionIn("booking.cancelled", "booking.late_cancelled")).
		Order(ent.Desc(auditlog.FieldCreatedAt)).First(ctx)
	if err != nil && !ent.IsNotFound(err) {
		return nil, fmt.Errorf("booking: earlier cancellation: %w", err)
	}
	if entry != nil {
		if v, ok := entry.Details["clip_restored"].(bool); ok {
			res.ClipRestored = v
		}
		if v, ok := entry.Details["promoted_count"].(float64); ok {
			res.PromotedCount = int(v)
		}
	}
	return res, nil
}
