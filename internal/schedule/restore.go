package schedule

import (
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/google/uuid"

	"github.com/venueplatform/venue/ent"
	"github.com/venueplatform/venue/ent/auditlog"
	entbooking "github.com/venueplatform/venue/ent/booking"
	"github.com/venueplatform/venue/ent/classinstance"
	"github.com/venueplatform/venue/ent/pass"
	bookingdom "github.com/venueplatform/venue/internal/booking"
)

// statusesKey is the member of a cancellation's audit details that keeps what
// each booking it cancelled was before (booking id -> status).
const statusesKey = "booking_statuses"

// Reasons a RESTORE leaves a booking the cancellation cancelled as it is.
const (
	LeftWaitlisted = "waitlisted" // it was waiting for a seat of a class that is over
	LeftCapacity   = "capacity"   // the seats are held by others
	LeftDuplicate  = "duplicate"  // the member holds another live booking of the class
)

// LeftCancelled is a booking a RESTORE did not reinstate, and why.
type LeftCancelled struct {
	BookingID uuid.UUID
	Reason    string
}

// RestoreResult is what a RESTORE did to the bookings.
type RestoreResult struct {
	Reinstated []uuid.UUID
	// Uncharged are reinstated bookings whose pass had no clip left to take
	// again: the desk settles them.
	Uncharged     []uuid.UUID
	LeftCancelled []LeftCancelled
}

// liveStatuses reads the statuses of the class's bookings a cancellation is
// about to cancel.
func liveStatuses(ctx context.Context, client *ent.Client, classID uuid.UUID) (map[uuid.UUID]string, error) {
	rows, err := client.Booking.Query().Where(entbooking.ClassInstanceID(classID), entbooking.StatusIn(bookingdom.CancelledWithClass...)).
		Select(entbooking.FieldID, entbooking.FieldStatus).All(ctx)
	if err != nil {
		return nil, fmt.Errorf("schedule: bookings before cancel: %w", err)
	}
	out := make(map[uuid.UUID]string, len(rows))
	for _, b := range rows {
		out[b.ID] = string(b.Status)
	}
	return out, nil
}

// statusesBeforeCancel reads what the class's cancellations recorded of the
// bookings they cancelled, the latest record of each booking winning (a
// booking a RESTORE left cancelled keeps what its own cancellation recorded);
// empty for cancellations that recorded nothing.
func statusesBeforeCancel(ctx context.Context, client *ent.Client, classID uuid.UUID) (map[string]string, error) {
	entries, err := client.AuditLog.Query().Where(auditlog.Target("class:"+classID.String()),
		auditlog.ActionIn("schedule.cancel", "schedule.history.cancel")).
		Order(ent.Asc(auditlog.FieldCreatedAt), ent.Asc(auditlog.FieldID)).All(ctx)
	if err != nil {
		return nil, fmt.Errorf("schedule: cancellation records: %w", err)
	}
	out := map[string]string{}
	for _, e := range entries {
		m, _ := e.Details[statusesKey].(map[string]any)
		for id, st := range m {
			if s, ok := st.(string); ok {
				out[id] = s
			}
		}
	}
	return out, nil
}

