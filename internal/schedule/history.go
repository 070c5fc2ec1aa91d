package schedule

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/google/uuid"

	"github.com/venueplatform/venue/ent"
	"github.com/venueplatform/venue/ent/classinstance"
	"github.com/venueplatform/venue/ent/instructor"
	"github.com/venueplatform/venue/ent/room"
	"github.com/venueplatform/venue/internal/apperr"
	"github.com/venueplatform/venue/internal/concurrency"
	"github.com/venueplatform/venue/internal/events"
)

// Historical correction operations.
const (
	OpComplete = "COMPLETE"
	OpCancel   = "CANCEL"
	OpRestore  = "RESTORE"
	OpRewrite  = "REWRITE"
)

// Intents of a historical correction.
const (
	IntentPreview = "preview"
	IntentApply   = "apply"
)

// Rewrite is the recorded facts a REWRITE changes.
type Rewrite struct {
	StartTime, EndTime   *time.Time
	InstructorID, RoomID *uuid.UUID
}

func (r Rewrite) empty() bool {
	return r.StartTime == nil && r.EndTime == nil && r.InstructorID == nil && r.RoomID == nil
}

// HistoryParams is a historical correction of one class.
type HistoryParams struct {
	Operation      string
	Expected       concurrency.Token
	ExpectedStatus string
	Reason         string
	Token          string
	EffectiveAt    time.Time
	Intent         string
	Rewrite        Rewrite
	// TokenSecret keys confirmation tokens: the service's secret for opaque
	// client tokens (VENUE_CURSOR_SECRET), given by the face; empty takes a
	// random secret of this process.
	TokenSecret []byte
}

// HistoryResult is a correction applied or previewed.
type HistoryResult struct {
	Applied           bool
	Row               StaffRow
	Token             string
	TokenExpiresAt    time.Time
	CancelledBookings int
	// Restore is what a RESTORE did to the bookings the cancellation cancelled.
	Restore RestoreResult
}

// errPreview rolls back a preview's transaction.
var errPreview = errors.New("schedule: preview")

// Correct applies (or previews) a historical correction of class id: a class
// that has ended, whose token and status the caller states. It never
// notifies. The caller authorized History access.
func Correct(ctx context.Context, client *ent.Client, id uuid.UUID, p HistoryParams, now time.Time) (HistoryResult, error) {
	if err := checkHistoryParams(p, now); err != nil {
		return HistoryResult{}, err
	}
	var res HistoryResult
	err := events.WithTx(ctx, client, func(ctx context.Context, tx *ent.Tx) error {
		c, err := tx.Client().ClassInstance.Query().Where(classinstance.ID(id)).ForUpdate().Only(ctx)
		if err != nil {
			return err
		}
		if !p.Expected.Matches(c.UpdatedAt) {
			return concurrency.Stale(c.UpdatedAt)
		}
		if string(c.Status) != p.ExpectedStatus {
			return concurrency.Stale(c.UpdatedAt).With("current_status", string(c.Status))
		}
		if !Historical(c, now) {
			return unprocessable(CodeClassNotEnded, "historical corrections apply to classes that have ended").
				With("end_time", c.EndTime.UTC().Format(time.RFC3339))
		}
		if err := checkTransition(p.Operation, c.Status); err != nil {
			return err
		}
		if p.Operation == OpRewrite {
			res.TokenExpiresAt = now.Add(confirmTTL).Truncate(time.Second)
			if p.Intent == IntentPreview {
				res.Token = confirmToken(ctx, c, p, res.TokenExpiresAt)
			} else if err := checkConfirmToken(ctx, c, p, now); err != nil {
				return err
			}
		}
		if err := applyHistory(ctx, tx.Client(), c, p, now, &res); err != nil {
			return err
		}
		if res.Row, err = loadRow(ctx, tx.Client(), id, now); err != nil {
			return err
		}
		if p.Intent == IntentPreview {
			return errPreview
		}
		return nil
	})
	if errors.Is(err, errPreview) {
		return res, nil
	}
	if err != nil {
		return HistoryResult{}, err
	}
	res.Applied = true
	res.Token, res.TokenExpiresAt = "", time.Time{}
	return res, nil
}

func checkHistoryParams(p HistoryParams, now time.Time) error {
	if p.Expected.IsZero() {
		return concurrency.Missing(concurrency.Param)
	}
	if p.EffectiveAt.After(now) {
		return apperr.Validation("effective_at", "effective_at may not be in the future")
	}
	if len(strings.TrimSpace(p.Reason)) < 3 {
		return apperr.Validation("history_reason", "history_reason must say why the record changes")
	}
	switch p.Operation {
	case OpRewrite:
		if p.Rewrite.empty() {
			return apperr.Validation("rewrite", "a REWRITE names at least one field to rewrite")
		}
	case OpComplete, OpCancel, OpRestore:
		if !p.Rewrite.empty() {
			return apperr.Validation("rewrite", "rewrite fields belong to the REWRITE operation")
		}
	default:
		return apperr.Validation("operation", "unknown operation")
	}
	return nil
}

