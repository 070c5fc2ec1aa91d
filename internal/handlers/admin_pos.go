package handlers

import (
	"context"
	"time"

	"github.com/google/uuid"

	"github.com/venueplatform/venue/ent"
	"github.com/venueplatform/venue/ent/member"
	"github.com/venueplatform/venue/internal/apperr"
	api "github.com/venueplatform/venue/internal/gen/api"
	"github.com/venueplatform/venue/internal/idempotency"
	"github.com/venueplatform/venue/internal/model"
	"github.com/venueplatform/venue/internal/money"
	"github.com/venueplatform/venue/internal/notify"
	"github.com/venueplatform/venue/internal/payments/giftcards"
	"github.com/venueplatform/venue/internal/pos"
)

// pos is the point of sale on the handler's client and clock.
func (h *Handler) pos() *pos.Service { return pos.New(h.client, h.now) }

// ListPosProducts implements api.Handler.
func (h *Handler) ListPosProducts(ctx context.Context) (*api.PosProductListResponse, error) {
	if _, err := pos.Staff(ctx, false, pos.PermAccess); err != nil {
		return nil, err
	}
	ps, err := h.pos().Products(ctx)
	if err != nil {
		return nil, err
	}
	out := make([]api.PosProduct, len(ps))
	for i, p := range ps {
		out[i] = posProductOut(p)
	}
	return &api.PosProductListResponse{Data: out, Meta: api.PosProductListResponseMeta{Total: len(out)}}, nil
}

// CreatePosProduct implements api.Handler.
func (h *Handler) CreatePosProduct(ctx context.Context, req *api.PosProductCreateRequest, _ api.CreatePosProductParams) (*api.PosProductResponse, error) {
	u, err := pos.Staff(ctx, false, pos.PermInventory)
	if err != nil {
		return nil, err
	}
	np := pos.NewProduct{Name: req.Name, SKU: req.Sku.Or(""), InitialStock: req.InitialStock.Or(0)}
	for _, p := range req.Prices {
		np.Prices = append(np.Prices, pos.Price{Currency: p.Currency, PriceMinor: p.PriceMinor})
	}
	p, err := h.pos().CreateProduct(ctx, u.UserID, np)
	if err != nil {
		return nil, err
	}
	return &api.PosProductResponse{Data: posProductOut(*p)}, nil
}

func posProductOut(p pos.Product) api.PosProduct {
	out := api.PosProduct{ID: p.ID, Name: p.Name, StockOnHand: p.StockOnHand, Active: p.Active,
		CreatedAt: p.CreatedAt.UTC(), Prices: make([]api.PosProductPrice, len(p.Prices))}
	out.Sku.SetToNull()
	if p.Sku != nil {
		out.Sku.SetTo(*p.Sku)
	}
	for i, pr := range p.Prices {
		out.Prices[i] = api.PosProductPrice{Currency: pr.Currency, PriceMinor: pr.PriceMinor,
			Price: money.ToMajor(pr.PriceMinor, pr.Currency), Version: pr.Version}
	}
	return out
}

// ListPosPassTypes implements api.Handler.
func (h *Handler) ListPosPassTypes(ctx context.Context) (*api.PosPassTypeListResponse, error) {
	if _, err := pos.Staff(ctx, false, pos.PermAccess); err != nil {
		return nil, err
	}
	pts, err := h.pos().PassTypes(ctx)
	if err != nil {
		return nil, err
	}
	out := make([]api.PosPassType, len(pts))
	for i, pt := range pts {
		out[i] = api.PosPassType{ID: pt.ID, Name: pt.Name, Category: string(pt.Category), PriceMinor: pt.PriceMinor,
			Price: money.ToMajor(pt.PriceMinor, pt.Currency), Currency: pt.Currency, IsRecurring: pt.IsRecurring}
	}
	return &api.PosPassTypeListResponse{Data: out, Meta: api.PosPassTypeListResponseMeta{Total: len(out)}}, nil
}

