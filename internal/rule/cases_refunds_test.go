package rule_test

import (
	"context"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/venueplatform/venue/ent"
	"github.com/venueplatform/venue/ent/refund"
)

// Refunds: a refund of a member's payment (referencing the payment and the
// member) and a staff review of one (referencing nothing by edge).
func init() {
	worldExtras = append(worldExtras, func(t *testing.T, ctx context.Context, c *ent.Client, w *world) map[string]uuid.UUID {
		t.Helper()
		rf := newRefund(c, w.ids["Payment"], w.ids["Member"]).SaveX(ctx)
		rv := newRefundReview(c, w.ids["Payment"]).SaveX(ctx)
		return map[string]uuid.UUID{"Refund": rf.ID, "RefundReview": rv.ID}
	})
	cases["Refund"] = venueCase{
		get: func(ctx context.Context, c *ent.Client, id uuid.UUID) error {
			return ignore(c.Refund.Get(ctx, id))
		},
		update: func(ctx context.Context, c *ent.Client, id uuid.UUID) error {
			return c.Refund.UpdateOneID(id).SetStatus(refund.StatusSucceeded).Exec(ctx)
		},
		delete: func(ctx context.Context, c *ent.Client, id uuid.UUID) error {
			return c.Refund.DeleteOneID(id).Exec(ctx)
		},
		create: func(ctx context.Context, c *ent.Client, org, refs *world) (uuid.UUID, error) {
			return saved(inVenue(newRefund(c, refs.ids["Payment"], refs.ids["Member"]), org).Save(ctx))
		},
	}
	cases["RefundReview"] = venueCase{
		get: func(ctx context.Context, c *ent.Client, id uuid.UUID) error {
			return ignore(c.RefundReview.Get(ctx, id))
		},
		update: func(ctx context.Context, c *ent.Client, id uuid.UUID) error {
			return c.RefundReview.UpdateOneID(id).SetUsedAt(time.Now()).Exec(ctx)
		},
		delete: func(ctx context.Context, c *ent.Client, id uuid.UUID) error {
			return c.RefundReview.DeleteOneID(id).Exec(ctx)
		},
		create: func(ctx context.Context, c *ent.Client, org, refs *world) (uuid.UUID, error) {
			return saved(inVenue(newRefundReview(c, refs.ids["Payment"]), org).Save(ctx))
		},
	}
}

// refundMemberRows adds a member's refund to rows, of a payment of its own
// (so the member's Payment row of rows stays free to delete).
func refundMemberRows(client *ent.Client, w *world, member uuid.UUID, rows map[string]uuid.UUID) map[string]uuid.UUID {
	pay := client.Payment.Create().SetMemberID(member).SetAmountMinor(5000).SetCurrency("DKK").SaveX(w.ctx)
	rows["Refund"] = newRefund(client, pay.ID, member).SaveX(w.ctx).ID
	return rows
}

func newRefund(c *ent.Client, pay, member uuid.UUID) *ent.RefundCreate {
	return c.Refund.Create().SetPaymentID(pay).SetMemberID(member).SetAmountMinor(1000).SetCurrency("DKK").
		SetDestination(refund.DestinationExternal).SetMethodReference("cash")
}

func newRefundReview(c *ent.Client, pay uuid.UUID) *ent.RefundReviewCreate {
	return c.RefundReview.Create().SetPaymentID(pay).SetAmountMinor(1000).SetCurrency("DKK").SetRefundableMinor(1000).
		SetConfirmationPhrase("REFUND 10.00 DKK").SetExpiresAt(time.Now().Add(time.Minute))
}
