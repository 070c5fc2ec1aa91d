package pos

import (
	"context"

	"github.com/google/uuid"

	"github.com/venueplatform/venue/ent"
	"github.com/venueplatform/venue/ent/member"
	"github.com/venueplatform/venue/ent/payment"
	"github.com/venueplatform/venue/ent/possale"
	"github.com/venueplatform/venue/internal/apperr"
	"github.com/venueplatform/venue/internal/events"
	"github.com/venueplatform/venue/internal/payments"
	"github.com/venueplatform/venue/internal/payments/giftcards"
)

// MembershipParams are a pass type (a membership, a clip card) sold to a
// member at the desk.
type MembershipParams struct {
	MemberID   uuid.UUID
	PassTypeID uuid.UUID
	// Method is cash, gift_card (GiftCardCode), card (PaymentMethodID, a
	// saved card of the member) or payment_link (ReturnBaseURL).
	Method             string
	GiftCardCode       string
	PaymentMethodID    string
	ReturnBaseURL      string
	ExpectedTotalMinor *int64
	RequestKey         string
	// FlashSaleID prices the pass at an offer; Exception honours it after
	// its end.
	FlashSaleID uuid.UUID
	Exception   *Exception
	// PromoCode prices the pass with a promo code (not with an offer).
	PromoCode string
}

// Membership is a desk sale of a pass: completed (Sale, its pass active),
// or, paid by card, waiting for the money (Card).
type Membership struct {
	Sale *ent.PosSale
	Card *CardSale
}