func posItems(items []api.PosCartItem) []pos.Item {
	out := make([]pos.Item, len(items))
	for i, it := range items {
		out[i] = pos.Item{ProductID: it.ProductID.Or(uuid.Nil), PassTypeID: it.PassTypeID.Or(uuid.Nil), Quantity: it.Quantity.Or(1)}
	}
	return out
}

// PreviewPosCatalog implements api.Handler.
func (h *Handler) PreviewPosCatalog(ctx context.Context, req *api.PosCatalogPreviewRequest) (*api.PosQuoteResponse, error) {
	if _, err := pos.Staff(ctx, false, pos.PermAccess, pos.PermSell); err != nil {
		return nil, err
	}
	cart := pos.Cart{Items: posItems(req.Items), Currency: req.ProductCurrency.Or(""), PromoCode: req.PromoCode.Or(""),
		MemberID: req.MemberID.Or(uuid.Nil)}
	if cart.MemberID != uuid.Nil {
		if n, err := h.client.Member.Query().Where(member.ID(cart.MemberID)).Count(ctx); err != nil {
			return nil, err
		} else if n == 0 {
			return nil, apperr.NotFound("member")
		}
	}
	var products int
	for _, it := range cart.Items {
		if it.ProductID != uuid.Nil {
			products++
		}
	}
	if products == 0 && len(cart.Items) > 0 {
		// A pass alone is priced by pass-preview.
		return nil, &apperr.Error{Status: 422, Code: "PRODUCTS_REQUIRED", Message: "the cart holds no product"}
	}
	q, err := h.pos().Preview(ctx, cart)
	if err != nil {
		return nil, err
	}
	return &api.PosQuoteResponse{Data: posQuoteOut(q, req.ProductCurrency.Set)}, nil
}

// PreviewPosPass implements api.Handler.
func (h *Handler) PreviewPosPass(ctx context.Context, req *api.PosPassPreviewRequest) (*api.PosQuoteResponse, error) {
	if _, err := pos.Staff(ctx, false, pos.PermAccess, pos.PermSell); err != nil {
		return nil, err
	}
	if id, ok := req.MemberID.Get(); ok {
		if n, err := h.client.Member.Query().Where(member.ID(id)).Count(ctx); err != nil {
			return nil, err
		} else if n == 0 {
			return nil, apperr.NotFound("member")
		}
	}
	x := posException(req.PromoWindowException)
	if err := x.Check(req.FlashSaleID.Or(uuid.Nil), req.PromoCode.Or("")); err != nil {
		return nil, err
	}
	cart := pos.Cart{Items: []pos.Item{{PassTypeID: req.PassTypeID, Quantity: 1}},
		FlashSaleID: req.FlashSaleID.Or(uuid.Nil), PromoCode: req.PromoCode.Or(""), MemberID: req.MemberID.Or(uuid.Nil)}
	x.Allow(&cart)
	q, err := h.pos().Preview(ctx, cart)
	if err != nil {
		return nil, err
	}
	return &api.PosQuoteResponse{Data: posQuoteOut(q, false)}, nil
}

func posQuoteOut(q *pos.Quote, books bool) api.PosQuote {
	c := q.Currency
	out := api.PosQuote{
		Kind: api.PosQuoteKind(q.Kind), Currency: c, CurrencyExponent: money.Exponent(c),
		Subtotal: money.ToMajor(q.SubtotalMinor, c), VatAmount: money.ToMajor(q.VATMinor, c),
		Total: money.ToMajor(q.TotalMinor, c), DiscountAmount: money.ToMajor(q.DiscountMinor, c),
		SubtotalMinor: q.SubtotalMinor, VatMinor: q.VATMinor, TotalMinor: q.TotalMinor,
		DiscountMinor: q.DiscountMinor, VatRateBp: q.VATRateBP, Lines: posLinesOut(q.Lines),
	}
	if books {
		out.ProductPriceBookVersions = make([]api.PosPriceBookVersion, len(q.Versions))
		for i, v := range q.Versions {
			out.ProductPriceBookVersions[i] = api.PosPriceBookVersion{ProductID: v.ProductID, Currency: v.Currency, Version: v.Version}
		}
		out.ProductQuote.SetTo(api.PosQuoteProductQuote{Currency: c, TotalMinor: q.TotalMinor, Fingerprint: q.Fingerprint})
	}
	if a := q.Promo; a != nil {
		out.PromoCode.SetTo(api.PosQuotePromoCode{ID: a.Code.ID, Code: a.Code.Code, DiscountMinor: a.DiscountMinor})
	}
	return out
}

