package rule_test

import (
	"context"
	"testing"

	"github.com/google/uuid"

	"github.com/venueplatform/venue/ent"
)

// Reviews (one per booking, referencing the member, the booking and the
// class) and the files of outbox e-mails (referencing their delivery).
func init() {
	worldExtras = append(worldExtras, func(t *testing.T, ctx context.Context, c *ent.Client, w *world) map[string]uuid.UUID {
		t.Helper()
		fb, err := newFeedback(ctx, c, w.ids["Member"], w.ids["ClassInstance"])
		if err != nil {
			t.Fatal(err)
		}
		// The outbox's own extra may come later: a delivery of the files' own.
		delivery := w.ids["NotificationDelivery"]
		if delivery == uuid.Nil {
			delivery = newDelivery(c, w).SaveX(ctx).ID
		}
		att := newAttachment(c, delivery).SaveX(ctx)
		return map[string]uuid.UUID{"Feedback": fb.ID, "NotificationAttachment": att.ID}
	})
	cases["Feedback"] = venueCase{
		get: func(ctx context.Context, c *ent.Client, id uuid.UUID) error {
			return ignore(c.Feedback.Get(ctx, id))
		},
		update: func(ctx context.Context, c *ent.Client, id uuid.UUID) error {
			return c.Feedback.UpdateOneID(id).Exec(ctx)
		},
		delete: func(ctx context.Context, c *ent.Client, id uuid.UUID) error {
			return c.Feedback.DeleteOneID(id).Exec(ctx)
		},
		create: func(ctx context.Context, c *ent.Client, org, refs *world) (uuid.UUID, error) {
			// One review per booking: each create reviews a booking of its own.
			bk, err := c.Booking.Create().SetMemberID(refs.ids["Member"]).SetClassInstanceID(refs.ids["ClassInstance"]).Save(ctx)
			if err != nil {
				return uuid.Nil, err
			}
			return saved(inVenue(c.Feedback.Create().SetMemberID(refs.ids["Member"]).SetBookingID(bk.ID).
				SetClassInstanceID(refs.ids["ClassInstance"]).SetRating(4), org).Save(ctx))
		},
	}
	cases["NotificationAttachment"] = venueCase{
		get: func(ctx context.Context, c *ent.Client, id uuid.UUID) error {
			return ignore(c.NotificationAttachment.Get(ctx, id))
		},
		update: func(ctx context.Context, c *ent.Client, id uuid.UUID) error {
			return c.NotificationAttachment.UpdateOneID(id).Exec(ctx)
		},
		delete: func(ctx context.Context, c *ent.Client, id uuid.UUID) error {
			return c.NotificationAttachment.DeleteOneID(id).Exec(ctx)
		},
		create: func(ctx context.Context, c *ent.Client, org, refs *world) (uuid.UUID, error) {
			return saved(inVenue(newAttachment(c, refs.ids["NotificationDelivery"]), org).Save(ctx))
		},
	}
}

// feedbackMemberRows are a member's rows of the review type (memberRows
// adds them).
func feedbackMemberRows(client *ent.Client, w *world, member uuid.UUID, rows map[string]uuid.UUID) map[string]uuid.UUID {
	fb, err := newFeedback(w.ctx, client, member, w.ids["ClassInstance"])
	if err != nil {
		panic(err)
	}
	rows["Feedback"] = fb.ID
	return rows
}

// newFeedback books member on class and reviews the booking.
func newFeedback(ctx context.Context, c *ent.Client, member, class uuid.UUID) (*ent.Feedback, error) {
	bk, err := c.Booking.Create().SetMemberID(member).SetClassInstanceID(class).Save(ctx)
	if err != nil {
		return nil, err
	}
	return c.Feedback.Create().SetMemberID(member).SetBookingID(bk.ID).SetClassInstanceID(class).SetRating(5).Save(ctx)
}

func newAttachment(c *ent.Client, delivery uuid.UUID) *ent.NotificationAttachmentCreate {
	return c.NotificationAttachment.Create().SetDeliveryID(delivery).SetFilename("receipt.pdf").
		SetContentType("application/pdf").SetData([]byte("%PDF-1.3"))
}
