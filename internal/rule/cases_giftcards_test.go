package rule_test

import (
	"context"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/venueplatform/venue/ent"
	"github.com/venueplatform/venue/ent/giftcardmovement"
	"github.com/venueplatform/venue/ent/membercredit"
)

// Gift cards: a member's orders (referencing the member), the card ledger
// (referencing a card) and member credit (referencing the member).
func init() {
	worldExtras = append(worldExtras, func(t *testing.T, ctx context.Context, c *ent.Client, w *world) map[string]uuid.UUID {
		t.Helper()
		o := newGiftCardOrder(c, w.ids["Member"]).SaveX(ctx)
		mv := newMovement(c, w.ids["GiftCard"]).SaveX(ctx)
		cr := newCredit(c, w.ids["Member"]).SaveX(ctx)
		return map[string]uuid.UUID{"GiftCardOrder": o.ID, "GiftCardMovement": mv.ID, "MemberCredit": cr.ID}
	})
	cases["GiftCardOrder"] = venueCase{
		get: func(ctx context.Context, c *ent.Client, id uuid.UUID) error {
			return ignore(c.GiftCardOrder.Get(ctx, id))
		},
		update: func(ctx context.Context, c *ent.Client, id uuid.UUID) error {
			return c.GiftCardOrder.UpdateOneID(id).SetPaymentIntentID("pi_" + uuid.NewString()).Exec(ctx)
		},
		delete: func(ctx context.Context, c *ent.Client, id uuid.UUID) error {
			return c.GiftCardOrder.DeleteOneID(id).Exec(ctx)
		},
		create: func(ctx context.Context, c *ent.Client, org, refs *world) (uuid.UUID, error) {
			return saved(inVenue(newGiftCardOrder(c, refs.ids["Member"]), org).Save(ctx))
		},
	}
	cases["GiftCardMovement"] = venueCase{
		get: func(ctx context.Context, c *ent.Client, id uuid.UUID) error {
			return ignore(c.GiftCardMovement.Get(ctx, id))
		},
		update: func(ctx context.Context, c *ent.Client, id uuid.UUID) error {
			return c.GiftCardMovement.UpdateOneID(id).Exec(ctx)
		},
		delete: func(ctx context.Context, c *ent.Client, id uuid.UUID) error {
			return c.GiftCardMovement.DeleteOneID(id).Exec(ctx)
		},
		create: func(ctx context.Context, c *ent.Client, org, refs *world) (uuid.UUID, error) {
			return saved(inVenue(newMovement(c, refs.ids["GiftCard"]), org).Save(ctx))
		},
	}
	cases["MemberCredit"] = venueCase{
		get: func(ctx context.Context, c *ent.Client, id uuid.UUID) error {
			return ignore(c.MemberCredit.Get(ctx, id))
		},
		update: func(ctx context.Context, c *ent.Client, id uuid.UUID) error {
			return c.MemberCredit.UpdateOneID(id).Exec(ctx)
		},
		delete: func(ctx context.Context, c *ent.Client, id uuid.UUID) error {
			return c.MemberCredit.DeleteOneID(id).Exec(ctx)
		},
		create: func(ctx context.Context, c *ent.Client, org, refs *world) (uuid.UUID, error) {
			return saved(inVenue(newCredit(c, refs.ids["Member"]), org).Save(ctx))
		},
	}
}

// giftCardMemberRows are a member's rows of the gift card types that belong
// to one member (memberRows adds them).
func giftCardMemberRows(client *ent.Client, w *world, member uuid.UUID, rows map[string]uuid.UUID) map[string]uuid.UUID {
	rows["GiftCardOrder"] = newGiftCardOrder(client, member).SaveX(w.ctx).ID
	rows["MemberCredit"] = newCredit(client, member).SaveX(w.ctx).ID
	return rows
}

func newGiftCardOrder(c *ent.Client, member uuid.UUID) *ent.GiftCardOrderCreate {
	return c.GiftCardOrder.Create().SetMemberID(member).SetRequestKey("rk_" + uuid.NewString()).
		SetAmountMinor(50000).SetCurrency("DKK").SetRecipientEmail("friend@example.com").SetDeliverAt(time.Now())
}

func newMovement(c *ent.Client, card uuid.UUID) *ent.GiftCardMovementCreate {
	return c.GiftCardMovement.Create().SetGiftCardID(card).SetKind(giftcardmovement.KindIssue).
		SetAmountMinor(100).SetCurrency("DKK").SetBalanceAfterMinor(100)
}

func newCredit(c *ent.Client, member uuid.UUID) *ent.MemberCreditCreate {
	return c.MemberCredit.Create().SetMemberID(member).SetAmountMinor(100).SetCurrency("DKK").
		SetSource(membercredit.SourceGiftCardRedemption)
}