func posLinesOut(ls []model.PosLine) []api.PosLine {
	out := make([]api.PosLine, len(ls))
	for i, l := range ls {
		out[i] = api.PosLine{ID: uuid.MustParse(l.ID), Kind: api.PosLineKind(l.Kind), Name: l.Name, Quantity: l.Quantity,
			UnitMinor: l.UnitMinor, TotalMinor: l.TotalMinor}
		if l.PriceBookVersion > 0 {
			out[i].PriceBookVersion.SetTo(l.PriceBookVersion)
		}
	}
	return out
}

// CreatePosSale implements api.Handler.
func (h *Handler) CreatePosSale(ctx context.Context, req *api.PosSaleRequest, _ api.CreatePosSaleParams) (api.CreatePosSaleRes, error) {
	if _, err := pos.Staff(ctx, false, pos.PermSell); err != nil {
		return nil, err
	}
	items := posItems(req.Items)
	if id, ok := req.PassTypeID.Get(); ok {
		items = append(items, pos.Item{PassTypeID: id, Quantity: 1})
	}
	sp := pos.SaleParams{Cart: pos.Cart{Items: items, Currency: req.ProductCurrency.Or("")},
		MemberID: req.MemberID.Or(uuid.Nil), Method: string(req.Method), GiftCardCode: req.GiftCardCode.Or("")}
	if v, ok := req.ExpectedTotalMinor.Get(); ok {
		sp.ExpectedTotalMinor = &v
	}
	if pq, ok := req.ProductQuote.Get(); ok {
		if v, ok := req.ExpectedTotalMinor.Get(); ok && v != pq.TotalMinor {
			return nil, apperr.Validation("expected_total_minor", "differs from product_quote.total_minor")
		}
		total := pq.TotalMinor
		sp.ExpectedTotalMinor, sp.ProductQuote = &total, pq.Fingerprint
	}
	sp.RequestKey, _ = idempotency.Derive(ctx, "createPosSale")
	sp.Cart.FlashSaleID, sp.Exception = req.FlashSaleID.Or(uuid.Nil), posException(req.PromoWindowException)
	sp.Cart.PromoCode = req.PromoCode.Or("")
	sp.Exception.Allow(&sp.Cart)
	notifyMember := req.NotifyMember.Or(false)
	if notifyMember {
		if err := h.pos().CheckLinkRecipient(ctx, sp.Method, sp.MemberID); err != nil {
			return nil, err
		}
	}
	if sp.Method == pos.MethodCard || sp.Method == pos.MethodPaymentLink {
		sp.PaymentMethodID, sp.ReturnBaseURL = req.PaymentMethodID.Or(""), optURL(req.ReturnBaseURL)
		return h.sellByCard(ctx, sp, notifyMember)
	}
	s, err := h.pos().Sell(ctx, sp)
	if err != nil {
		return nil, err
	}
	return &api.PosSaleResponse{Data: posSaleOut(s.PosSale)}, nil
}

