package payments

import (
	"context"
	"fmt"
	"time"

	"github.com/google/uuid"

	"github.com/venueplatform/venue/ent"
	"github.com/venueplatform/venue/ent/paymentattempt"
	"github.com/venueplatform/venue/internal/events"
)

// Holds that lapse unpaid. Several things reserve something until a time and
// give it back when they are not paid by then: a checkout (its offer place
// and the member credit it spent), a guest place (its seat), a desk card sale
// (its stock). They are released by one mechanism, so each kind says only
// what is particular to it:
//
//   - Due lists the lapsed holds of every venue: ids and venues only, read
//     through the kind's own registered system site (the sweep holds no
//     viewer).
//   - Release gives back what one held, in its venue's own transaction,
//     after taking the hold's row lock and checking again that it is still
//     held and past its time (a payment or a second sweep may have come
//     first). A hold whose payment is under way (SubjectPaying) is left for
//     that payment to settle either way.
//
// Sweep runs one kind (the server ticks every kind each minute); each hold is
// released at most once however many sweeps race.

// Held is one lapsed hold: the subject's id and its venue.
type Held struct {
	ID    uuid.UUID
	Venue uuid.UUID
}

// HoldKind is one kind of hold that lapses unpaid.
type HoldKind struct {
	// Name names the kind in logs ("checkout", "guest place", ...).
	Name string
	// Due lists the holds of every venue lapsed at now (at most a batch).
	Due func(ctx context.Context, now time.Time) ([]Held, error)
	// Release gives back what hold id held, inside tx in its venue; it
	// reports whether this call released it.
	Release func(ctx context.Context, tx *ent.Tx, id uuid.UUID, now time.Time) (bool, error)
}

// SweepBatch is how many lapsed holds of a kind one sweep reads; the rest
// wait for the next tick.
const SweepBatch = 500

// Sweep releases the holds of kind lapsed at now, each in its venue's own
// transaction, and returns how many it released.
func (k HoldKind) Sweep(ctx context.Context, client *ent.Client, now time.Time) (int, error) {
	due, err := k.Due(ctx, now)
	if err != nil {
		return 0, fmt.Errorf("payments: lapsed %s holds: %w", k.Name, err)
	}
	n := 0
	for _, h := range due {
		released := false
		err := events.WithTx(InVenue(ctx, h.Venue), client, func(ctx context.Context, tx *ent.Tx) error {
			var err error
			released, err = k.Release(ctx, tx, h.ID, now)
			return err
		})
		if err != nil {
			return n, fmt.Errorf("payments: release %s hold %s: %w", k.Name, h.ID, err)
		}
		if released {
			n++
		}
	}
	return n, nil
}

// SubjectPaying reports whether a payment of subject id is being made: an
// attempt created, in flight, processing or of unknown outcome. Its hold is
// then not released; the payment settles it either way.
func SubjectPaying(ctx context.Context, c *ent.Client, id uuid.UUID) (bool, error) {
	return c.PaymentAttempt.Query().Where(paymentattempt.LiveSubjectID(id),
		paymentattempt.StateIn(paymentattempt.StateCreated, paymentattempt.StateInFlight,
			paymentattempt.StateProcessing, paymentattempt.StateUnknown)).Exist(ctx)
}
