package rule_test

import (
	"context"
	"testing"

	"github.com/google/uuid"

	"github.com/venueplatform/venue/ent"
	"github.com/venueplatform/venue/ent/notificationdelivery"
	"github.com/venueplatform/venue/ent/notificationoptout"
	"github.com/venueplatform/venue/ent/pushdevice"
)

// The notification outbox, opt-outs and push devices: each references a member (and a
// delivery its class and instructor), so the wall must refuse another venue's rows there.
func init() {
	worldExtras = append(worldExtras, func(t *testing.T, ctx context.Context, c *ent.Client, w *world) map[string]uuid.UUID {
		t.Helper()
		d := newDelivery(c, w).SaveX(ctx)
		o := c.NotificationOptOut.Create().SetMemberID(w.ids["Member"]).SetChannel(notificationoptout.ChannelSms).SaveX(ctx)
		p := c.PushDevice.Create().SetMemberID(w.ids["Member"]).SetPlatform(pushdevice.PlatformIos).SetToken("tok-" + uuid.NewString()).SaveX(ctx)
		return map[string]uuid.UUID{"NotificationDelivery": d.ID, "NotificationOptOut": o.ID, "PushDevice": p.ID}
	})
	cases["NotificationDelivery"] = venueCase{
		get: func(ctx context.Context, c *ent.Client, id uuid.UUID) error {
			return ignore(c.NotificationDelivery.Get(ctx, id))
		},
		update: func(ctx context.Context, c *ent.Client, id uuid.UUID) error {
			return c.NotificationDelivery.UpdateOneID(id).SetAttempts(1).Exec(ctx)
		},
		delete: func(ctx context.Context, c *ent.Client, id uuid.UUID) error {
			return c.NotificationDelivery.DeleteOneID(id).Exec(ctx)
		},
		create: func(ctx context.Context, c *ent.Client, org, refs *world) (uuid.UUID, error) {
			return saved(inVenue(newDelivery(c, refs), org).Save(ctx))
		},
	}
	cases["NotificationOptOut"] = venueCase{
		get: func(ctx context.Context, c *ent.Client, id uuid.UUID) error {
			return ignore(c.NotificationOptOut.Get(ctx, id))
		},
		update: func(ctx context.Context, c *ent.Client, id uuid.UUID) error {
			return c.NotificationOptOut.UpdateOneID(id).Exec(ctx)
		},
		delete: func(ctx context.Context, c *ent.Client, id uuid.UUID) error {
			return c.NotificationOptOut.DeleteOneID(id).Exec(ctx)
		},
		create: func(ctx context.Context, c *ent.Client, org, refs *world) (uuid.UUID, error) {
			// One row per member and channel: the two creates of A's own rows use two channels.
			ch := notificationoptout.ChannelEmail
			if org != nil {
				ch = notificationoptout.ChannelPush
			}
			return saved(inVenue(c.NotificationOptOut.Create().SetMemberID(refs.ids["Member"]).SetChannel(ch), org).Save(ctx))
		},
	}
	cases["PushDevice"] = venueCase{
		get: func(ctx context.Context, c *ent.Client, id uuid.UUID) error { return ignore(c.PushDevice.Get(ctx, id)) },
		update: func(ctx context.Context, c *ent.Client, id uuid.UUID) error {
			return c.PushDevice.UpdateOneID(id).SetPlatform(pushdevice.PlatformAndroid).Exec(ctx)
		},
		delete: func(ctx context.Context, c *ent.Client, id uuid.UUID) error {
			return c.PushDevice.DeleteOneID(id).Exec(ctx)
		},
		create: func(ctx context.Context, c *ent.Client, org, refs *world) (uuid.UUID, error) {
			return saved(inVenue(c.PushDevice.Create().SetMemberID(refs.ids["Member"]).
				SetPlatform(pushdevice.PlatformWeb).SetToken("tok-"+uuid.NewString()), org).Save(ctx))
		},
	}
}

// newDelivery is a delivery to refs' member about refs' class, taught by refs' instructor.
func newDelivery(c *ent.Client, refs *world) *ent.NotificationDeliveryCreate {
	return c.NotificationDelivery.Create().
		SetChannel(notificationdelivery.ChannelEmail).
		SetRecipientKind(notificationdelivery.RecipientKindMember).
		SetMemberID(refs.ids["Member"]).
		SetInstructorID(refs.ids["Instructor"]).
		SetClassInstanceID(refs.ids["ClassInstance"]).
		SetAddress("astrid@example.com").
		SetKind("class.cancelled")
}
