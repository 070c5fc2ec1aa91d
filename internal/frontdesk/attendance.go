package frontdesk

import (
	"context"
	"fmt"
	"net/http"
	"time"

	"github.com/google/uuid"

	"github.com/venueplatform/venue/ent"
	"github.com/venueplatform/venue/ent/booking"
	"github.com/venueplatform/venue/ent/classinstance"
	"github.com/venueplatform/venue/ent/pass"
	"github.com/venueplatform/venue/internal/apperr"
	"github.com/venueplatform/venue/internal/audit"
	"github.com/venueplatform/venue/internal/billing/fees"
	"github.com/venueplatform/venue/internal/concurrency"
	"github.com/venueplatform/venue/internal/events"
	"github.com/venueplatform/venue/internal/notify"
)

// Targets are the statuses an attendance correction may set.
var Targets = []booking.Status{booking.StatusConfirmed, booking.StatusCheckedIn, booking.StatusNoShow}

// correctable are the statuses a correction may start from.
var correctable = []booking.Status{booking.StatusConfirmed, booking.StatusCheckedIn, booking.StatusNoShow,
	booking.StatusCancelled, booking.StatusLateCancelled}

// AttendanceState is a booking's attendance as a correction sees it.
type AttendanceState struct {
	Class        Class
	Booking      *ent.Booking
	Allowed      []booking.Status
	Availability notify.ChannelEntries
}

// Attendance reads booking bookingID of class classID, the targets a correction may set at
// now (none for a cancelled class or a booking that is not correctable; checked_in and
// no-show only once the class has started) and the member's notification availability.
func Attendance(ctx context.Context, client *ent.Client, classID, bookingID uuid.UUID, now time.Time) (*AttendanceState, error) {
	c, err := loadClass(ctx, client, classID)
	if err != nil {
		return nil, err
	}
	b, err := loadBooking(ctx, client, classID, bookingID)
	if err != nil {
		return nil, err
	}
	st := &AttendanceState{Class: c, Booking: b, Allowed: []booking.Status{}}
	if c.Status != classinstance.StatusCancelled && isOneOf(b.Status, correctable) {
		for _, t := range Targets {
			if t == b.Status {
				continue
			}
			if t != booking.StatusConfirmed && !c.Started(now) {
				continue
			}
			st.Allowed = append(st.Allowed, t)
		}
	}
	for _, ch := range notify.Channels {
		e, err := notify.BookingsAvailabilityFor(ctx, client, []uuid.UUID{bookingID}, ch, notify.ActionAttendance)
		if err != nil {
			e = notify.AvailabilityError().Clients.Get(ch)
		}
		switch ch {
		case notify.Email:
			st.Availability.Email = e
		case notify.SMS:
			st.Availability.SMS = e
		default:
			st.Availability.Push = e
		}
	}
	return st, nil
}

func isOneOf(s booking.Status, in []booking.Status) bool {
	for _, x := range in {
		if x == s {
			return true
		}
	}
	return false
}

// CorrectParams are an attendance correction.
type CorrectParams struct {
	ClassID, BookingID  uuid.UUID
	Target              booking.Status
	Token               concurrency.Token
	EndedClassConfirmed bool
	Reason              string
	// Notify names the channels to tell the member on; the zero value tells nobody.
	Notify        notify.Request
	CorrelationID string
}

// CorrectResult is a correction's outcome.
type CorrectResult struct {
	Write
	Notified notify.Result
}

