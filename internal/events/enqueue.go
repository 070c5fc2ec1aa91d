package events

import (
	"context"
	"fmt"
	"sync"

	"entgo.io/ent/dialect/sql"
	"entgo.io/ent/dialect/sql/sqljson"
	"github.com/jackc/pgx/v5"
	"github.com/riverqueue/river"
	"github.com/riverqueue/river/riverdriver/riverpgxv5"

	"github.com/venueplatform/venue/ent"
	"github.com/venueplatform/venue/ent/webhooksubscription"
	"github.com/venueplatform/venue/internal/system"
	"github.com/venueplatform/venue/internal/webhooks/dispatch"
)

// MessageID is the webhook-id, and the envelope's id, of event id: the same for every
// subscription, attempt and replay, so receivers deduplicate by it.
func MessageID(id fmt.Stringer) string { return "evt_" + id.String() }

// inserter is an insert-only River client: it has no pool and no workers, and inserts jobs
// into the caller's transaction (InsertManyTx); the workers run on the server's client.
var inserter = sync.OnceValues(func() (*river.Client[pgx.Tx], error) {
	return river.NewClient(riverpgxv5.New(nil), &river.Config{})
})

// enqueue creates one webhook delivery of e for every enabled subscription of its venue
// that selects its type, and a River job for each, in the transaction of st.
func enqueue(ctx context.Context, st *txState, e *ent.Event) error {
	subs, err := st.client.WebhookSubscription.Query().
		Where(
			webhooksubscription.OrganizationID(e.OrganizationID),
			webhooksubscription.Enabled(true),
			func(s *sql.Selector) {
				s.Where(sqljson.ValueContains(webhooksubscription.FieldEventTypes, e.Type))
			},
		).
		Select(webhooksubscription.FieldID).
		All(ctx)
	if err != nil || len(subs) == 0 {
		return err
	}
	creates := make([]*ent.WebhookDeliveryCreate, len(subs))
	for i, s := range subs {
		creates[i] = st.client.WebhookDelivery.Create().
			SetSubscriptionID(s.ID).SetEventID(e.ID).SetEventType(e.Type).
			SetMessageID(MessageID(e.ID))
	}
	deliveries, err := st.client.WebhookDelivery.CreateBulk(creates...).Save(ctx)
	if err != nil {
		return err
	}
	jobs := make([]river.InsertManyParams, len(deliveries))
	for i, d := range deliveries {
		jobs[i] = river.InsertManyParams{Args: dispatch.DeliverArgs{DeliveryID: d.ID}}
	}
	return EnqueueJobs(ctx, jobs...)
}

// EnqueueJobs inserts River jobs into the running WithTx transaction of ctx, so that they
// exist exactly when it commits (a replay of a delivery, other durable work). Outside WithTx
// it returns ErrNoTx.
func EnqueueJobs(ctx context.Context, jobs ...river.InsertManyParams) error {
	st, ok := ctx.Value(txKey{}).(*txState)
	if !ok {
		return ErrNoTx
	}
	if len(jobs) == 0 {
		return nil
	}
	rc, err := inserter()
	if err != nil {
		return fmt.Errorf("river inserter: %w", err)
	}
	if _, err := rc.InsertManyTx(ctx, pgxTx{conn: st.conn}, jobs); err != nil {
		return fmt.Errorf("insert jobs: %w", err)
	}
	return nil
}

// recordContext is the context of Record's writes. System call site: the change that
// causes the event was already allowed for this viewer, and a read-only viewer (an API key)
// may cause events too; the event and delivery rows stay bound to the viewer's venue by the
// create hook, and subscriptions are read for that venue explicitly.
func recordContext(ctx context.Context) context.Context {
	return system.Allow(ctx, "events.record")
}
