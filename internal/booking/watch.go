package booking

import (
	"context"
	"fmt"
	"time"

	"github.com/google/uuid"

	"github.com/venueplatform/venue/ent"
	entbooking "github.com/venueplatform/venue/ent/booking"
	"github.com/venueplatform/venue/ent/classinstance"
)

// The live-watch admission window of the contract: admission opens 10
// minutes before the start and closes at the start; an admitted viewer may
// come back (recover a dropped stream) until 5 minutes after the end.
const (
	WatchOpensBefore  = 10 * time.Minute
	WatchRecoverAfter = 5 * time.Minute
)

// Watch states.
const (
	// WatchUnavailable: not an online class, or the booking holds no seat.
	WatchUnavailable = "unavailable"
	// WatchNotOpen: admission has not opened yet.
	WatchNotOpen = "not_open"
	// WatchOpen: admission is open.
	WatchOpen = "open"
	// WatchRecovery: admission closed, but the member was admitted and may
	// rejoin.
	WatchRecovery = "recovery"
	// WatchClosed: too late to join (or to rejoin).
	WatchClosed = "closed"
)

// Watch is a booking's live-watch window and its state at a moment.
type Watch struct {
	OpensAt, ClosesAt, RecoverUntil time.Time
	State                           string
	Admitted                        bool
}

// WatchWindow returns the live-watch window of booking b of class cl at now.
func WatchWindow(cl *ent.ClassInstance, b *ent.Booking, now time.Time) Watch {
	w := Watch{
		OpensAt:      cl.StartTime.Add(-WatchOpensBefore),
		ClosesAt:     cl.StartTime,
		RecoverUntil: cl.EndTime.Add(WatchRecoverAfter),
		Admitted:     b.WatchAdmittedAt != nil,
	}
	seat := b.Status == entbooking.StatusConfirmed || b.Status == entbooking.StatusCheckedIn
	switch {
	case !cl.Online || !seat || cl.Status == classinstance.StatusCancelled:
		w.State = WatchUnavailable
	case now.Before(w.OpensAt):
		w.State = WatchNotOpen
	case now.Before(w.ClosesAt):
		w.State = WatchOpen
	case now.Before(w.RecoverUntil) && w.Admitted:
		w.State = WatchRecovery
	default:
		w.State = WatchClosed
	}
	return w
}

// Admit admits the actor's booking id to its class's live stream at now:
// during the open window (first admission recorded in watch_admitted_at),
// or during recovery for a booking admitted before. Otherwise 422
// WATCH_NOT_OPEN (details.opens_at), WATCH_CLOSED or WATCH_UNAVAILABLE.
func Admit(ctx context.Context, client *ent.Client, a Actor, id uuid.UUID, now time.Time) (*ent.Booking, Watch, error) {
	b, err := Get(ctx, client, a, id)
	if err != nil {
		return nil, Watch{}, err
	}
	cl := b.Edges.ClassInstance
	w := WatchWindow(cl, b, now)
	switch w.State {
	case WatchUnavailable:
		return nil, w, unprocessable(CodeWatchUnavailable, "the booking has no live stream to watch")
	case WatchNotOpen:
		return nil, w, unprocessable(CodeWatchNotOpen, "admission to the live stream has not opened").
			With("opens_at", utc(w.OpensAt))
	case WatchClosed:
		return nil, w, unprocessable(CodeWatchClosed, "admission to the live stream has closed")
	case WatchOpen:
		if b.WatchAdmittedAt == nil {
			if err := client.Booking.Update().Where(entbooking.ID(b.ID), entbooking.WatchAdmittedAtIsNil()).
				SetWatchAdmittedAt(now).Exec(ctx); err != nil {
				return nil, w, fmt.Errorf("booking: admit: %w", err)
			}
			b.WatchAdmittedAt = &now
		}
		w.Admitted = true
	}
	return b, w, nil
}
