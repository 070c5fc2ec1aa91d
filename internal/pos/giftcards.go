package pos

import (
	"context"

	"github.com/google/uuid"

	"github.com/venueplatform/venue/ent"
	"github.com/venueplatform/venue/ent/payment"
	"github.com/venueplatform/venue/ent/possale"
	"github.com/venueplatform/venue/internal/apperr"
	"github.com/venueplatform/venue/internal/events"
	"github.com/venueplatform/venue/internal/model"
	"github.com/venueplatform/venue/internal/payments/giftcards"
)

// GiftCardSale is a gift card sold at the desk: the card (issued on the
// shared ledger) and the sale that took its price.
type GiftCardSale struct {
	Card *ent.GiftCard
	Sale *ent.PosSale
}

// SellGiftCard sells an amount gift card over the counter for cash, in one
// transaction: the card with its issue ledger line (package giftcards, the
// same ledger as cards bought online), an optional e-mail of its code to
// the recipient, a payment row of kind gift_card (no VAT: a multi-purpose
// voucher), the sale and pos.sale.completed. The caller checked
// notifications.send when p.Notify.
func (s *Service) SellGiftCard(ctx context.Context, requestKey string, p giftcards.IssueParams) (*GiftCardSale, error) {
	u, err := Staff(ctx, false, PermSell)
	if err != nil {
		return nil, err
	}
	if p.Pass || p.PassTypeID != uuid.Nil {
		return nil, apperr.Validation("pass_type_id", "the desk sells amount cards")
	}
	if prev, err := s.client.PosSale.Query().Where(possale.SoldByUserID(u.UserID), possale.RequestKey(requestKey)).Only(ctx); err == nil {
		card, err := s.client.GiftCard.Get(ctx, *prev.GiftCardID)
		if err != nil {
			return nil, err
		}
		return &GiftCardSale{Card: card, Sale: prev}, nil
	} else if !ent.IsNotFound(err) {
		return nil, err
	}
	now := s.now()
	var out GiftCardSale
	err = events.WithTx(ctx, s.client, func(ctx context.Context, tx *ent.Tx) error {
		card, err := giftcards.New(tx.Client(), nil).Issue(ctx, p)
		if err != nil {
			return err
		}
		day, _, err := venueDay(ctx, tx.Client(), now)
		if err != nil {
			return err
		}
		pr, err := tx.Payment.Create().SetAmountMinor(card.InitialAmountMinor).SetCurrency(card.Currency).
			SetStatus(payment.StatusSucceeded).SetKind(payment.KindGiftCard).SetPaidAt(now).
			SetMethod(payment.MethodCash).Save(ctx)
		if err != nil {
			return err
		}
		sale, err := tx.PosSale.Create().SetRequestKey(requestKey).SetKind(possale.KindGiftCard).
			SetMethod(possale.MethodCash).SetCurrency(card.Currency).SetSubtotalMinor(card.InitialAmountMinor).
			SetVatMinor(0).SetVatRateBp(0).SetTotalMinor(card.InitialAmountMinor).
			SetLines([]model.PosLine{{Kind: "gift_card", ID: card.ID.String(), Name: "Gift card", Quantity: 1,
				UnitMinor: card.InitialAmountMinor, TotalMinor: card.InitialAmountMinor}}).
			SetPaymentID(pr.ID).SetGiftCardID(card.ID).SetSoldByUserID(u.UserID).SetBusinessDate(day).Save(ctx)
		if err != nil {
			return err
		}
		out = GiftCardSale{Card: card, Sale: sale}
		return completed(ctx, tx, sale, nil)
	})
	if err != nil {
		return nil, err
	}
	return &out, nil
}
