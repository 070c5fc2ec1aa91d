package frontdesk

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"time"

	"github.com/google/uuid"

	"github.com/venueplatform/venue/ent"
	"github.com/venueplatform/venue/ent/booking"
	"github.com/venueplatform/venue/ent/bookingreassignment"
	"github.com/venueplatform/venue/ent/classinstance"
	"github.com/venueplatform/venue/ent/classtype"
	"github.com/venueplatform/venue/ent/pass"
	"github.com/venueplatform/venue/internal/apperr"
	"github.com/venueplatform/venue/internal/audit"
	"github.com/venueplatform/venue/internal/concurrency"
	"github.com/venueplatform/venue/internal/events"
	"github.com/venueplatform/venue/internal/viewer"
)

// Reasons of PASS_REASSIGN_ERROR.
const (
	ReasonNotMembersPass = "not_members_pass"
	ReasonSamePass       = "same_pass"
	ReasonPassInactive   = "pass_inactive"
	ReasonPassNotValid   = "pass_not_valid"
	ReasonPassRestricted = "pass_restricted"
	ReasonNoClips        = reasonNoClips
)

// fundedStatuses are the statuses whose funding may move: the booking holds a seat.
var fundedStatuses = []booking.Status{booking.StatusConfirmed, booking.StatusCheckedIn, booking.StatusNoShow}

// ReassignParams are a funding reassignment.
type ReassignParams struct {
	ClassID, BookingID uuid.UUID
	NewPassID          uuid.UUID
	// ExpectedOldPassID is the pass the caller reviewed as the booking's (nil: none).
	ExpectedOldPassID *uuid.UUID
	Token             concurrency.Token
}

// Reassign moves a booking's funding to another pass of its member (see the package
// documentation for the attempt record). It returns the booking and the applied attempt.
func Reassign(ctx context.Context, client *ent.Client, p ReassignParams, now time.Time) (*ent.Booking, *ent.BookingReassignment, error) {
	if p.Token.IsZero() {
		return nil, nil, concurrency.Missing("expected_updated_at")
	}
	b, err := loadBooking(ctx, client, p.ClassID, p.BookingID)
	if err != nil {
		return nil, nil, err
	}
	if open, err := pendingAttempt(ctx, client, b.ID); err != nil {
		return nil, nil, err
	} else if open != nil {
		return nil, nil, errUnresolved(open.ID)
	}
	if ok, err := client.Pass.Query().Where(pass.ID(p.NewPassID)).Exist(ctx); err != nil {
		return nil, nil, fmt.Errorf("frontdesk: pass: %w", err)
	} else if !ok {
		return nil, nil, apperr.NotFound("pass").With("parameter", "new_pass_id")
	}
	// Everything that can be checked without locks is checked before the attempt is recorded,
	// so an ordinary refusal leaves no attempt behind.
	if err := checkMove(ctx, client, b, p, now); err != nil {
		return nil, nil, err
	}

	actor := ""
	if v := viewer.FromContext(ctx); v != nil {
		actor = v.Actor()
	}
	var attempt *ent.BookingReassignment
	for try := 1; ; try++ {
		attempt, err = client.BookingReassignment.Create().SetBookingID(b.ID).SetOpenBookingID(b.ID).
			SetNillableOldPassID(b.PassID).SetNewPassID(p.NewPassID).SetRequestedBy(actor).Save(ctx)
		if !ent.IsConstraintError(err) || try == 3 {
			break
		}
		// Another request's attempt holds the booking, or held it when this one was
		// refused: while it is pending it blocks this request.
		if open, _ := pendingAttempt(ctx, client, b.ID); open != nil {
			return nil, nil, errUnresolved(open.ID)
		}
		// It has ended since (applied or failed): this request is judged on the booking
		// as that attempt left it, as if it had come after it, and not refused as a bare
		// constraint conflict.
		if b, err = loadBooking(ctx, client, p.ClassID, p.BookingID); err != nil {
			return nil, nil, err
		}
		if err := checkMove(ctx, client, b, p, now); err != nil {
			return nil, nil, err
		}
	}
	if err != nil {
		return nil, nil, fmt.Errorf("frontdesk: record attempt: %w", err)
	}

	var moved *ent.Booking
	err = events.WithTx(ctx, client, func(ctx context.Context, tx *ent.Tx) error {
		l, err := lock(ctx, tx.Client(), p.ClassID, p.BookingID, p.Token)
		if err != nil {
			return err
		}
		if err := checkMove(ctx, tx.Client(), l.booking, p, now); err != nil {
			return err
		}
		moved, err = move(ctx, tx.Client(), l.booking, p.NewPassID, attempt)
		return err
	})
	var ae *apperr.Error
	switch {
	case err == nil:
	case errors.As(err, &ae):
		// A refusal under the locks: nothing moved, the attempt failed.
		_ = client.BookingReassignment.UpdateOne(attempt).SetStatus(bookingreassignment.StatusFailed).
			ClearOpenBookingID().SetFailureCode(ae.Code).Exec(context.WithoutCancel(ctx))
		return nil, nil, err
	default:
		// The outcome is unknown (the commit may or may not have happened): the attempt stays
		// pending and blocks further moves until it is closed.
		return nil, nil, err
	}
	attempt, err = client.BookingReassignment.Get(ctx, attempt.ID)
	if err != nil {
		return nil, nil, fmt.Errorf("frontdesk: attempt: %w", err)
	}
	b, err = reload(ctx, client, moved)
	if err != nil {
		return nil, nil, err
	}
	return b, attempt, nil
}

