// Package feedback owns members' reviews of the classes they attended and
// the tip given with a review (POST /feedback), and staff's read of a venue's
// reviews.
//
// The rules (docs/payments.md, "Feedback and its tip"):
//
//   - A review is of the member's own booking of an ended class that the
//     member attended (booked and not cancelled, not a no-show, or checked
//     in), within Window after the class ended. Another member's or venue's
//     booking is 404 NOT_FOUND; a class that has not ended 422
//     FUTURE_ATTENDANCE; a cancelled class 422 CLASS_CANCELLED; a booking
//     that was not attended or a closed window 422 FEEDBACK_NOT_ALLOWED
//     (details.reason not_attended or window_closed).
//   - One review per booking: a second one is 409 FEEDBACK_ALREADY_GIVEN
//     (details.feedback_id). An Idempotency-Key retry replays the first
//     answer instead.
//   - A tip with the review goes through the tips path of package payments
//     (attempt row first, intent on the venue's connected account), before
//     the review is stored: a refused tip (bad amount or currency, card
//     payments unavailable, an unknown outcome) stores nothing. Its request
//     key derives from the booking and the tip's amount, currency and
//     anonymity, so a retry of the same review reaches the same tip and
//     Stripe with the same idempotency key.
package feedback

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/google/uuid"

	"github.com/venueplatform/venue/ent"
	"github.com/venueplatform/venue/ent/booking"
	"github.com/venueplatform/venue/ent/classinstance"
	entfeedback "github.com/venueplatform/venue/ent/feedback"
	"github.com/venueplatform/venue/internal/apperr"
	"github.com/venueplatform/venue/internal/payments"
)

// Window is how long after a class ends its attendees may review it.
const Window = 14 * 24 * time.Hour

// MaxComment is the longest comment, in characters.
const MaxComment = 2000

// Error codes of feedback.
const (
	CodeNotAllowed   = "FEEDBACK_NOT_ALLOWED"
	CodeAlreadyGiven = "FEEDBACK_ALREADY_GIVEN"
	CodeFuture       = "FUTURE_ATTENDANCE"
	CodeCancelled    = "CLASS_CANCELLED"
)

// Reasons of FEEDBACK_NOT_ALLOWED (details.reason).
const (
	ReasonNotAttended  = "not_attended"
	ReasonWindowClosed = "window_closed"
)

// Tip is the tip given with a review.
type Tip struct {
	Amount    float64 // major units
	Currency  string
	Anonymous bool
}

// Params are a member's review.
type Params struct {
	ClassInstanceID uuid.UUID
	BookingID       uuid.UUID
	Rating          int
	Comment         string
	Anonymous       bool
	Tip             *Tip
}

// Given is a stored review and the tip created with it (nil without one).
type Given struct {
	Feedback *ent.Feedback
	Tip      *payments.TipCreated
}

// Service is the feedback domain over one ent client.
type Service struct {
	client *ent.Client
	pay    *payments.Service
	now    func() time.Time
}

// New returns a Service; pay creates the tips (nil: a review with a tip is
// refused as card payments unavailable by pay's own rule, so pass the
// server's payments service).
func New(client *ent.Client, pay *payments.Service) *Service {
	return &Service{client: client, pay: pay, now: time.Now}
}

// WithClock returns s reading time from now (tests).
func (s *Service) WithClock(now func() time.Time) *Service {
	c := *s
	c.now = now
	return &c
}

func notAllowed(reason, msg string) *apperr.Error {
	return (&apperr.Error{Status: http.StatusUnprocessableEntity, Code: CodeNotAllowed, Message: msg}).
		With("reason", reason).With("next_step", nil)
}

func alreadyGiven(id uuid.UUID) *apperr.Error {
	return (&apperr.Error{Status: http.StatusConflict, Code: CodeAlreadyGiven,
		Message: "this visit has been reviewed already"}).With("feedback_id", id.String()).With("next_step", nil)
}