// SellMembership sells a pass type to a member at the desk. The pass is
// activated once through the payments checkout's activation (the same
// function as a purchase in the app: the pass, its payment row, the events
// payment.succeeded and pass.activated); a recurring pass paid by card also
// starts its renewals there (billing's start, queued in the activation's
// transaction). Paid in cash or by gift card it is activated in the sale's
// transaction, without renewals (no card to renew with); by card, as
// SellByCard. Unknown or another venue's members and pass types are 404.
func (s *Service) SellMembership(ctx context.Context, pay *payments.Service, p MembershipParams) (*Membership, error) {
	u, err := Staff(ctx, false, PermSell)
	if err != nil {
		return nil, err
	}
	sp := SaleParams{Cart: Cart{Items: []Item{{PassTypeID: p.PassTypeID, Quantity: 1}}}, MemberID: p.MemberID,
		Method: p.Method, GiftCardCode: p.GiftCardCode, ExpectedTotalMinor: p.ExpectedTotalMinor, RequestKey: p.RequestKey,
		PaymentMethodID: p.PaymentMethodID, ReturnBaseURL: p.ReturnBaseURL, Exception: p.Exception, membership: true}
	if err := p.Exception.check(p.FlashSaleID, p.PromoCode); err != nil {
		return nil, err
	}
	sp.Cart.FlashSaleID, sp.Cart.PromoCode, sp.Cart.MemberID = p.FlashSaleID, p.PromoCode, p.MemberID
	p.Exception.Allow(&sp.Cart)
	switch p.Method {
	case MethodCard, MethodPaymentLink:
		c, err := s.SellByCard(ctx, pay, sp)
		if err != nil {
			return nil, err
		}
		return &Membership{Sale: c.Sale, Card: c}, nil
	case MethodCash:
		if p.GiftCardCode != "" || p.PaymentMethodID != "" {
			return nil, apperr.Validation("method", "cash names no card")
		}
	case MethodGiftCard:
		if p.GiftCardCode == "" {
			return nil, apperr.Validation("gift_card_code", "required to pay by gift card")
		}
	default:
		return nil, apperr.Validation("method", "cash, gift_card, card or payment_link")
	}
	if prev, err := s.client.PosSale.Query().Where(possale.SoldByUserID(u.UserID), possale.RequestKey(p.RequestKey)).Only(ctx); err == nil {
		return &Membership{Sale: prev}, nil
	} else if !ent.IsNotFound(err) {
		return nil, err
	}
	now := s.now()
	sp.Cart.at = now
	var out *ent.PosSale
	err = events.WithTx(ctx, s.client, func(ctx context.Context, tx *ent.Tx) error {
		q, err := quote(ctx, tx.Client(), sp.Cart)
		if err != nil {
			return err
		}
		if p.ExpectedTotalMinor != nil && *p.ExpectedTotalMinor != q.TotalMinor {
			return conflict("BALANCE_CHANGED", "the total differs from the expected total; nothing was charged").
				With("total_minor", q.TotalMinor).With("next_step", "refresh")
		}
		mem, err := tx.Member.Query().Where(member.ID(p.MemberID)).WithUser().Only(ctx)
		if ent.IsNotFound(err) {
			return apperr.NotFound("member")
		} else if err != nil {
			return err
		}
		day, _, err := venueDay(ctx, tx.Client(), now)
		if err != nil {
			return err
		}
		id := uuid.New()
		sc := tx.PosSale.Create().SetID(id).SetRequestKey(p.RequestKey).SetKind(possale.KindPass).
			SetMethod(possale.Method(p.Method)).SetCurrency(q.Currency).SetSubtotalMinor(q.SubtotalMinor).
			SetDiscountMinor(q.DiscountMinor).SetVatMinor(q.VATMinor).SetVatRateBp(q.VATRateBP).
			SetTotalMinor(q.TotalMinor).SetLines(q.Lines).SetSoldByUserID(u.UserID).SetBusinessDate(day).
			SetMemberID(mem.ID)
		if p.Exception != nil {
			sc.SetPromoExceptionKind(p.Exception.Kind).SetPromoExceptionReason(p.Exception.Reason)
		}
		if p.Method == MethodGiftCard {
			card, err := giftcards.SpendAtDesk(ctx, tx, p.GiftCardCode, q.TotalMinor, q.Currency, now)
			if err != nil {
				return err
			}
			sc.SetGiftCardID(card.ID)
		}
		co, err := deskCheckout(ctx, tx, id, mem.ID, q, 0, now)
		if err != nil {
			return err
		}
		if err := claimPromo(ctx, tx, q, mem.ID, co.ID, p.Exception, now); err != nil {
			return err
		}
		if err := claimOfferPlace(ctx, tx, q); err != nil {
			return err
		}
		if co, err = payments.ActivateAtDesk(ctx, tx, co, "", payment.Method(p.Method), now); err != nil {
			return err
		}
		sc.SetPassID(*co.PassID)
		if q.TotalMinor > 0 {
			pr, err := tx.Payment.Query().Where(payment.PassID(*co.PassID)).Only(ctx)
			if err != nil {
				return err
			}
			sc.SetPaymentID(pr.ID)
		} else {
			// A pass given for nothing: activation writes no payment row; the
			// sale still needs one to stand on (0, succeeded).
			pr, err := tx.Payment.Create().SetMemberID(mem.ID).SetPassID(*co.PassID).SetAmountMinor(0).
				SetCurrency(q.Currency).SetStatus(payment.StatusSucceeded).SetKind(payment.KindPassPurchase).
				SetPaidAt(now).SetMethod(payment.Method(p.Method)).Save(ctx)
			if err != nil {
				return err
			}
			sc.SetPaymentID(pr.ID)
		}
		if out, err = sc.Save(ctx); err != nil {
			return err
		}
		if err := auditException(ctx, tx, out); err != nil {
			return err
		}
		return completed(ctx, tx, out, mem)
	})
	if err != nil {
		if ent.IsConstraintError(err) {
			if prev, qerr := s.client.PosSale.Query().Where(possale.SoldByUserID(u.UserID), possale.RequestKey(p.RequestKey)).Only(ctx); qerr == nil {
				return &Membership{Sale: prev}, nil
			}
		}
		return nil, err
	}
	return &Membership{Sale: out}, nil
}