func pendingAttempt(ctx context.Context, client *ent.Client, bookingID uuid.UUID) (*ent.BookingReassignment, error) {
	a, err := client.BookingReassignment.Query().
		Where(bookingreassignment.BookingID(bookingID), bookingreassignment.StatusEQ(bookingreassignment.StatusPending)).
		First(ctx)
	if ent.IsNotFound(err) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("frontdesk: attempts: %w", err)
	}
	return a, nil
}

// checkMove applies the rules of a move to b as it is now.
func checkMove(ctx context.Context, client *ent.Client, b *ent.Booking, p ReassignParams, now time.Time) error {
	if !p.Token.Matches(b.UpdatedAt) {
		return concurrency.Stale(b.UpdatedAt)
	}
	if !equalIDs(b.PassID, p.ExpectedOldPassID) {
		e := &apperr.Error{Status: http.StatusConflict, Code: CodePassShiftConflict,
			Message: "the booking's pass is not the one reviewed; read the booking again"}
		if b.PassID != nil {
			return e.With("current_pass_id", b.PassID.String())
		}
		return e.With("current_pass_id", nil)
	}
	c, err := client.ClassInstance.Query().Where(classinstance.ID(b.ClassInstanceID)).Only(ctx)
	if err != nil {
		return fmt.Errorf("frontdesk: class: %w", err)
	}
	if c.Status == classinstance.StatusCancelled {
		return errClassCancelled()
	}
	if !slices.Contains(fundedStatuses, b.Status) {
		return errInvalidTransition(string(b.Status))
	}
	if b.PassID != nil && *b.PassID == p.NewPassID {
		return errReassign(ReasonSamePass)
	}
	np, err := client.Pass.Query().Where(pass.ID(p.NewPassID)).
		WithPassType(func(q *ent.PassTypeQuery) { q.WithAllowedBrands().WithAllowedClassTypes() }).Only(ctx)
	if ent.IsNotFound(err) {
		return apperr.NotFound("pass").With("parameter", "new_pass_id")
	}
	if err != nil {
		return fmt.Errorf("frontdesk: pass: %w", err)
	}
	if np.MemberID != b.MemberID {
		return errReassign(ReasonNotMembersPass)
	}
	if np.Status != pass.StatusActive {
		return errReassign(ReasonPassInactive)
	}
	_, loc, err := Venue(ctx, client)
	if err != nil {
		return err
	}
	y, m, d := c.StartTime.In(loc).Date()
	day := time.Date(y, m, d, 0, 0, 0, 0, time.UTC)
	if day.Before(np.ValidFrom.UTC()) || (np.ValidTo != nil && day.After(np.ValidTo.UTC())) {
		return errReassign(ReasonPassNotValid)
	}
	if restricted, err := passRestricted(ctx, client, np, c); err != nil {
		return err
	} else if restricted {
		return errReassign(ReasonPassRestricted)
	}
	if np.ClipsRemaining != nil && *np.ClipsRemaining <= 0 {
		return errReassign(ReasonNoClips)
	}
	_ = now
	return nil
}

// passRestricted reports whether the pass's type excludes the class (mode, brand, type).
func passRestricted(ctx context.Context, client *ent.Client, p *ent.Pass, c *ent.ClassInstance) (bool, error) {
	pt := p.Edges.PassType
	if pt == nil {
		return false, nil
	}
	if (c.Online && !pt.GrantsOnline) || (!c.Online && !pt.GrantsInPerson) {
		return true, nil
	}
	if len(pt.Edges.AllowedClassTypes) > 0 && !slices.ContainsFunc(pt.Edges.AllowedClassTypes,
		func(ct *ent.ClassType) bool { return ct.ID == c.ClassTypeID }) {
		return true, nil
	}
	if len(pt.Edges.AllowedBrands) > 0 {
		ct, err := client.ClassType.Query().Where(classtype.ID(c.ClassTypeID)).Only(ctx)
		if err != nil {
			return false, fmt.Errorf("frontdesk: class type: %w", err)
		}
		if ct.BrandID == nil || !slices.ContainsFunc(pt.Edges.AllowedBrands, func(b *ent.Brand) bool { return b.ID == *ct.BrandID }) {
			return true, nil
		}
	}
	return false, nil
}

func equalIDs(a, b *uuid.UUID) bool {
	if a == nil || b == nil {
		return a == nil && b == nil
	}
	return *a == *b
}