func posSaleOut(s *ent.PosSale) api.PosSale {
	out := api.PosSale{
		ID: s.ID, Kind: api.PosSaleKind(s.Kind), Method: api.PosSaleMethod(s.Method), Currency: s.Currency,
		CurrencyExponent: money.Exponent(s.Currency), SubtotalMinor: s.SubtotalMinor, DiscountMinor: s.DiscountMinor,
		VatMinor: s.VatMinor, VatRateBp: s.VatRateBp, TotalMinor: s.TotalMinor, Total: money.ToMajor(s.TotalMinor, s.Currency),
		Lines: posLinesOut(s.Lines), PaymentID: s.PaymentID, BusinessDate: s.BusinessDate, CreatedAt: s.CreatedAt.UTC(),
	}
	for _, f := range []struct {
		dst *api.NilUUID
		src *uuid.UUID
	}{{&out.MemberID, s.MemberID}, {&out.PassID, s.PassID}, {&out.GiftCardID, s.GiftCardID}} {
		f.dst.SetToNull()
		if f.src != nil {
			f.dst.SetTo(*f.src)
		}
	}
	return out
}

// SellPosGiftCard implements api.Handler.
func (h *Handler) SellPosGiftCard(ctx context.Context, req *api.PosGiftCardSaleRequest, _ api.SellPosGiftCardParams) (*api.PosGiftCardSaleResponse, error) {
	if _, err := pos.Staff(ctx, false, pos.PermSell); err != nil {
		return nil, err
	}
	ip := giftcards.IssueParams{AmountMinor: req.AmountMinor, Currency: req.Currency.Or(""),
		SenderName: req.SenderName.Or(""), Message: req.Message.Or(""),
		Notify: req.SendNotification.Or(false), RecipientEmail: req.RecipientEmail.Or("")}
	if v, ok := req.ExpiresAt.Get(); ok {
		ip.ExpiresAt = &v
	}
	if ip.Notify {
		if err := notify.Authorize(ctx); err != nil {
			return nil, err
		}
	}
	key, _ := idempotency.Derive(ctx, "sellPosGiftCard")
	gs, err := h.pos().SellGiftCard(ctx, key, ip)
	if err != nil {
		return nil, err
	}
	return &api.PosGiftCardSaleResponse{Data: api.PosGiftCardSaleResponseData{
		GiftCard: adminGiftCardOut(gs.Card), Sale: posSaleOut(gs.Sale)}}, nil
}

// GetPosDay implements api.Handler.
func (h *Handler) GetPosDay(ctx context.Context, p api.GetPosDayParams) (*api.PosDayResponse, error) {
	d, err := h.pos().Day(ctx, p.Date.Or(time.Time{}))
	if err != nil {
		return nil, err
	}
	return &api.PosDayResponse{Data: posDayOut(d)}, nil
}

// ClosePosDay implements api.Handler.
func (h *Handler) ClosePosDay(ctx context.Context, req *api.PosDayCloseRequest, _ api.ClosePosDayParams) (*api.PosDayResponse, error) {
	d, err := h.pos().CloseDay(ctx, pos.CloseParams{Date: req.Date.Or(time.Time{}), CountedCashMinor: req.CountedCashMinor,
		OpeningFloatMinor: req.OpeningFloatMinor.Or(0), Note: req.Note.Or("")})
	if err != nil {
		return nil, err
	}
	return &api.PosDayResponse{Data: posDayOut(d)}, nil
}

func posDayOut(d *pos.Day) api.PosDay {
	out := api.PosDay{Date: d.Date, Currency: d.Currency, ExpectedCashMinor: d.ExpectedCashMinor,
		Totals: make([]api.PosMethodTotal, len(d.Totals))}
	for i, t := range d.Totals {
		out.Totals[i] = api.PosMethodTotal{Method: api.PosMethodTotalMethod(t.Method), Currency: t.Currency, Count: t.Count, TotalMinor: t.TotalMinor}
	}
	out.Close.SetToNull()
	if c := d.Close; c != nil {
		out.Close.SetTo(api.PosDayClose{ID: c.ID, OpeningFloatMinor: c.OpeningFloatMinor, ExpectedCashMinor: c.ExpectedCashMinor,
			CountedCashMinor: c.CountedCashMinor, DifferenceMinor: c.DifferenceMinor, Note: c.Note,
			ClosedByUserID: c.ClosedByUserID, ClosedAt: c.ClosedAt.UTC()})
	}
	return out
}

