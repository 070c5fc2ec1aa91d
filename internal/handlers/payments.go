package handlers

import (
	"context"
	"time"

	"github.com/google/uuid"

	"github.com/venueplatform/venue/internal/apperr"
	"github.com/venueplatform/venue/internal/booking"
	api "github.com/venueplatform/venue/internal/gen/api"
	"github.com/venueplatform/venue/internal/idempotency"
	"github.com/venueplatform/venue/internal/money"
	"github.com/venueplatform/venue/internal/payments"
	"github.com/venueplatform/venue/internal/viewer"
)

// WithPayments returns h taking card payments through svc.
func (h *Handler) WithPayments(svc *payments.Service) *Handler {
	h.pay = svc
	return h
}

// payments is the payments service; a handler built without one has card
// payments off (no Stripe key).
func (h *Handler) payments() *payments.Service {
	if h.pay == nil {
		h.pay = payments.New(h.client, payments.Config{Log: h.log})
	}
	return h.pay
}

// asMember is the caller acting in org as its member, with the user's id.
func (h *Handler) asMember(ctx context.Context, org uuid.UUID) (context.Context, uuid.UUID, uuid.UUID, error) {
	u, ok := viewer.UserFromContext(ctx)
	if !ok {
		return nil, uuid.Nil, uuid.Nil, apperr.Unauthorized("a user session is required")
	}
	mctx, a, err := booking.AsMember(ctx, h.client, org)
	if err != nil {
		return nil, uuid.Nil, uuid.Nil, err
	}
	return mctx, u.UserID, a.Member.ID, nil
}

// GetCheckoutPreview implements api.Handler.
func (h *Handler) GetCheckoutPreview(ctx context.Context, p api.GetCheckoutPreviewParams) (*api.CheckoutPreviewResponse, error) {
	sel, err := previewSelection(string(p.Kind.Or("")), p.Kind.Set, p.Quantity)
	if err != nil {
		return nil, err
	}
	return h.checkoutPreview(ctx, p.XOrganizationID, payments.PreviewParams{
		PassTypeSlug: p.PassTypeSlug, BrandID: optUUID(p.BrandID), FlashSaleID: optUUID(p.FlashSaleID),
		BindingMonths: p.BindingMonths.Or(0), PromoCode: p.PromoCode.Or(""), Selection: sel,
		StartDate: optDate(p.StartDate)}, string(p.Locale.Or("")))
}

// optDate is a date parameter's value, or nil when absent.
func optDate(o api.OptDate) *time.Time {
	if v, ok := o.Get(); ok {
		d := time.Date(v.Year(), v.Month(), v.Day(), 0, 0, 0, 0, time.UTC)
		return &d
	}
	return nil
}

// previewSelection reads a general preview's flexible selection: none
// without kind (and then no quantity), else as the flexible preview reads it.
func previewSelection(kind string, hasKind bool, quantity api.OptInt) (*payments.Selection, error) {
	q, hasQ := quantity.Get()
	if !hasKind {
		if hasQ {
			return nil, apperr.Validation("quantity", "quantity needs kind quantity")
		}
		return nil, nil
	}
	sel, err := payments.SelectionIn(kind, q, hasQ)
	if err != nil {
		return nil, err
	}
	return &sel, nil
}

// PostCheckoutPreview implements api.Handler.
func (h *Handler) PostCheckoutPreview(ctx context.Context, req *api.CheckoutPreviewRequest, p api.PostCheckoutPreviewParams) (*api.CheckoutPreviewResponse, error) {
	sel, err := previewSelection(string(req.Kind.Or("")), req.Kind.Set, req.Quantity)
	if err != nil {
		return nil, err
	}
	return h.checkoutPreview(ctx, p.XOrganizationID, payments.PreviewParams{
		PassTypeSlug: req.PassTypeSlug, BrandID: optUUID(req.BrandID), FlashSaleID: optUUID(req.FlashSaleID),
		BindingMonths: req.BindingMonths.Or(0), PromoCode: req.PromoCode.Or(""), Selection: sel,
		StartDate: optDate(req.StartDate)}, string(req.Locale.Or("")))
}