// Correct applies an attendance correction (rules in the package documentation). The caller
// checks the sender first when p.Notify asks.
func Correct(ctx context.Context, client *ent.Client, p CorrectParams, now time.Time) (*CorrectResult, error) {
	if !isOneOf(p.Target, Targets) {
		return nil, apperr.Validation("target_status", "target_status must be confirmed, checked_in or no-show")
	}
	if p.Token.IsZero() {
		return nil, concurrency.Missing("expected_updated_at")
	}
	out := &CorrectResult{}
	err := events.WithTx(ctx, client, func(ctx context.Context, tx *ent.Tx) error {
		l, err := lock(ctx, tx.Client(), p.ClassID, p.BookingID, p.Token)
		if err != nil {
			return err
		}
		c, b := l.class, l.booking
		if c.Status == classinstance.StatusCancelled {
			return errClassCancelled()
		}
		if !isOneOf(b.Status, correctable) {
			return errInvalidTransition(string(b.Status))
		}
		if p.Target != booking.StatusConfirmed && now.Before(c.StartTime) {
			return unprocessable(CodeFutureAttendance, "attendance cannot be recorded for a class that has not started").
				With("start_time", c.StartTime.UTC().Format(time.RFC3339))
		}
		if !now.Before(c.EndTime) && !p.EndedClassConfirmed {
			return unprocessable(CodeEndedConfirmation, "the class has ended: confirm the correction with ended_class_confirmed").
				With("next_step", "confirm")
		}
		if b.Status == p.Target {
			out.Booking = b
			return nil
		}
		upd := tx.Booking.UpdateOne(b).SetStatus(p.Target)
		if p.Target == booking.StatusCheckedIn {
			if b.CheckedInAt == nil {
				upd.SetCheckedInAt(now)
			}
		} else {
			upd.ClearCheckedInAt()
		}
		reinstated := b.Status == booking.StatusCancelled || b.Status == booking.StatusLateCancelled
		details := map[string]any{"class_instance_id": c.ID.String(), "from": string(b.Status), "to": string(p.Target)}
		if reinstated {
			if err := reinstate(ctx, tx.Client(), b, upd, details); err != nil {
				return err
			}
		}
		if !reinstated {
			if err := fees.OnAttendance(ctx, tx, b, p.Target, upd); err != nil { // the no-show fee
				return err
			}
		}
		nb, err := upd.Save(ctx)
		if ent.IsConstraintError(err) {
			return (&apperr.Error{Status: http.StatusConflict, Code: apperr.CodeConflict,
				Message: "the member holds another live booking of this class"}).With("reason", "duplicate_booking")
		}
		if err != nil {
			return fmt.Errorf("frontdesk: correct: %w", err)
		}
		if p.Reason != "" {
			details["reason"] = p.Reason
		}
		if p.Notify.Asked() {
			for _, ch := range channelsOf(p.Notify) {
				res, err := notify.EnqueueForBookings(ctx, tx.Client(), []uuid.UUID{b.ID}, ch, attendanceMessage(p, nb))
				if err != nil {
					return err
				}
				out.Notified.Queued += res.Queued
				out.Notified.Skipped = append(out.Notified.Skipped, res.Skipped...)
			}
			details["notified"] = out.Notified.Queued
		}
		if _, err := audit.Record(ctx, tx.Client(), audit.Entry{Action: "checkin.attendance.correct",
			Target: "booking:" + b.ID.String(), Details: details}); err != nil {
			return err
		}
		out.Booking, out.Changed = nb, true
		return nil
	})
	if err != nil {
		return nil, err
	}
	b, err := reload(ctx, client, out.Booking)
	if err != nil {
		return nil, err
	}
	out.Booking = b
	return out, nil
}

// reinstate applies what undoing a cancellation needs: a charged or settled late-cancel fee
// stops it (REFUND_REVIEW_REQUIRED), an unpaid one is waived; a clip given back on cancel is
// taken again.
func reinstate(ctx context.Context, tx *ent.Client, b *ent.Booking, upd *ent.BookingUpdateOne, details map[string]any) error {
	if b.FeeStatus != nil {
		switch *b.FeeStatus {
		case booking.FeeStatusCharged, booking.FeeStatusSettled:
			e := (&apperr.Error{Status: http.StatusConflict, Code: CodeRefundReviewRequired,
				Message: "the late-cancellation fee was collected: review its refund before reinstating the booking"}).
				With("fee_status", string(*b.FeeStatus)).With("next_step", "review_refund")
			if b.LateCancelFeeMinor != nil {
				e = e.With("late_cancel_fee_minor", *b.LateCancelFeeMinor)
			}
			return e
		case booking.FeeStatusUnpaid:
			upd.SetFeeStatus(booking.FeeStatusWaived)
			details["fee_waived"] = true
		}
	}
	upd.ClearCancelledAt().ClearCancelReason()
	if !b.ClipCharged && b.PassID != nil {
		p, err := tx.Pass.Query().Where(pass.ID(*b.PassID)).ForUpdate().Only(ctx)
		if err != nil {
			return fmt.Errorf("frontdesk: pass: %w", err)
		}
		if p.ClipsRemaining != nil {
			n, err := tx.Pass.Update().Where(pass.ID(p.ID), pass.ClipsRemainingGT(0)).AddClipsRemaining(-1).Save(ctx)
			if err != nil {
				return fmt.Errorf("frontdesk: take clip: %w", err)
			}
			if n == 0 {
				return errReassign(reasonNoClips)
			}
			upd.SetClipCharged(true)
			details["clip_taken"] = true
		}
	}
	return nil
}

func channelsOf(r notify.Request) []notify.Channel {
	var out []notify.Channel
	if r.Channels.Email {
		out = append(out, notify.Email)
	}
	if r.Channels.SMS {
		out = append(out, notify.SMS)
	}
	if r.Channels.Push {
		out = append(out, notify.Push)
	}
	return out
}

func attendanceMessage(p CorrectParams, b *ent.Booking) notify.Message {
	label := map[booking.Status]string{booking.StatusConfirmed: "booked", booking.StatusCheckedIn: "attended",
		booking.StatusNoShow: "did not attend"}[b.Status]
	return notify.Message{
		Kind:          "attendance.corrected",
		Subject:       "Your attendance record was updated",
		Body:          "The venue updated your attendance record: you are now recorded as " + label + ".",
		Data:          map[string]any{"booking_id": b.ID.String(), "class_instance_id": b.ClassInstanceID.String(), "status": string(b.Status)},
		CorrelationID: p.CorrelationID,
	}
}
