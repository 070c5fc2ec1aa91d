package notify

import (
	"context"

	"github.com/google/uuid"

	"github.com/venueplatform/venue/ent"
)

// EnqueueForMembers writes, in client's transaction, one delivery on ch to
// each of the members ids (as clients) under the same rules as the other
// enqueues: the venue's channel must be on, the member reachable there and
// not opted out; the others are recorded as skipped with their reasons. It
// serves messages about something other than a class (an appointment).
func EnqueueForMembers(ctx context.Context, client *ent.Client, ids []uuid.UUID, ch Channel, msg Message) (Result, error) {
	venue, err := venueChannels(ctx, client)
	if err != nil {
		return Result{}, err
	}
	people, err := loadMembers(ctx, client, ids)
	if err != nil {
		return Result{}, err
	}
	rs := make([]recipient, 0, len(ids))
	for _, id := range ids {
		r, ok := people[id]
		if !ok {
			return Result{}, &ent.NotFoundError{}
		}
		rs = append(rs, r)
	}
	w := newWriter(ctx, client, msg, nil)
	w.add(Clients, ch, venue[ch], rs)
	return w.save()
}
