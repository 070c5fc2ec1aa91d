package handlers

import (
	"context"

	api "github.com/venueplatform/venue/internal/gen/api"
	"github.com/venueplatform/venue/internal/idempotency"
	"github.com/venueplatform/venue/internal/money"
	"github.com/venueplatform/venue/internal/payments"
)

// PreviewFlexibleCheckout implements api.Handler.
func (h *Handler) PreviewFlexibleCheckout(ctx context.Context, p api.PreviewFlexibleCheckoutParams) (*api.FlexibleCheckoutPreviewResponse, error) {
	q, hasQ := p.Quantity.Get()
	sel, err := payments.SelectionIn(string(p.Kind), q, hasQ)
	if err != nil {
		return nil, err
	}
	mctx, uid, _, err := h.asMember(ctx, p.XOrganizationID)
	if err != nil {
		return nil, err
	}
	pv, err := h.payments().PreviewFlexibleWith(mctx, p.XOrganizationID, uid, p.PassTypeSlug, sel,
		payments.FlexTerms{FlashSaleID: optUUID(p.FlashSaleID), BindingMonths: p.BindingMonths.Or(0),
			StartDate: optDate(p.StartDate)})
	if err != nil {
		return nil, err
	}
	pt, fq := pv.PassType, pv.Quote
	out := api.FlexibleCheckoutPreview{
		PassType: api.CheckoutPassType{ID: pt.ID, Slug: pt.Slug, Name: pt.Name, Category: string(pt.Category),
			IsRecurring: pt.IsRecurring, Clips: nilInt(pt.Clips), ValidityDays: nilInt(pt.ValidityDays)},
		FlexibleSelection: selectionOut(sel),
		Currency:          fq.Currency, CurrencyExponent: money.Exponent(fq.Currency),
		ChargedToday: money.ToMajor(fq.ChargedTodayMinor, fq.Currency), ChargedTodayMinor: fq.ChargedTodayMinor,
		VatMinor: fq.VATMinor, VatRateBp: fq.VATRateBP,
		VatExempt:          api.NewOptBool(pv.Pricing.VATExempt),
		CreditBalanceMinor: api.NewOptInt64(pv.Pricing.CreditBalanceMinor),
		CreditAppliedMinor: api.NewOptInt64(fq.CreditAppliedMinor),
		CardPayments:       cardPayments(pv.CardPayments, pv.UnavailableReason),
		PurchaseObligation: obligationOut(&payments.Preview{Obligation: pv.Obligation, Quote: payments.Quote{Currency: fq.Currency}}),
		FlexibleQuote:      flexQuoteOut(fq),
	}
	if o := pv.Pricing.Offer; o != nil {
		out.DirectOffer = api.NewOptDirectOffer(api.DirectOffer{FlashSaleID: o.ID, Name: o.Name,
			NormalAmount: pv.Pricing.NormalMinor, OfferAmount: pv.Pricing.ListMinor})
	}
	return &api.FlexibleCheckoutPreviewResponse{Data: out}, nil
}

// PurchaseFlexibleCheckout implements api.Handler.
func (h *Handler) PurchaseFlexibleCheckout(ctx context.Context, req *api.FlexibleCheckoutPurchaseRequest, p api.PurchaseFlexibleCheckoutParams) (*api.CheckoutPurchaseResponse, error) {
	q, err := flexQuoteIn(req.FlexibleQuote)
	if err != nil {
		return nil, err
	}
	mctx, uid, mid, err := h.asMember(ctx, p.XOrganizationID)
	if err != nil {
		return nil, err
	}
	pp := payments.PurchaseParams{PaymentMethodID: req.PaymentMethodID.Or("")}
	pp.RequestKey, _ = idempotency.Derive(ctx, "purchaseFlexibleCheckout")
	res, err := h.payments().PurchaseFlexible(mctx, p.XOrganizationID, uid, mid, q, pp)
	if err != nil {
		return nil, err
	}
	co := res.Checkout
	out := api.CheckoutPurchase{
		CheckoutID: co.ID, ProcessorAccountID: res.AccountID,
		PaymentStatus: api.CheckoutPurchasePaymentStatus(res.Status), ServerTime: h.now().UTC(),
		FrozenCheckout: frozenOut(co),
	}
	out.PaymentIntentID, out.SetupIntentID = nilString(res.IntentID), nilString(res.SetupIntentID)
	if co.PassID != nil {
		out.PassID = api.NewOptNilUUID(*co.PassID)
	} else {
		out.PassID.SetToNull()
	}
	if res.ClientSecret != "" && res.Status != payments.StatusPaid {
		out.ClientSecret = api.NewOptNilString(res.ClientSecret)
	} else {
		out.ClientSecret.SetToNull()
	}
	return &api.CheckoutPurchaseResponse{Data: out}, nil
}