// Give stores member memberID's review of their booking and creates the tip
// given with it. ctx acts as the member in the venue.
func (s *Service) Give(ctx context.Context, memberID uuid.UUID, p Params) (*Given, error) {
	if p.Rating < 1 || p.Rating > 5 {
		return nil, apperr.Validation("rating", "rating must be 1 to 5")
	}
	if len([]rune(p.Comment)) > MaxComment {
		return nil, apperr.Validation("comment", "comment must be at most 2000 characters")
	}
	b, err := s.client.Booking.Query().Where(booking.ID(p.BookingID), booking.MemberID(memberID)).
		WithClassInstance().Only(ctx)
	if ent.IsNotFound(err) {
		return nil, apperr.NotFound("booking")
	}
	if err != nil {
		return nil, fmt.Errorf("feedback: booking: %w", err)
	}
	class := b.Edges.ClassInstance
	if class == nil || class.ID != p.ClassInstanceID {
		return nil, apperr.Validation("class_instance_id", "the booking is not of this class")
	}
	now := s.now()
	switch {
	case class.Status == classinstance.StatusCancelled:
		return nil, (&apperr.Error{Status: http.StatusUnprocessableEntity, Code: CodeCancelled,
			Message: "the class was cancelled"}).With("next_step", nil)
	case class.EndTime.After(now):
		return nil, (&apperr.Error{Status: http.StatusUnprocessableEntity, Code: CodeFuture,
			Message: "the class has not ended yet"}).With("next_step", nil)
	case b.Status != booking.StatusConfirmed && b.Status != booking.StatusCheckedIn:
		return nil, notAllowed(ReasonNotAttended, "only a class the member attended can be reviewed")
	case now.Sub(class.EndTime) > Window:
		return nil, notAllowed(ReasonWindowClosed, "reviews are taken for 14 days after the class")
	}
	prev, err := s.client.Feedback.Query().Where(entfeedback.BookingID(b.ID)).Only(ctx)
	if err == nil {
		return nil, alreadyGiven(prev.ID)
	}
	if !ent.IsNotFound(err) {
		return nil, fmt.Errorf("feedback: previous: %w", err)
	}
	out := &Given{}
	if p.Tip != nil {
		tc, err := s.pay.CreateTip(ctx, memberID, payments.TipParams{
			SourceType: "class", SourceID: class.ID, Amount: p.Tip.Amount, Currency: p.Tip.Currency,
			Anonymous: p.Tip.Anonymous, RequestKey: tipKey(b.ID, p.Tip),
		})
		if err != nil {
			return nil, err
		}
		out.Tip = tc
	}
	c := s.client.Feedback.Create().SetMemberID(memberID).SetBookingID(b.ID).SetClassInstanceID(class.ID).
		SetNillableInstructorID(class.InstructorID).SetRating(p.Rating).SetComment(p.Comment).SetAnonymous(p.Anonymous)
	if out.Tip != nil {
		c.SetTipID(out.Tip.Tip.ID)
	}
	fb, err := c.Save(ctx)
	if ent.IsConstraintError(err) { // the same booking reviewed concurrently
		if prev, perr := s.client.Feedback.Query().Where(entfeedback.BookingID(b.ID)).Only(ctx); perr == nil {
			return nil, alreadyGiven(prev.ID)
		}
	}
	if err != nil {
		return nil, fmt.Errorf("feedback: save: %w", err)
	}
	out.Feedback = fb
	return out, nil
}

// tipKey is the request key of a review's tip: the booking and what the tip
// is, so a retry of the same review finds the same tip and a changed tip
// makes another.
func tipKey(bookingID uuid.UUID, t *Tip) string {
	h := sha256.Sum256([]byte(strings.Join([]string{"feedback", bookingID.String(),
		strconv.FormatFloat(t.Amount, 'f', -1, 64), t.Currency, strconv.FormatBool(t.Anonymous)}, "\x00")))
	return "fb:" + hex.EncodeToString(h[:])
}