// checkTransition refuses an operation the class's status does not allow.
func checkTransition(op string, st classinstance.Status) error {
	ok := true
	switch op {
	case OpComplete:
		ok = st == classinstance.StatusScheduled || st == classinstance.StatusLive
	case OpCancel:
		ok = st != classinstance.StatusCancelled
	case OpRestore:
		ok = st == classinstance.StatusCancelled
	}
	if ok {
		return nil
	}
	return unprocessable(CodeInvalidTransition, fmt.Sprintf("%s does not apply to a %s class", op, st)).
		With("current_status", string(st))
}

// applyHistory makes the correction inside the transaction and records it.
func applyHistory(ctx context.Context, client *ent.Client, c *ent.ClassInstance, p HistoryParams, now time.Time, res *HistoryResult) error {
	extra := map[string]any{"historical": true, "history_reason": strings.TrimSpace(p.Reason),
		"effective_at": p.EffectiveAt.UTC().Format(time.RFC3339), "operation": p.Operation}
	action := "schedule.history." + strings.ToLower(p.Operation)
	switch p.Operation {
	case OpCancel:
		n, err := cancelClass(ctx, client, c, strings.TrimSpace(p.Reason), p.EffectiveAt, now, true, nil)
		res.CancelledBookings = n
		return err
	case OpRestore:
		rr, err := restoreClass(ctx, client, c, now)
		if err != nil {
			return err
		}
		res.Restore = rr
		left := make([]map[string]any, len(rr.LeftCancelled))
		for i, l := range rr.LeftCancelled {
			left[i] = map[string]any{"booking_id": l.BookingID.String(), "reason": l.Reason}
		}
		extra["reinstated_booking_ids"] = idStrings(rr.Reinstated)
		extra["uncharged_booking_ids"] = idStrings(rr.Uncharged)
		extra["left_cancelled"] = left
		return recordChange(ctx, client, c, action, map[string]change{"status": {string(c.Status), "completed"}}, extra)
	case OpComplete:
		upd := client.ClassInstance.UpdateOne(c).SetStatus(classinstance.StatusCompleted).SetHistoryCorrectedAt(now)
		if _, err := upd.Save(ctx); err != nil {
			return fmt.Errorf("schedule: correct class: %w", err)
		}
		return recordChange(ctx, client, c, action, map[string]change{"status": {string(c.Status), "completed"}}, extra)
	}
	changes, err := rewrite(ctx, client, c, p.Rewrite, now)
	if err != nil {
		return err
	}
	return recordChange(ctx, client, c, action, changes, extra)
}

// rewrite changes the recorded times, instructor or room of a past class.
func rewrite(ctx context.Context, client *ent.Client, c *ent.ClassInstance, r Rewrite, now time.Time) (map[string]change, error) {
	changes := map[string]change{}
	upd := client.ClassInstance.UpdateOne(c).SetHistoryCorrectedAt(now)
	start, end := c.StartTime, c.EndTime
	if r.StartTime != nil {
		start = *r.StartTime
	}
	if r.EndTime != nil {
		end = *r.EndTime
	}
	if !end.After(start) {
		return nil, apperr.Validation("rewrite.end_time", "end_time must be after start_time")
	}
	if end.After(now) {
		return nil, validationFailed("not_past", "a rewritten class must still have ended")
	}
	if !start.Equal(c.StartTime) {
		changes["start_time"] = change{c.StartTime.UTC(), start.UTC()}
		upd.SetStartTime(start)
	}
	if !end.Equal(c.EndTime) {
		changes["end_time"] = change{c.EndTime.UTC(), end.UTC()}
		upd.SetEndTime(end)
	}
	if r.InstructorID != nil && !sameID(c.InstructorID, r.InstructorID) {
		ok, err := client.Instructor.Query().Where(instructor.ID(*r.InstructorID)).Exist(ctx)
		if err != nil {
			return nil, err
		}
		if !ok {
			return nil, apperr.NotFound("instructor").With("parameter", "rewrite.instructor_id")
		}
		changes["instructor_id"] = change{c.InstructorID, r.InstructorID}
		upd.SetInstructorID(*r.InstructorID)
	}
	if r.RoomID != nil && !sameID(c.RoomID, r.RoomID) {
		rm, err := client.Room.Query().Where(room.ID(*r.RoomID)).Only(ctx)
		if ent.IsNotFound(err) {
			return nil, apperr.NotFound("room").With("parameter", "rewrite.room_id")
		}
		if err != nil {
			return nil, err
		}
		changes["room_id"] = change{c.RoomID, r.RoomID}
		upd.SetRoomID(rm.ID).SetLocationID(rm.LocationID)
	}
	if len(changes) == 0 {
		return nil, &apperr.Error{Status: http.StatusBadRequest, Code: apperr.CodeValidation,
			Message: "the rewrite changes nothing", Details: map[string]any{"parameter": "rewrite"}}
	}
	if _, err := upd.Save(ctx); err != nil {
		return nil, fmt.Errorf("schedule: rewrite class: %w", err)
	}
	return changes, nil
}
