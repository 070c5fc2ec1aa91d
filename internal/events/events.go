// Package events records domain events (member.created, booking.created, ...)
// in the events table, the outbox webhook delivery reads. Record runs in the
// caller's transaction, so an event exists exactly when the change that
// caused it was committed; delivery (signing, retries, history) is separate.
package events

import (
	"context"
	"errors"
	"fmt"

	"github.com/venueplatform/venue/ent"
	"github.com/venueplatform/venue/internal/viewer"
)

// Event types.
const (
	// MemberCreated: a person joined a venue (data: member_id, user_id,
	// client_display_id).
	MemberCreated = "member.created"
)

// ErrNoVenue means Record was called without a venue viewer in the context.
var ErrNoVenue = errors.New("events: no venue viewer in context")

// Record appends an event of typ with data to the outbox of the viewer's
// venue. Pass the transactional client of the change that causes it.
func Record(ctx context.Context, client *ent.Client, typ string, data map[string]any) (*ent.Event, error) {
	if _, ok := viewer.VenueFromContext(ctx); !ok {
		return nil, ErrNoVenue
	}
	if data == nil {
		data = map[string]any{}
	}
	e, err := client.Event.Create().SetType(typ).SetPayload(data).Save(ctx)
	if err != nil {
		return nil, fmt.Errorf("events: record %s: %w", typ, err)
	}
	return e, nil
}