func flexQuoteOut(q payments.FlexQuote) api.FlexibleQuote {
	sel := api.FlexibleQuoteSelection{Kind: api.FlexibleQuoteSelectionKind(q.Selection.Kind())}
	if q.Selection.Unlimited {
		sel.Quantity.SetToNull()
	} else {
		sel.Quantity = api.NewNilInt(q.Selection.Quantity)
	}
	out := api.FlexibleQuote{Version: api.FlexibleQuoteVersion1, OrganizationID: q.OrganizationID, UserID: q.UserID,
		PassTypeID: q.PassTypeID, Selection: sel, PeriodPriceMinor: q.PeriodPriceMinor,
		CreditAppliedMinor: q.CreditAppliedMinor, ChargedTodayMinor: q.ChargedTodayMinor, VatMinor: q.VATMinor,
		VatRateBp: q.VATRateBP, Currency: q.Currency, AuthorityFingerprint: q.AuthorityFingerprint,
		PurchaseObligationFingerprint: q.ObligationFingerprint, IssuedAt: q.IssuedAt, ExpiresAt: q.ExpiresAt,
		Fingerprint: q.Fingerprint}
	if q.FlashSaleID != nil {
		out.FlashSaleID = api.NewOptUUID(*q.FlashSaleID)
		out.FlashSaleRuleFingerprint = api.NewOptString(q.FlashSaleRuleFingerprint)
	}
	if q.BindingMonths > 0 {
		out.BindingMonths = api.NewOptInt(q.BindingMonths)
	}
	if q.StartDate != nil {
		out.StartDate = api.NewOptDate(*q.StartDate)
	}
	if q.PromoCodeID != nil {
		out.PromoCodeID = api.NewOptUUID(*q.PromoCodeID)
	}
	return out
}

// flexQuoteIn reads a flexible quote; a selection whose kind and quantity
// disagree is 400 (a signed quote never has one).
func flexQuoteIn(q api.FlexibleQuote) (payments.FlexQuote, error) {
	n, hasN := q.Selection.Quantity.Get()
	sel, err := payments.SelectionIn(string(q.Selection.Kind), n, hasN)
	if err != nil {
		return payments.FlexQuote{}, err
	}
	return payments.FlexQuote{Version: int(q.Version), OrganizationID: q.OrganizationID, UserID: q.UserID,
		PassTypeID: q.PassTypeID, Selection: sel, PeriodPriceMinor: q.PeriodPriceMinor,
		CreditAppliedMinor: q.CreditAppliedMinor, ChargedTodayMinor: q.ChargedTodayMinor, VATMinor: q.VatMinor,
		VATRateBP: q.VatRateBp, Currency: q.Currency, AuthorityFingerprint: q.AuthorityFingerprint,
		ObligationFingerprint: q.PurchaseObligationFingerprint, IssuedAt: q.IssuedAt, ExpiresAt: q.ExpiresAt,
		Fingerprint: q.Fingerprint, FlashSaleID: optUUID(q.FlashSaleID),
		FlashSaleRuleFingerprint: q.FlashSaleRuleFingerprint.Or(""), BindingMonths: q.BindingMonths.Or(0),
		StartDate: optDate(q.StartDate), PromoCodeID: optUUID(q.PromoCodeID)}, nil
}
