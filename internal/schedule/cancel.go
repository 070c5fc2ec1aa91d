package schedule

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/google/uuid"

	"github.com/venueplatform/venue/ent"
	"github.com/venueplatform/venue/ent/classinstance"
	"github.com/venueplatform/venue/internal/booking"
	"github.com/venueplatform/venue/internal/concurrency"
	"github.com/venueplatform/venue/internal/events"
	"github.com/venueplatform/venue/internal/notify"
)

// CancelParams is a cancellation of one class.
type CancelParams struct {
	Expected concurrency.Token
	Reason   string
	Notify   notify.Request
	// Bulk marks a row of a bulk cancel: its audit entry says bulk.
	Bulk bool
}

// Cancel cancels class id of the viewer's venue with its bookings (clips
// restored) in one transaction, with the class.cancelled event and an audit
// entry (schedule.cancel). The caller authorized the write.
func Cancel(ctx context.Context, client *ent.Client, id uuid.UUID, p CancelParams, now time.Time) (WriteResult, error) {
	if err := CheckNotify(ctx, notify.ActionCancel, p.Notify); err != nil {
		return WriteResult{}, err
	}
	var res WriteResult
	err := events.WithTx(ctx, client, func(ctx context.Context, tx *ent.Tx) error {
		c, err := lockClass(ctx, tx.Client(), id, p.Expected, now)
		if err != nil {
			return err
		}
		// The clients to tell are the bookings the cancellation is about to
		// cancel: queue first (same transaction), then cancel.
		if res.Notify, err = queue(ctx, tx.Client(), c.ID, notify.ActionCancel, p.Notify); err != nil {
			return err
		}
		n, err := cancelClass(ctx, tx.Client(), c, strings.TrimSpace(p.Reason), now, now, false, bulkMark(p.Bulk))
		if err != nil {
			return err
		}
		res.CancelledBookings = n
		res.Row, err = loadRow(ctx, tx.Client(), id, now)
		return err
	})
	return res, err
}

// cancelClass marks c cancelled at effective, cancels its bookings, and
// records class.cancelled and the audit entry; it returns how many bookings
// it cancelled. historical marks a historical correction; extra joins the
// audit details.
func cancelClass(ctx context.Context, client *ent.Client, c *ent.ClassInstance, reason string, effective, now time.Time, historical bool, extra map[string]any) (int, error) {
	upd := client.ClassInstance.UpdateOne(c).SetStatus(classinstance.StatusCancelled).SetCancelledAt(effective)
	if reason != "" {
		upd.SetCancelReason(reason)
	}
	if historical {
		upd.SetHistoryCorrectedAt(now)
	}
	if _, err := upd.Save(ctx); err != nil {
		return 0, fmt.Errorf("schedule: cancel class: %w", err)
	}
	// What each booking was before the cancellation, so that a RESTORE puts
	// back the seats and leaves the waitlist of a finished class behind.
	before, err := liveStatuses(ctx, client, c.ID)
	if err != nil {
		return 0, err
	}
	cancelled, err := booking.CancelClass(ctx, client, c.ID, now)
	if err != nil {
		return 0, err
	}
	ids := make([]string, len(cancelled))
	for i, b := range cancelled {
		ids[i] = b.ID.String()
	}
	data := map[string]any{
		"class_instance_id":  c.ID.String(),
		"start_time":         c.StartTime.UTC().Format(time.RFC3339),
		"cancelled_bookings": len(cancelled),
		"booking_ids":        ids,
	}
	if reason != "" {
		data["reason"] = reason
	}
	if historical {
		data["historical"] = true
	}
	if _, err := events.Record(ctx, client, events.ClassCancelled, data); err != nil {
		return 0, err
	}
	action := "schedule.cancel"
	if historical {
		action = "schedule.history.cancel"
	}
	statuses := map[string]any{}
	for _, b := range cancelled {
		if st, ok := before[b.ID]; ok {
			statuses[b.ID.String()] = st
		}
	}
	details := map[string]any{"cancelled_bookings": len(cancelled), "booking_ids": ids, "reason": reason,
		"effective_at": effective.UTC().Format(time.RFC3339), statusesKey: statuses}
	for k, v := range extra {
		details[k] = v
	}
	if err := auditClass(ctx, client, action, c.ID, details); err != nil {
		return 0, err
	}
	return len(cancelled), nil
}

// SubstituteParams gives a class another instructor.
type SubstituteParams struct {
	InstructorID uuid.UUID
	Expected     concurrency.Token
	Notify       notify.Request
}

// Substitute assigns a substitute instructor to class id, with the
// class.updated event and an audit entry (schedule.substitute).
func Substitute(ctx context.Context, client *ent.Client, id uuid.UUID, p SubstituteParams, now time.Time) (WriteResult, error) {
	if err := CheckNotify(ctx, notify.ActionSubstitute, p.Notify); err != nil {
		return WriteResult{}, err
	}
	var res WriteResult
	err := events.WithTx(ctx, client, func(ctx context.Context, tx *ent.Tx) error {
		c, err := lockClass(ctx, tx.Client(), id, p.Expected, now)
		if err != nil {
			return err
		}
		if c.InstructorID != nil && *c.InstructorID == p.InstructorID {
			return validationFailed("same_instructor", "the instructor already teaches this class")
		}
		changes, err := applyPatch(ctx, tx.Client(), c, Patch{SetInstructor: true, InstructorID: &p.InstructorID}, now)
		if err != nil {
			return err
		}
		if err := recordChange(ctx, tx.Client(), c, "schedule.substitute", changes, map[string]any{"substitution": true}); err != nil {
			return err
		}
		if res.Notify, err = queue(ctx, tx.Client(), c.ID, notify.ActionSubstitute, p.Notify); err != nil {
			return err
		}
		res.Row, err = loadRow(ctx, tx.Client(), id, now)
		return err
	})
	return res, err
}
