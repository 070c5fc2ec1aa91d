package frontdesk

import (
	"context"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/google/uuid"

	"github.com/venueplatform/venue/ent"
	"github.com/venueplatform/venue/ent/booking"
	"github.com/venueplatform/venue/internal/apperr"
	"github.com/venueplatform/venue/internal/audit"
	"github.com/venueplatform/venue/internal/events"
	"github.com/venueplatform/venue/internal/notify"
)

// Limits of a contact request.
const (
	MaxContactBookings = 100
	MaxSubject         = 200
	MaxMessage         = 2000
)

// ContactParams are a message to chosen members of a class.
type ContactParams struct {
	ClassID       uuid.UUID
	BookingIDs    []uuid.UUID
	Channel       notify.Channel
	Subject       string
	Message       string
	CorrelationID string
}

// Validate checks p's shape (400 VALIDATION_ERROR naming the field).
func (p ContactParams) Validate() error {
	if p.Channel != notify.Email && p.Channel != notify.SMS {
		return apperr.Validation("channel", "channel must be email or sms")
	}
	if len(p.BookingIDs) == 0 || len(p.BookingIDs) > MaxContactBookings {
		return apperr.Validation("booking_ids", fmt.Sprintf("booking_ids must hold 1 to %d ids", MaxContactBookings))
	}
	seen := make(map[uuid.UUID]bool, len(p.BookingIDs))
	for _, id := range p.BookingIDs {
		if seen[id] {
			return apperr.Validation("booking_ids", "booking_ids must be distinct")
		}
		seen[id] = true
	}
	if strings.TrimSpace(p.Message) == "" || utf8.RuneCountInString(p.Message) > MaxMessage {
		return apperr.Validation("message", fmt.Sprintf("message must hold 1 to %d characters", MaxMessage))
	}
	if utf8.RuneCountInString(p.Subject) > MaxSubject {
		return apperr.Validation("subject", fmt.Sprintf("subject may hold at most %d characters", MaxSubject))
	}
	if p.Channel == notify.Email && strings.TrimSpace(p.Subject) == "" {
		return apperr.Validation("subject", "an e-mail needs a subject")
	}
	return nil
}

// Contact queues p's message to the members of the chosen bookings of the class, in the
// notification outbox, and returns who was queued and who was skipped with the reason.
func Contact(ctx context.Context, client *ent.Client, p ContactParams) (notify.Result, error) {
	if err := p.Validate(); err != nil {
		return notify.Result{}, err
	}
	if _, err := loadClass(ctx, client, p.ClassID); err != nil {
		return notify.Result{}, err
	}
	var res notify.Result
	err := events.WithTx(ctx, client, func(ctx context.Context, tx *ent.Tx) error {
		n, err := tx.Booking.Query().Where(booking.IDIn(p.BookingIDs...), booking.ClassInstanceID(p.ClassID)).Count(ctx)
		if err != nil {
			return fmt.Errorf("frontdesk: bookings: %w", err)
		}
		if n != len(p.BookingIDs) {
			return apperr.NotFound("booking").With("parameter", "booking_ids")
		}
		subject := p.Subject
		if p.Channel == notify.SMS {
			subject = ""
		}
		res, err = notify.EnqueueForBookings(ctx, tx.Client(), p.BookingIDs, p.Channel, notify.Message{
			Kind: "checkin.contact", Subject: subject, Body: p.Message, CorrelationID: p.CorrelationID,
			Data: map[string]any{"class_instance_id": p.ClassID.String()},
		})
		if err != nil {
			return err
		}
		_, err = audit.Record(ctx, tx.Client(), audit.Entry{Action: "checkin.contact", Target: "class:" + p.ClassID.String(),
			Details: map[string]any{"channel": string(p.Channel), "recipients": len(p.BookingIDs),
				"sent": res.Queued, "skipped": len(res.Skipped)}})
		return err
	})
	return res, err
}
