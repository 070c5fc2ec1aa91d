package giftcards

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/venueplatform/venue/ent"
	"github.com/venueplatform/venue/ent/giftcard"
	"github.com/venueplatform/venue/ent/giftcardmovement"
	"github.com/venueplatform/venue/internal/apperr"
)

// SpendAtDesk spends amountMinor of the amount card code of the viewer's
// venue as payment at the front desk, in the running transaction tx and
// under the card's row lock (the ledger line is a redemption without a
// member). Unknown and cancelled codes are 404 NOT_FOUND; an expired or
// used-up card, a pass card, another currency or more than remains is 422
// GIFT_CARD_NOT_REDEEMABLE (details.reason expired, redeemed, pass_card,
// currency or insufficient_balance).
func SpendAtDesk(ctx context.Context, tx *ent.Tx, code string, amountMinor int64, currency string, now time.Time) (*ent.GiftCard, error) {
	card, err := tx.GiftCard.Query().
		Where(giftcard.Code(strings.ToUpper(strings.TrimSpace(code))), giftcard.StatusNEQ(giftcard.StatusCancelled)).
		ForUpdate().Only(ctx)
	if ent.IsNotFound(err) {
		return nil, apperr.NotFound("gift card")
	}
	if err != nil {
		return nil, err
	}
	switch {
	case card.Status == giftcard.StatusExpired || (card.ExpiresAt != nil && !card.ExpiresAt.After(now)):
		return nil, notRedeemable("expired", "the gift card has expired")
	case card.Status == giftcard.StatusRedeemed || card.RemainingAmountMinor == 0:
		return nil, notRedeemable("redeemed", "the gift card has been used up")
	case card.GiftType == giftcard.GiftTypePass:
		return nil, notRedeemable("pass_card", "a pass gift card pays for its pass only")
	case card.Currency != currency:
		return nil, notRedeemable("currency", "the gift card is in another currency").With("currency", card.Currency)
	case amountMinor > card.RemainingAmountMinor:
		return nil, notRedeemable("insufficient_balance", "the amount is more than remains on the gift card").
			With("remaining_amount_minor", card.RemainingAmountMinor)
	}
	if amountMinor == 0 {
		return card, nil
	}
	upd := tx.GiftCard.Update().Where(giftcard.ID(card.ID), giftcard.RemainingAmountMinorGTE(amountMinor)).
		AddRemainingAmountMinor(-amountMinor)
	if amountMinor == card.RemainingAmountMinor {
		upd.SetStatus(giftcard.StatusRedeemed)
	}
	if n, err := upd.Save(ctx); err != nil || n != 1 {
		return nil, fmt.Errorf("giftcards: desk spend %s: %d rows, %w", card.ID, n, err)
	}
	if card, err = tx.GiftCard.Get(ctx, card.ID); err != nil {
		return nil, err
	}
	err = tx.GiftCardMovement.Create().SetGiftCardID(card.ID).SetKind(giftcardmovement.KindRedemption).
		SetCurrency(card.Currency).SetAmountMinor(-amountMinor).SetBalanceAfterMinor(card.RemainingAmountMinor).Exec(ctx)
	return card, err
}
