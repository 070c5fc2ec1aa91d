package booking

import (
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/google/uuid"

	"github.com/venueplatform/venue/ent"
	entbooking "github.com/venueplatform/venue/ent/booking"
	"github.com/venueplatform/venue/ent/classinstance"
	"github.com/venueplatform/venue/ent/pass"
	"github.com/venueplatform/venue/internal/events"
	"github.com/venueplatform/venue/internal/system"
)

// SeatHolding are the statuses of a booking that holds a seat in its class.
// This is the one list: availability, the front desk's counts, a restored
// class and the database trigger that keeps class_instances.booked_count
// (migrations/*_class_counts_trigger.sql, compared by TestTriggerCountsSeatHolding)
// all use it. Treat it as read-only.
var SeatHolding = []entbooking.Status{
	entbooking.StatusConfirmed, entbooking.StatusCheckedIn, entbooking.StatusNoShow,
	entbooking.StatusPendingPayment,
}

// Live are the statuses of a booking that holds a seat or a waitlist place:
// SeatHolding and waitlisted. A member holds at most one live booking of a
// class. Treat it as read-only.
var Live = append(slices.Clone(SeatHolding), entbooking.StatusWaitlisted)

// CancelledWithClass are the statuses of the bookings a class cancellation
// cancels (CancelClass), and so the ones a restore of the class may
// reinstate: a checked-in or no-show booking is history and stays. Treat it
// as read-only.
var CancelledWithClass = []entbooking.Status{
	entbooking.StatusConfirmed, entbooking.StatusWaitlisted, entbooking.StatusPendingPayment,
}

// IsLive reports whether s holds a seat or a waitlist place.
func IsLive(s entbooking.Status) bool { return slices.Contains(Live, s) }

// IsSeatHolding reports whether s holds a seat.
func IsSeatHolding(s entbooking.Status) bool { return slices.Contains(SeatHolding, s) }

// lockClass locks the class instance row for the rest of the transaction
// and returns it; a class the viewer cannot see is ErrClassNotFound.
func lockClass(ctx context.Context, tx *ent.Client, id uuid.UUID) (*ent.ClassInstance, error) {
	c, err := tx.ClassInstance.Query().Where(classinstance.ID(id)).ForUpdate().Only(ctx)
	if ent.IsNotFound(err) {
		return nil, ErrClassNotFound
	}
	if err != nil {
		return nil, fmt.Errorf("booking: lock class: %w", err)
	}
	return c, nil
}

// lockMember takes the member's booking lock for the rest of the
// transaction: one booking change per member at a time, so daily limits and
// pass charges hold under concurrency. Always taken after the class lock.
func lockMember(ctx context.Context, tx *ent.Client, member uuid.UUID) error {
	rows, err := tx.QueryContext(system.RawSQL(ctx, "booking.member_lock"), `SELECT pg_advisory_xact_lock(hashtextextended($1, 0))`, "booking-member:"+member.String())
	if err != nil {
		return fmt.Errorf("booking: lock member: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
	}
	return rows.Err()
}

// takeClip takes one clip from the pass when it counts clips; ok is false
// when none is left. charged reports whether a clip was taken (false for an
// unlimited pass).
func takeClip(ctx context.Context, tx *ent.Client, p *ent.Pass) (charged, ok bool, err error) {
	if p.ClipsRemaining == nil {
		return false, true, nil
	}
	n, err := tx.Pass.Update().Where(pass.ID(p.ID), pass.ClipsRemainingGT(0)).AddClipsRemaining(-1).Save(ctx)
	if err != nil {
		return false, false, fmt.Errorf("booking: take clip: %w", err)
	}
	if n == 0 {
		return false, false, nil
	}
	*p.ClipsRemaining--
	return true, true, nil
}

// restoreClips gives back one clip to each pass of ids (in id order, so
// concurrent restorations cannot deadlock); unlimited passes are left alone.
func restoreClips(ctx context.Context, tx *ent.Client, ids []uuid.UUID) error {
	slices.SortFunc(ids, func(a, b uuid.UUID) int { return slices.Compare(a[:], b[:]) })
	// The pass of a booking may be shared with the member that made it.
	ctx = withSharedPasses(ctx)
	for _, id := range ids {
		if err := tx.Pass.Update().Where(pass.ID(id), pass.ClipsRemainingNotNil()).AddClipsRemaining(1).Exec(ctx); err != nil {
			return fmt.Errorf("booking: restore clip: %w", err)
		}
	}
	return nil
}

// closeGap moves up the waitlisted bookings behind position pos of class,
// whose lock the caller holds (found in the viewer's venue).
func closeGap(ctx context.Context, tx *ent.Client, class uuid.UUID, pos int) error {
	// System call site: the places behind are other members' bookings, which
	// a member viewer cannot see; only their positions change.
	err := tx.Booking.Update().Where(entbooking.ClassInstanceID(class), entbooking.StatusEQ(entbooking.StatusWaitlisted),
		entbooking.WaitlistPositionGT(pos)).AddWaitlistPosition(-1).Exec(system.CrossMembers(ctx, "booking.waitlist_gap"))
	if err != nil {
		return fmt.Errorf("booking: waitlist positions: %w", err)
	}
	return nil
}

// eventData is the data object of a booking event.
func eventData(b *ent.Booking, extra map[string]any) map[string]any {
	d := map[string]any{
		"booking_id":        b.ID.String(),
		"status":            string(b.Status),
		"class_instance_id": b.ClassInstanceID.String(),
		"member_id":         b.MemberID.String(),
	}
	for k, v := range extra {
		d[k] = v
	}
	return d
}

func record(ctx context.Context, tx *ent.Client, typ string, b *ent.Booking, extra map[string]any) error {
	_, err := events.Record(ctx, tx, typ, eventData(b, extra))
	return err
}

// utc formats t for event data.
func utc(t time.Time) string { return t.UTC().Format(time.RFC3339) }
