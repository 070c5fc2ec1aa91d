package handlers

import (
	"context"

	"github.com/google/uuid"

	"github.com/venueplatform/venue/ent"
	"github.com/venueplatform/venue/ent/giftcardorder"
	api "github.com/venueplatform/venue/internal/gen/api"
	"github.com/venueplatform/venue/internal/idempotency"
	"github.com/venueplatform/venue/internal/money"
	"github.com/venueplatform/venue/internal/notify"
	"github.com/venueplatform/venue/internal/payments"
	"github.com/venueplatform/venue/internal/payments/giftcards"
)

// giftCards is the gift card service, charging through the handler's
// payments service.
func (h *Handler) giftCards() *giftcards.Service { return giftcards.New(h.client, h.payments()) }

// BuyGiftCard implements api.Handler.
func (h *Handler) BuyGiftCard(ctx context.Context, req *api.GiftCardOrderRequest, p api.BuyGiftCardParams) (*api.GiftCardOrderResponse, error) {
	mctx, _, mid, err := h.asMember(ctx, p.XOrganizationID)
	if err != nil {
		return nil, err
	}
	bp := giftcards.BuyParams{
		AmountMinor: req.AmountMinor, Currency: req.Currency.Or(""), RecipientEmail: req.RecipientEmail,
		RecipientName: req.RecipientName.Or(""), SenderName: req.SenderName.Or(""), Message: req.Message.Or(""),
		DeliverAt: req.DeliverAt.Or(h.now()), PaymentMethodID: req.PaymentMethodID.Or(""),
	}
	bp.RequestKey, _ = idempotency.Derive(ctx, "buyGiftCard")
	b, err := h.giftCards().Buy(mctx, mid, bp)
	if err != nil {
		return nil, err
	}
	return &api.GiftCardOrderResponse{Data: giftCardOrderOut(b.Order, &b.Charge)}, nil
}

// GetGiftCardOrder implements api.Handler.
func (h *Handler) GetGiftCardOrder(ctx context.Context, p api.GetGiftCardOrderParams) (*api.GiftCardOrderResponse, error) {
	mctx, _, _, err := h.asMember(ctx, p.XOrganizationID)
	if err != nil {
		return nil, err
	}
	o, err := h.giftCards().Order(mctx, p.OrderId)
	if err != nil {
		return nil, err
	}
	return &api.GiftCardOrderResponse{Data: giftCardOrderOut(o, nil)}, nil
}

func giftCardOrderOut(o *ent.GiftCardOrder, c *payments.ChargeResult) api.GiftCardOrder {
	out := api.GiftCardOrder{
		ID: o.ID, Status: api.GiftCardOrderStatus(o.Status),
		Amount: money.ToMajor(o.AmountMinor, o.Currency), AmountMinor: o.AmountMinor,
		Currency: o.Currency, CurrencyExponent: money.Exponent(o.Currency),
		RecipientEmail: o.RecipientEmail, RecipientName: api.NewOptString(o.RecipientName),
		SenderName: api.NewOptString(o.SenderName), Message: api.NewOptString(o.Message),
		DeliverAt: o.DeliverAt.UTC(), CreatedAt: o.CreatedAt.UTC(),
		PaymentStatus: api.GiftCardOrderPaymentStatusOpen,
	}
	out.GiftCardID.SetToNull()
	if o.GiftCardID != nil {
		out.GiftCardID.SetTo(*o.GiftCardID)
	}
	out.PaymentIntentID.SetToNull()
	if o.PaymentIntentID != nil {
		out.PaymentIntentID.SetTo(*o.PaymentIntentID)
	}
	out.ClientSecret.SetToNull()
	out.ProcessorAccountID.SetToNull()
	if c != nil {
		out.PaymentStatus = api.GiftCardOrderPaymentStatus(c.Status)
		if c.IntentID != "" {
			out.PaymentIntentID.SetTo(c.IntentID)
		}
		if c.ClientSecret != "" && c.Status != payments.StatusPaid {
			out.ClientSecret.SetTo(c.ClientSecret)
		}
		if c.AccountID != "" {
			out.ProcessorAccountID.SetTo(c.AccountID)
		}
	}
	if o.Status == giftcardorder.StatusPaid {
		out.PaymentStatus = api.GiftCardOrderPaymentStatusSucceeded
	}
	return out
}

