package schedule

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/google/uuid"

	"github.com/venueplatform/venue/ent"
	"github.com/venueplatform/venue/ent/classinstance"
	"github.com/venueplatform/venue/internal/apperr"
	"github.com/venueplatform/venue/internal/concurrency"
	"github.com/venueplatform/venue/internal/notify"
)

// Limits of the bulk operations (contract's Limits).
const (
	MaxBulk         = 50
	MaxAvailability = 200
)

// Bulk row statuses.
const (
	BulkUpdated   = "updated"
	BulkCancelled = "cancelled"
	BulkFailed    = "failed"
)

// BulkRow is the outcome for one class of a bulk operation.
type BulkRow struct {
	ID                uuid.UUID
	Status            string
	Row               *StaffRow
	CancelledBookings int
	Err               *apperr.Error
}

// BulkResult is the outcome of a bulk operation, one row per requested id.
type BulkResult struct {
	Rows      []BulkRow
	Succeeded int
	Failed    int
	Notify    NotifyResult
}

// CheckIDs checks the ids of a bulk request before anything changes: 1 to
// max distinct ids (else 400 VALIDATION_ERROR naming param), each a class of
// the viewer's venue (else 422 CLASS_SCOPE_MISMATCH listing the others).
func CheckIDs(ctx context.Context, client *ent.Client, ids []uuid.UUID, max int, param string) error {
	if len(ids) == 0 || len(ids) > max {
		return apperr.Validation(param, fmt.Sprintf("%s takes 1 to %d class ids", param, max))
	}
	seen := make(map[uuid.UUID]bool, len(ids))
	for _, id := range ids {
		if seen[id] {
			return apperr.Validation(param, param+" names a class twice").With("class_id", id.String())
		}
		seen[id] = true
	}
	found, err := client.ClassInstance.Query().Where(classinstance.IDIn(ids...)).IDs(ctx)
	if err != nil {
		return fmt.Errorf("schedule: check classes: %w", err)
	}
	for _, id := range found {
		delete(seen, id)
	}
	if len(seen) > 0 {
		var foreign []uuid.UUID
		for _, id := range ids {
			if seen[id] {
				foreign = append(foreign, id)
			}
		}
		return ErrScopeMismatch(foreign)
	}
	return nil
}

// BulkEdit applies p to every class of ids, each in its own transaction,
// after checking the whole request; tokens guard the classes they name.
func BulkEdit(ctx context.Context, client *ent.Client, ids []uuid.UUID, p Patch, tokens map[uuid.UUID]concurrency.Token, now time.Time) (BulkResult, error) {
	if p.Empty() {
		return BulkResult{}, apperr.Validation("set", "set or time must name something to change")
	}
	if err := CheckNotify(ctx, notify.ActionEdit, p.Notify); err != nil {
		return BulkResult{}, err
	}
	if err := CheckIDs(ctx, client, ids, MaxBulk, "instance_ids"); err != nil {
		return BulkResult{}, err
	}
	for id := range tokens {
		if !containsID(ids, id) {
			return BulkResult{}, apperr.Validation("expected_updated_at", "expected_updated_at names a class not in instance_ids")
		}
	}
	return runBulk(ids, func(id uuid.UUID) (BulkRow, NotifyResult, error) {
		q := p
		q.Expected = tokens[id]
		q.Bulk = true
		res, err := Update(ctx, client, id, q, now)
		return BulkRow{Status: BulkUpdated, Row: &res.Row}, res.Notify, err
	}), nil
}

// BulkCancel cancels every class of ids like Cancel, each in its own
// transaction, after checking the whole request.
func BulkCancel(ctx context.Context, client *ent.Client, ids []uuid.UUID, reason string, n notify.Request, now time.Time) (BulkResult, error) {
	if err := CheckNotify(ctx, notify.ActionCancel, n); err != nil {
		return BulkResult{}, err
	}
	if err := CheckIDs(ctx, client, ids, MaxBulk, "instance_ids"); err != nil {
		return BulkResult{}, err
	}
	reason = strings.TrimSpace(reason)
	return runBulk(ids, func(id uuid.UUID) (BulkRow, NotifyResult, error) {
		res, err := Cancel(ctx, client, id, CancelParams{Reason: reason, Notify: n, Bulk: true}, now)
		return BulkRow{Status: BulkCancelled, Row: &res.Row, CancelledBookings: res.CancelledBookings}, res.Notify, err
	}), nil
}

func runBulk(ids []uuid.UUID, one func(uuid.UUID) (BulkRow, NotifyResult, error)) BulkResult {
	out := BulkResult{Rows: make([]BulkRow, 0, len(ids))}
	for _, id := range ids {
		row, nr, err := one(id)
		row.ID = id
		if err != nil {
			row = BulkRow{ID: id, Status: BulkFailed, Err: apperr.From(err)}
			out.Failed++
		} else {
			out.Succeeded++
			out.Notify.Requested = out.Notify.Requested || nr.Requested
			out.Notify.Queued += nr.Queued
		}
		out.Rows = append(out.Rows, row)
	}
	return out
}

func containsID(ids []uuid.UUID, id uuid.UUID) bool {
	for _, x := range ids {
		if x == id {
			return true
		}
	}
	return false
}
