package handlers

import (
	"context"

	"github.com/google/uuid"

	api "github.com/venueplatform/venue/internal/gen/api"
	"github.com/venueplatform/venue/internal/idempotency"
	"github.com/venueplatform/venue/internal/money"
	"github.com/venueplatform/venue/internal/pos"
)

// SellMembership implements api.Handler.
func (h *Handler) SellMembership(ctx context.Context, req *api.PosMembershipSaleRequest, _ api.SellMembershipParams) (api.SellMembershipRes, error) {
	if _, err := pos.Staff(ctx, false, pos.PermSell); err != nil {
		return nil, err
	}
	mp := pos.MembershipParams{MemberID: req.MemberID, PassTypeID: req.PassTypeID, Method: string(req.Method),
		GiftCardCode: req.GiftCardCode.Or(""), PaymentMethodID: req.PaymentMethodID.Or(""),
		ReturnBaseURL: optURL(req.ReturnBaseURL)}
	if v, ok := req.ExpectedTotalMinor.Get(); ok {
		mp.ExpectedTotalMinor = &v
	}
	mp.FlashSaleID, mp.Exception = req.FlashSaleID.Or(uuid.Nil), posException(req.PromoWindowException)
	mp.PromoCode = req.PromoCode.Or("")
	mp.RequestKey, _ = idempotency.Derive(ctx, "sellMembership")
	notifyMember := req.NotifyMember.Or(false)
	if notifyMember {
		if err := h.pos().CheckLinkRecipient(ctx, mp.Method, mp.MemberID); err != nil {
			return nil, err
		}
	}
	m, err := h.pos().SellMembership(ctx, h.payments(), mp)
	if err != nil {
		return nil, err
	}
	if m.Sale != nil {
		return &api.PosSaleResponse{Data: posSaleOut(m.Sale)}, nil
	}
	out := posCardSaleOut(m.Card)
	if notifyMember {
		sent, err := h.pos().SendPaymentLink(ctx, m.Card)
		if err != nil {
			return nil, err
		}
		out.LinkSent = api.NewOptBool(sent)
	}
	return &api.PosCardSaleResponse{Data: out}, nil
}

// sellByCard is createPosSale paid by card (method card or payment_link).
// With notifyMember, a payment link is e-mailed to the member (once).
func (h *Handler) sellByCard(ctx context.Context, sp pos.SaleParams, notifyMember bool) (api.CreatePosSaleRes, error) {
	c, err := h.pos().SellByCard(ctx, h.payments(), sp)
	if err != nil {
		return nil, err
	}
	if c.Completed() {
		return &api.PosSaleResponse{Data: posSaleOut(c.Sale)}, nil
	}
	out := posCardSaleOut(c)
	if notifyMember {
		sent, err := h.pos().SendPaymentLink(ctx, c)
		if err != nil {
			return nil, err
		}
		out.LinkSent = api.NewOptBool(sent)
	}
	return &api.PosCardSaleResponse{Data: out}, nil
}

// GetPosCardSale implements api.Handler.
func (h *Handler) GetPosCardSale(ctx context.Context, p api.GetPosCardSaleParams) (*api.PosCardSaleResponse, error) {
	c, err := h.pos().CardSale(ctx, h.payments(), p.SaleId)
	if err != nil {
		return nil, err
	}
	return &api.PosCardSaleResponse{Data: posCardSaleOut(c)}, nil
}

// ConfirmPosCardSale implements api.Handler.
func (h *Handler) ConfirmPosCardSale(ctx context.Context, p api.ConfirmPosCardSaleParams) (*api.PosCardSaleResponse, error) {
	c, err := h.pos().ConfirmCardSale(ctx, h.payments(), p.SaleId)
	if err != nil {
		return nil, err
	}
	return &api.PosCardSaleResponse{Data: posCardSaleOut(c)}, nil
}

func posCardSaleOut(c *pos.CardSale) api.PosCardSale {
	r := c.Row
	out := api.PosCardSale{ID: r.ID, Status: api.PosCardSaleStatus(r.Status), Kind: api.PosCardSaleKind(r.Kind),
		Method: api.PosCardSaleMethod(r.Method), Currency: r.Currency, CurrencyExponent: money.Exponent(r.Currency),
		TotalMinor: r.TotalMinor, Total: money.ToMajor(r.TotalMinor, r.Currency), VatMinor: r.VatMinor,
		Lines: posLinesOut(r.Lines), HoldExpiresAt: r.HoldExpiresAt.UTC(), CreatedAt: r.CreatedAt.UTC()}
	out.MemberID.SetToNull()
	if r.MemberID != nil {
		out.MemberID.SetTo(*r.MemberID)
	}
	out.PaymentLink.SetToNull()
	if c.Charge != nil && !c.Completed() && c.Charge.ClientSecret != "" {
		out.PaymentLink.SetTo(api.PosPaymentLink{URL: c.URL, PaymentIntentID: c.Charge.IntentID,
			ClientSecret: c.Charge.ClientSecret, StripeAccount: c.Charge.AccountID})
	}
	out.Sale.SetToNull()
	if c.Sale != nil {
		out.Sale.SetTo(posSaleOut(c.Sale))
	}
	return out
}

// posException is a request's promo-window exception (nil when none).
func posException(o api.OptPosPromoWindowException) *pos.Exception {
	v, ok := o.Get()
	if !ok {
		return nil
	}
	return &pos.Exception{Kind: string(v.Kind), Reason: v.Reason}
}

// optURL is an optional URL as text ("" when left out).
func optURL(o api.OptURI) string {
	if v, ok := o.Get(); ok {
		return v.String()
	}
	return ""
}