// CreatePosReturn implements api.Handler. The key is the return's own (8
// to 160 visible ASCII characters), held by the domain rather than the
// shared idempotency store, so a reuse with another body is the contract's
// 409 POS_RETURN_KEY_CONFLICT.
func (h *Handler) CreatePosReturn(ctx context.Context, req *api.PosReturnRequest, p api.CreatePosReturnParams) (*api.PosReturnResponse, error) {
	if _, err := pos.Staff(ctx, true, pos.PermAccess, pos.PermInventory); err != nil {
		return nil, err
	}
	key, err := idempotency.ASCII8To160.Normalize(p.IdempotencyKey)
	if err != nil {
		return nil, err
	}
	rp := pos.ReturnParams{Key: key, SaleID: req.SaleID.Or(uuid.Nil), Reason: req.Reason}
	for _, it := range req.Items {
		rp.Items = append(rp.Items, pos.Item{ProductID: it.ProductID, Quantity: it.Quantity})
	}
	r, err := h.pos().Return(ctx, rp)
	if err != nil {
		return nil, err
	}
	out := api.PosReturn{ID: r.ID, Lines: posLinesOut(r.Lines), Reason: r.Reason, Replayed: r.Replayed, CreatedAt: r.CreatedAt.UTC()}
	out.SaleID.SetToNull()
	if r.SaleID != nil {
		out.SaleID.SetTo(*r.SaleID)
	}
	return &api.PosReturnResponse{Data: out}, nil
}

// GetPosFavorites implements api.Handler.
func (h *Handler) GetPosFavorites(ctx context.Context) (*api.PosFavoritesResponse, error) {
	pins, err := h.pos().Favorites(ctx)
	if err != nil {
		return nil, err
	}
	return &api.PosFavoritesResponse{Data: api.PosFavoritesResponseData{Pinned: posPinsOut(pins)}}, nil
}

// SetPosFavorites implements api.Handler.
func (h *Handler) SetPosFavorites(ctx context.Context, req *api.PosFavoritesRequest, _ api.SetPosFavoritesParams) (*api.PosFavoritesResponse, error) {
	in := make([]model.PosPin, len(req.Pinned))
	for i, p := range req.Pinned {
		in[i] = model.PosPin{Kind: string(p.Kind), ID: p.ID.String()}
	}
	pins, err := h.pos().SetFavorites(ctx, in)
	if err != nil {
		return nil, err
	}
	return &api.PosFavoritesResponse{Data: api.PosFavoritesResponseData{Pinned: posPinsOut(pins)}}, nil
}

func posPinsOut(pins []model.PosPin) []api.PosPin {
	out := make([]api.PosPin, 0, len(pins))
	for _, p := range pins {
		if id, err := uuid.Parse(p.ID); err == nil {
			out = append(out, api.PosPin{Kind: api.PosPinKind(p.Kind), ID: id})
		}
	}
	return out
}

// SetPosKioskPin implements api.Handler.
func (h *Handler) SetPosKioskPin(ctx context.Context, req *api.PosKioskPinSetRequest, _ api.SetPosKioskPinParams) (*api.PosKioskPinResponse, error) {
	if err := h.pos().SetPin(ctx, req.Pin); err != nil {
		return nil, err
	}
	return &api.PosKioskPinResponse{Data: api.PosKioskPinResponseData{Valid: true}}, nil
}

// CheckPosKioskPin implements api.Handler.
func (h *Handler) CheckPosKioskPin(ctx context.Context, req *api.PosKioskPinCheckRequest) (*api.PosKioskPinResponse, error) {
	ok, err := h.pos().CheckPin(ctx, req.StaffID, req.Pin)
	if err != nil {
		return nil, err
	}
	return &api.PosKioskPinResponse{Data: api.PosKioskPinResponseData{Valid: ok}}, nil
}