func (h *Handler) checkoutPreview(ctx context.Context, org uuid.UUID, pp payments.PreviewParams, locale string) (*api.CheckoutPreviewResponse, error) {
	if err := payments.CheckLocale(locale); err != nil {
		return nil, err
	}
	mctx, uid, _, err := h.asMember(ctx, org)
	if err != nil {
		return nil, err
	}
	pv, err := h.payments().Preview(mctx, org, uid, pp)
	if err != nil {
		return nil, err
	}
	pt := pv.PassType
	out := api.CheckoutPreview{
		PassType: api.CheckoutPassType{ID: pt.ID, Slug: pt.Slug, Name: pt.Name, Category: string(pt.Category),
			IsRecurring: pt.IsRecurring, Clips: nilInt(pt.Clips), ValidityDays: nilInt(pt.ValidityDays)},
		Currency: pv.Quote.Currency, CurrencyExponent: money.Exponent(pv.Quote.Currency),
		ChargedToday: money.ToMajor(pv.Quote.PayableMinor, pv.Quote.Currency), ChargedTodayMinor: pv.Quote.PayableMinor,
		VatMinor: pv.VATMinor, VatRateBp: pv.VATRateBP,
		CardPayments:       cardPayments(pv.CardPayments, pv.UnavailableReason),
		PurchaseObligation: obligationOut(pv),
		VatExempt:          api.NewOptBool(pv.Pricing.VATExempt),
		CreditBalanceMinor: api.NewOptInt64(pv.Pricing.CreditBalanceMinor),
		CreditAppliedMinor: api.NewOptInt64(pv.Pricing.CreditAppliedMinor),
	}
	if o := pv.Pricing.Offer; o != nil {
		out.DirectOffer = api.NewOptDirectOffer(api.DirectOffer{FlashSaleID: o.ID, Name: o.Name,
			NormalAmount: pv.Pricing.NormalMinor, OfferAmount: pv.Pricing.ListMinor})
	}
	if a := pv.Pricing.Promo; a != nil {
		out.Promo = api.NewOptCheckoutPromo(api.CheckoutPromo{PromoCodeID: a.Code.ID, Code: a.Code.Code,
			NormalAmountMinor: pv.Pricing.ListMinor + a.DiscountMinor, DiscountMinor: a.DiscountMinor})
	}
	switch {
	case pv.Flex != nil:
		sel := selectionOut(pv.Flex.Quote.Selection)
		sel.AllowanceLabel = pv.Flex.Quote.Selection.AllowanceLabelIn(locale)
		out.FlexibleSelection = api.NewOptFlexibleSelection(sel)
		out.FlexibleQuote = api.NewOptFlexibleQuote(flexQuoteOut(pv.Flex.Quote))
	case pv.SelectionRequired:
		out.PurchaseObligation = api.PurchaseObligation{Status: api.PurchaseObligationStatusUnavailable,
			ReasonCode: api.NewOptString("selection_required"),
			Message:    api.NewOptString(payments.SelectionRequiredMessage(locale))}
	default:
		out.DirectPurchaseQuote = api.NewOptDirectPurchaseQuote(quoteOut(pv.Quote))
	}
	return &api.CheckoutPreviewResponse{Data: out}, nil
}