// restoreClass puts cancelled class c back as completed and reinstates the
// bookings its cancellation cancelled (cancel reason class_cancelled): each
// that held a seat gets its status back (confirmed, or pending_payment for an
// unpaid guest seat; confirmed when the cancellation recorded nothing) and
// takes its clip again where its pass has one left. Bookings that were
// waitlisted stay cancelled, and so do bookings beyond the class's capacity
// (seats go to promoted bookings first, then in booking order) and bookings
// of members who hold another live booking of the class. Attendance is then
// recorded booking by booking through attendance correction.
func restoreClass(ctx context.Context, client *ent.Client, c *ent.ClassInstance, now time.Time) (RestoreResult, error) {
	var res RestoreResult
	if _, err := client.ClassInstance.UpdateOne(c).SetStatus(classinstance.StatusCompleted).SetHistoryCorrectedAt(now).
		ClearCancelledAt().ClearCancelReason().Save(ctx); err != nil {
		return res, fmt.Errorf("schedule: restore class: %w", err)
	}
	before, err := statusesBeforeCancel(ctx, client, c.ID)
	if err != nil {
		return res, err
	}
	all, err := client.Booking.Query().Where(entbooking.ClassInstanceID(c.ID)).
		Order(ent.Asc(entbooking.FieldCreatedAt), ent.Asc(entbooking.FieldID)).All(ctx)
	if err != nil {
		return res, fmt.Errorf("schedule: restore bookings: %w", err)
	}
	held, live := 0, map[uuid.UUID]bool{}
	var candidates []*ent.Booking
	for _, b := range all {
		switch {
		case bookingdom.IsLive(b.Status):
			live[b.MemberID] = true
			if b.Status != entbooking.StatusWaitlisted {
				held++
			}
		case b.Status == entbooking.StatusCancelled && b.CancelReason != nil && *b.CancelReason == bookingdom.ReasonClassCancelled:
			candidates = append(candidates, b)
		}
	}
	// Promoted bookings certainly held a seat; the rest keep booking order.
	slices.SortStableFunc(candidates, func(a, b *ent.Booking) int {
		switch {
		case a.PromotedAt != nil && b.PromotedAt == nil:
			return -1
		case a.PromotedAt == nil && b.PromotedAt != nil:
			return 1
		}
		return 0
	})
	for _, b := range candidates {
		prev := before[b.ID.String()]
		switch {
		case prev == string(entbooking.StatusWaitlisted):
			res.LeftCancelled = append(res.LeftCancelled, LeftCancelled{b.ID, LeftWaitlisted})
			continue
		case live[b.MemberID]:
			res.LeftCancelled = append(res.LeftCancelled, LeftCancelled{b.ID, LeftDuplicate})
			continue
		case held >= c.Capacity:
			res.LeftCancelled = append(res.LeftCancelled, LeftCancelled{b.ID, LeftCapacity})
			continue
		}
		status := entbooking.StatusConfirmed
		if prev == string(entbooking.StatusPendingPayment) {
			status = entbooking.StatusPendingPayment
		}
		upd := client.Booking.UpdateOne(b).SetStatus(status).ClearCancelledAt().ClearCancelReason()
		if !b.ClipCharged && b.PassID != nil {
			taken, short, err := takeClip(ctx, client, *b.PassID)
			if err != nil {
				return res, err
			}
			if taken {
				upd.SetClipCharged(true)
			}
			if short {
				res.Uncharged = append(res.Uncharged, b.ID)
			}
		}
		if _, err := upd.Save(ctx); err != nil {
			return res, fmt.Errorf("schedule: reinstate booking: %w", err)
		}
		held++
		live[b.MemberID] = true
		res.Reinstated = append(res.Reinstated, b.ID)
	}
	return res, nil
}

// takeClip takes one clip from pass id again (taken); short when the pass
// counts clips and has none left. A pass without a clip count (unlimited)
// needs none.
func takeClip(ctx context.Context, client *ent.Client, id uuid.UUID) (taken, short bool, err error) {
	p, err := client.Pass.Query().Where(pass.ID(id)).ForUpdate().Only(ctx)
	if ent.IsNotFound(err) {
		return false, true, nil
	}
	if err != nil {
		return false, false, fmt.Errorf("schedule: pass: %w", err)
	}
	if p.ClipsRemaining == nil {
		return false, false, nil
	}
	n, err := client.Pass.Update().Where(pass.ID(id), pass.ClipsRemainingGT(0)).AddClipsRemaining(-1).Save(ctx)
	if err != nil {
		return false, false, fmt.Errorf("schedule: take clip: %w", err)
	}
	return n > 0, n == 0, nil
}

func idStrings(ids []uuid.UUID) []string {
	out := make([]string, len(ids))
	for i, id := range ids {
		out[i] = id.String()
	}
	return out
}