// move shifts b's funding to newPass under the locks of the running transaction: passes
// locked in id order, the clip b took back to its old pass, one from the new pass, the
// booking and the attempt updated, an audit entry written.
func move(ctx context.Context, tx *ent.Client, b *ent.Booking, newPass uuid.UUID, attempt *ent.BookingReassignment) (*ent.Booking, error) {
	ids := []uuid.UUID{newPass}
	if b.PassID != nil {
		ids = append(ids, *b.PassID)
	}
	slices.SortFunc(ids, func(x, y uuid.UUID) int { return slices.Compare(x[:], y[:]) })
	passes, err := tx.Pass.Query().Where(pass.IDIn(ids...)).Order(pass.ByID()).ForUpdate().All(ctx)
	if err != nil {
		return nil, fmt.Errorf("frontdesk: lock passes: %w", err)
	}
	var np *ent.Pass
	for _, p := range passes {
		if p.ID == newPass {
			np = p
		}
	}
	if np == nil {
		return nil, apperr.NotFound("pass").With("parameter", "new_pass_id")
	}
	returned := false
	if b.ClipCharged && b.PassID != nil {
		n, err := tx.Pass.Update().Where(pass.ID(*b.PassID), pass.ClipsRemainingNotNil()).AddClipsRemaining(1).Save(ctx)
		if err != nil {
			return nil, fmt.Errorf("frontdesk: return clip: %w", err)
		}
		returned = n == 1
	}
	taken := false
	if np.ClipsRemaining != nil {
		n, err := tx.Pass.Update().Where(pass.ID(np.ID), pass.ClipsRemainingGT(0)).AddClipsRemaining(-1).Save(ctx)
		if err != nil {
			return nil, fmt.Errorf("frontdesk: take clip: %w", err)
		}
		if n == 0 {
			return nil, errReassign(ReasonNoClips)
		}
		taken = true
	}
	nb, err := tx.Booking.UpdateOne(b).SetPassID(np.ID).SetClipCharged(taken).Save(ctx)
	if err != nil {
		return nil, fmt.Errorf("frontdesk: move funding: %w", err)
	}
	if err := tx.BookingReassignment.UpdateOneID(attempt.ID).Where(bookingreassignment.StatusEQ(bookingreassignment.StatusPending)).
		SetStatus(bookingreassignment.StatusApplied).ClearOpenBookingID().SetClipReturned(returned).SetClipTaken(taken).Exec(ctx); err != nil {
		return nil, fmt.Errorf("frontdesk: mark attempt: %w", err)
	}
	details := map[string]any{"attempt_id": attempt.ID.String(), "new_pass_id": np.ID.String(),
		"clip_returned": returned, "clip_taken": taken, "class_instance_id": b.ClassInstanceID.String()}
	if b.PassID != nil {
		details["old_pass_id"] = b.PassID.String()
	}
	if _, err := audit.Record(ctx, tx, audit.Entry{Action: "checkin.funding.reassign", Target: "booking:" + b.ID.String(),
		Details: details}); err != nil {
		return nil, err
	}
	return nb, nil
}

// CloseAttempt closes a pending attempt of booking bookingID (of class classID) by recording
// what the booking shows; the booking and passes are not touched.
func CloseAttempt(ctx context.Context, client *ent.Client, classID, bookingID, attemptID uuid.UUID, now time.Time) (*ent.BookingReassignment, error) {
	var out *ent.BookingReassignment
	err := events.WithTx(ctx, client, func(ctx context.Context, tx *ent.Tx) error {
		l, err := lock(ctx, tx.Client(), classID, bookingID, concurrency.Token{})
		if err != nil {
			return err
		}
		a, err := tx.BookingReassignment.Query().
			Where(bookingreassignment.ID(attemptID), bookingreassignment.BookingID(bookingID)).ForUpdate().Only(ctx)
		if ent.IsNotFound(err) {
			return apperr.NotFound("attempt")
		}
		if err != nil {
			return fmt.Errorf("frontdesk: attempt: %w", err)
		}
		if a.Status != bookingreassignment.StatusPending {
			return unprocessable(CodeAttemptNotPending, "the attempt is not pending").With("status", string(a.Status))
		}
		res := bookingreassignment.ResolutionSuperseded
		switch {
		case equalIDs(l.booking.PassID, &a.NewPassID):
			res = bookingreassignment.ResolutionApplied
		case equalIDs(l.booking.PassID, a.OldPassID):
			res = bookingreassignment.ResolutionNotApplied
		}
		actor := ""
		if v := viewer.FromContext(ctx); v != nil {
			actor = v.Actor()
		}
		out, err = tx.BookingReassignment.UpdateOne(a).SetStatus(bookingreassignment.StatusClosed).ClearOpenBookingID().SetResolution(res).
			SetClosedAt(now).SetClosedBy(actor).Save(ctx)
		if err != nil {
			return fmt.Errorf("frontdesk: close attempt: %w", err)
		}
		_, err = audit.Record(ctx, tx.Client(), audit.Entry{Action: "checkin.funding.close", Target: "booking:" + bookingID.String(),
			Details: map[string]any{"attempt_id": a.ID.String(), "resolution": string(res)}})
		return err
	})
	return out, err
}
