package payments

import (
	"context"
	"fmt"

	"github.com/riverqueue/river"

	"github.com/venueplatform/venue/ent"
	"github.com/venueplatform/venue/ent/processorevent"
	"github.com/venueplatform/venue/internal/events"
	"github.com/venueplatform/venue/internal/payments/stripeport"
	"github.com/venueplatform/venue/internal/system"
)

// ErrBadSignature is an inbound event that did not verify: answer 400 and
// record nothing.
var ErrBadSignature = stripeport.ErrBadSignature

// Receive verifies an inbound Stripe event (raw body, Stripe-Signature header)
// and, in one transaction, records its id (once: a duplicate changes
// nothing) and queues the job that processes it. It reports whether the
// event was new.
func (s *Service) Receive(ctx context.Context, payload []byte, signature string) (bool, error) {
	ev, err := stripeport.VerifyEvent(payload, signature, s.secrets...)
	if err != nil {
		return false, ErrBadSignature
	}
	// System call site: the event arrives signed by Stripe, before anyone
	// knows its venue; the row is global and only the event sites reach it.
	ctx = system.Allow(ctx, "payments.inbound_event")
	fresh := false
	err = events.WithTx(ctx, s.client, func(ctx context.Context, tx *ent.Tx) error {
		id, err := tx.ProcessorEvent.Create().
			SetEventID(ev.ID).SetType(ev.Type).SetAccount(ev.Account).SetPayload(payload).
			OnConflictColumns(processorevent.FieldEventID).DoNothing().ID(ctx)
		if err != nil {
			if isNoRows(err) {
				return nil // recorded before: a redelivery
			}
			return err
		}
		fresh = true
		return events.EnqueueJobs(ctx, river.InsertManyParams{Args: EventArgs{EventID: id.String()}})
	})
	if err != nil {
		return false, fmt.Errorf("payments: record event: %w", err)
	}
	return fresh, nil
}