// PurchaseCheckout implements api.Handler.
func (h *Handler) PurchaseCheckout(ctx context.Context, req *api.CheckoutPurchaseRequest, p api.PurchaseCheckoutParams) (*api.CheckoutPurchaseResponse, error) {
	if req.DirectPurchaseQuote.Set == req.FlexibleQuote.Set {
		return nil, apperr.Validation("body", "send exactly one of direct_purchase_quote and flexible_quote")
	}
	mctx, uid, mid, err := h.asMember(ctx, p.XOrganizationID)
	if err != nil {
		return nil, err
	}
	pp := payments.PurchaseParams{PaymentMethodID: req.PaymentMethodID.Or("")}
	pp.RequestKey, _ = idempotency.Derive(ctx, "purchaseCheckout")
	var res *payments.PurchaseResult
	if fq, ok := req.FlexibleQuote.Get(); ok {
		q, err := flexQuoteIn(fq)
		if err != nil {
			return nil, err
		}
		res, err = h.payments().PurchaseFlexible(mctx, p.XOrganizationID, uid, mid, q, pp)
		if err != nil {
			return nil, err
		}
	} else {
		pp.Quote = quoteIn(req.DirectPurchaseQuote.Value)
		res, err = h.payments().Purchase(mctx, p.XOrganizationID, uid, mid, pp)
		if err != nil {
			return nil, err
		}
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

// ConfirmCheckout implements api.Handler.
func (h *Handler) ConfirmCheckout(ctx context.Context, req *api.CheckoutConfirmRequest, p api.ConfirmCheckoutParams) (*api.CheckoutConfirmResponse, error) {
	pi, hasPI := req.PaymentIntentID.Get()
	si, hasSI := req.SetupIntentID.Get()
	ref, hasRef := req.CheckoutAttempt.Get()
	if n := btoi(hasPI) + btoi(hasSI) + btoi(hasRef); n != 1 {
		return nil, apperr.Validation("body", "send exactly one of payment_intent_id, setup_intent_id or checkout_attempt")
	}
	mctx, _, _, err := h.asMember(ctx, p.XOrganizationID)
	if err != nil {
		return nil, err
	}
	var c *payments.Confirmation
	switch {
	case hasPI:
		c, err = h.payments().Confirm(mctx, pi)
	case hasSI:
		c, err = h.payments().ConfirmSetup(mctx, si)
	default:
		c, err = h.payments().ConfirmAttempt(mctx, ref.CheckoutID, ref.PassTypeID)
	}
	if err != nil {
		return nil, err
	}
	out := api.CheckoutConfirmation{Confirmed: c.Confirmed}
	if c.Confirmed && c.Checkout.PassID != nil {
		out.PurchaseConfirmation = api.NewOptPurchaseConfirmation(api.PurchaseConfirmation{
			Confirmed: true, PassID: *c.Checkout.PassID, PassTypeID: c.Checkout.PassTypeID, CheckoutAttempt: c.Checkout.ID})
	}
	if c.PaymentState != "" {
		out.PaymentState = api.NewOptCheckoutConfirmationPaymentState(api.CheckoutConfirmationPaymentState(c.PaymentState))
	}
	return &api.CheckoutConfirmResponse{Data: out}, nil
}

// GetPaymentsConnect implements api.Handler.
func (h *Handler) GetPaymentsConnect(ctx context.Context) (*api.PaymentsConnectResponse, error) {
	if err := payments.RequireStaff(ctx); err != nil {
		return nil, err
	}
	st, ok, reason, err := h.payments().StatusWithAvailability(ctx)
	if err != nil {
		return nil, err
	}
	out := api.PaymentsConnect{ChargesEnabled: st.ChargesEnabled, DetailsSubmitted: st.DetailsSubmitted,
		CardPayments: cardPayments(ok, reason)}
	if st.AccountID != "" {
		out.AccountID = api.NewNilString(st.AccountID)
	} else {
		out.AccountID.SetToNull()
	}
	return &api.PaymentsConnectResponse{Data: out}, nil
}

// CreatePaymentsAccountLink implements api.Handler.
func (h *Handler) CreatePaymentsAccountLink(ctx context.Context, req *api.PaymentsAccountLinkRequest, _ api.CreatePaymentsAccountLinkParams) (*api.PaymentsAccountLinkResponse, error) {
	if err := payments.RequireStaff(ctx); err != nil {
		return nil, err
	}
	l, err := h.payments().Onboard(ctx, req.RefreshURL.String(), req.ReturnURL.String())
	if err != nil {
		return nil, err
	}
	return &api.PaymentsAccountLinkResponse{Data: api.PaymentsAccountLink{AccountID: l.AccountID,
		ChargesEnabled: l.ChargesEnabled, DetailsSubmitted: l.DetailsSubmitted, URL: l.URL, ExpiresAt: l.ExpiresAt}}, nil
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

// nilString is s, or null when empty.
func nilString(s string) api.NilString {
	if s == "" {
		return api.NilString{Null: true}
	}
	return api.NewNilString(s)
}

func cardPayments(ok bool, reason string) api.CheckoutCardPayments {
	out := api.CheckoutCardPayments{Available: ok}
	if reason != "" {
		out.Reason = api.NewOptNilCheckoutCardPaymentsReason(api.CheckoutCardPaymentsReason(reason))
	} else {
		out.Reason.SetToNull()
	}
	return out
}

func quoteOut(q payments.Quote) api.DirectPurchaseQuote {
	out := api.DirectPurchaseQuote{Version: api.DirectPurchaseQuoteVersion1, OrganizationID: q.OrganizationID,
		UserID: q.UserID, PassTypeID: q.PassTypeID, AuthorityFingerprint: q.AuthorityFingerprint,
		CreditAppliedMinor: q.CreditAppliedMinor, PayableMinor: q.PayableMinor, Currency: q.Currency,
		IssuedAt: q.IssuedAt, ExpiresAt: q.ExpiresAt, Fingerprint: q.Fingerprint}
	if q.FlashSaleID != nil {
		out.FlashSaleID = api.NewOptNilUUID(*q.FlashSaleID)
	} else {
		out.FlashSaleID.SetToNull()
	}
	if q.BindingMonths > 0 {
		out.BindingMonths = api.NewOptNilInt(q.BindingMonths)
	} else {
		out.BindingMonths.SetToNull()
	}
	if q.PromoCodeID != nil {
		out.PromoCodeID = api.NewOptNilUUID(*q.PromoCodeID)
	} else {
		out.PromoCodeID.SetToNull()
	}
	out.StartDate = optNilDate(q.StartDate)
	return out
}

func quoteIn(q api.DirectPurchaseQuote) payments.Quote {
	return payments.Quote{Version: int(q.Version), OrganizationID: q.OrganizationID, UserID: q.UserID,
		PassTypeID: q.PassTypeID, AuthorityFingerprint: q.AuthorityFingerprint,
		CreditAppliedMinor: q.CreditAppliedMinor, PayableMinor: q.PayableMinor, Currency: q.Currency,
		IssuedAt: q.IssuedAt, ExpiresAt: q.ExpiresAt, Fingerprint: q.Fingerprint,
		FlashSaleID: uuidOf(q.FlashSaleID), BindingMonths: q.BindingMonths.Or(0), PromoCodeID: uuidOf(q.PromoCodeID),
		StartDate: nilDateOf(q.StartDate)}
}

func nilInt(p *int) api.OptNilInt {
	if p == nil {
		var o api.OptNilInt
		o.SetToNull()
		return o
	}
	return api.NewOptNilInt(*p)
}