// RedeemGiftCard implements api.Handler.
func (h *Handler) RedeemGiftCard(ctx context.Context, req *api.GiftCardRedeemRequest, p api.RedeemGiftCardParams) (*api.GiftCardRedeemResponse, error) {
	mctx, _, mid, err := h.asMember(ctx, p.XOrganizationID)
	if err != nil {
		return nil, err
	}
	r, err := h.giftCards().Redeem(mctx, mid, giftcards.RedeemParams{Code: req.Code, AmountMinor: req.AmountMinor.Or(0)})
	if err != nil {
		return nil, err
	}
	card, spent := r.Card, -r.Movement.AmountMinor
	out := api.GiftCardRedemption{
		Code: card.Code, GiftType: api.GiftCardRedemptionGiftType(card.GiftType),
		RedeemedInto: api.GiftCardRedemptionRedeemedIntoCredit,
		Amount:       money.ToMajor(spent, card.Currency), AmountMinor: spent,
		Currency: card.Currency, CurrencyExponent: money.Exponent(card.Currency),
		RemainingAmount:      money.ToMajor(card.RemainingAmountMinor, card.Currency),
		RemainingAmountMinor: card.RemainingAmountMinor,
		Status:               api.GiftCardRedemptionStatus(card.Status),
	}
	out.PassID.SetToNull()
	out.CreditBalanceMinor.SetTo(r.CreditBalanceMinor)
	if r.Pass != nil {
		out.RedeemedInto = api.GiftCardRedemptionRedeemedIntoPass
		out.PassID.SetTo(r.Pass.ID)
		out.CreditBalanceMinor.SetToNull()
	}
	return &api.GiftCardRedeemResponse{Data: out}, nil
}

// ListAdminGiftCards implements api.Handler.
func (h *Handler) ListAdminGiftCards(ctx context.Context, p api.ListAdminGiftCardsParams) (*api.AdminGiftCardListResponse, error) {
	if err := giftcards.RequireSeller(ctx); err != nil {
		return nil, err
	}
	svc := h.giftCards()
	cards, err := svc.List(ctx, p.Code.Or(""))
	if err != nil {
		return nil, err
	}
	out := make([]api.AdminGiftCard, 0, len(cards))
	for _, c := range cards {
		a := adminGiftCardOut(c)
		if p.Code.Set {
			mv, err := svc.Movements(ctx, c.ID)
			if err != nil {
				return nil, err
			}
			a.Ledger = make([]api.GiftCardLedgerLine, 0, len(mv))
			for _, m := range mv {
				a.Ledger = append(a.Ledger, api.GiftCardLedgerLine{Kind: api.GiftCardLedgerLineKind(m.Kind),
					AmountMinor: m.AmountMinor, BalanceAfterMinor: m.BalanceAfterMinor, Currency: m.Currency, CreatedAt: m.CreatedAt.UTC()})
			}
		}
		out = append(out, a)
	}
	return &api.AdminGiftCardListResponse{Data: out, Meta: api.AdminGiftCardListResponseMeta{Total: len(out)}}, nil
}

// IssueAdminGiftCard implements api.Handler.
func (h *Handler) IssueAdminGiftCard(ctx context.Context, req *api.AdminGiftCardIssueRequest, _ api.IssueAdminGiftCardParams) (*api.AdminGiftCardResponse, error) {
	if err := giftcards.RequireSeller(ctx); err != nil {
		return nil, err
	}
	ip := giftcards.IssueParams{
		Pass:        req.GiftType.Or(api.AdminGiftCardIssueRequestGiftTypeAmount) == api.AdminGiftCardIssueRequestGiftTypePass,
		PassTypeID:  req.PassTypeID.Or(uuid.Nil),
		AmountMinor: req.AmountMinor.Or(0), Currency: req.Currency.Or(""),
		SenderName: req.SenderName.Or(""), Message: req.Message.Or(""),
		Notify: req.SendNotification.Or(false), RecipientEmail: req.RecipientEmail.Or(""),
	}
	if v, ok := req.ExpiresAt.Get(); ok {
		ip.ExpiresAt = &v
	}
	if ip.Notify {
		if err := notify.Authorize(ctx); err != nil {
			return nil, err
		}
	}
	card, err := h.giftCards().Issue(ctx, ip)
	if err != nil {
		return nil, err
	}
	return &api.AdminGiftCardResponse{Data: adminGiftCardOut(card)}, nil
}

func adminGiftCardOut(c *ent.GiftCard) api.AdminGiftCard {
	a := api.AdminGiftCard{
		ID: c.ID, Code: c.Code, GiftType: api.AdminGiftCardGiftType(c.GiftType),
		InitialAmountMinor: c.InitialAmountMinor, RemainingAmountMinor: c.RemainingAmountMinor,
		Currency: c.Currency, CurrencyExponent: money.Exponent(c.Currency),
		Status: api.AdminGiftCardStatus(c.Status), CreatedAt: c.CreatedAt.UTC(),
	}
	a.ExpiresAt.SetToNull()
	if c.ExpiresAt != nil {
		a.ExpiresAt.SetTo(c.ExpiresAt.UTC())
	}
	a.PassTypeID.SetToNull()
	if c.PassTypeID != nil {
		a.PassTypeID.SetTo(*c.PassTypeID)
	}
	return a
}
