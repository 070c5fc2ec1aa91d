package rule_test

import (
	"context"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/venueplatform/venue/ent"
	"github.com/venueplatform/venue/ent/webhookdelivery"
)

func init() {
	worldExtras = append(worldExtras, func(t *testing.T, ctx context.Context, client *ent.Client, w *world) map[string]uuid.UUID {
		sub := client.WebhookSubscription.Create().SetURL("https://example.com/hook").
			SetEventTypes([]string{"member.created"}).SetSecret("whsec_dGVzdA==").SaveX(ctx)
		d := client.WebhookDelivery.Create().SetSubscriptionID(sub.ID).SetEventID(w.ids["Event"]).
			SetEventType("member.created").SetMessageID("evt_" + w.ids["Event"].String()).SaveX(ctx)
		a := client.WebhookAttempt.Create().SetDeliveryID(d.ID).SetNumber(1).SetStartedAt(t0).
			SetOutcome("delivered").SaveX(ctx)
		return map[string]uuid.UUID{"WebhookSubscription": sub.ID, "WebhookDelivery": d.ID, "WebhookAttempt": a.ID}
	})
	// A subscription references no other venue row.
	noReferences = append(noReferences, "WebhookSubscription")

	cases["WebhookSubscription"] = venueCase{
		get: func(ctx context.Context, c *ent.Client, id uuid.UUID) error {
			return ignore(c.WebhookSubscription.Get(ctx, id))
		},
		update: func(ctx context.Context, c *ent.Client, id uuid.UUID) error {
			return c.WebhookSubscription.UpdateOneID(id).SetDescription("x").Exec(ctx)
		},
		delete: func(ctx context.Context, c *ent.Client, id uuid.UUID) error {
			return c.WebhookSubscription.DeleteOneID(id).Exec(ctx)
		},
		create: func(ctx context.Context, c *ent.Client, org, refs *world) (uuid.UUID, error) {
			return saved(inVenue(c.WebhookSubscription.Create().SetURL("https://example.com/new").
				SetEventTypes([]string{"booking.created"}).SetSecret("whsec_bmV3"), org).Save(ctx))
		},
	}
	cases["WebhookDelivery"] = venueCase{
		get: func(ctx context.Context, c *ent.Client, id uuid.UUID) error {
			return ignore(c.WebhookDelivery.Get(ctx, id))
		},
		update: func(ctx context.Context, c *ent.Client, id uuid.UUID) error {
			return c.WebhookDelivery.UpdateOneID(id).SetStatus(webhookdelivery.StatusRetrying).
				SetNextAttemptAt(t0.Add(time.Minute)).Exec(ctx)
		},
		delete: func(ctx context.Context, c *ent.Client, id uuid.UUID) error {
			return c.WebhookDelivery.DeleteOneID(id).Exec(ctx)
		},
		create: func(ctx context.Context, c *ent.Client, org, refs *world) (uuid.UUID, error) {
			return saved(inVenue(c.WebhookDelivery.Create().SetSubscriptionID(refs.ids["WebhookSubscription"]).
				SetEventID(refs.ids["Event"]).SetEventType("member.created").SetMessageID("evt_x"), org).Save(ctx))
		},
	}
	cases["WebhookAttempt"] = venueCase{
		appendOnly: true,
		get: func(ctx context.Context, c *ent.Client, id uuid.UUID) error {
			return ignore(c.WebhookAttempt.Get(ctx, id))
		},
		update: func(ctx context.Context, c *ent.Client, id uuid.UUID) error {
			return c.WebhookAttempt.Update().Where().Exec(ctx)
		},
		delete: func(ctx context.Context, c *ent.Client, id uuid.UUID) error {
			return c.WebhookAttempt.DeleteOneID(id).Exec(ctx)
		},
		create: func(ctx context.Context, c *ent.Client, org, refs *world) (uuid.UUID, error) {
			return saved(inVenue(c.WebhookAttempt.Create().SetDeliveryID(refs.ids["WebhookDelivery"]).
				SetNumber(2).SetStartedAt(t0).SetOutcome("retrying"), org).Save(ctx))
		},
	}
}
