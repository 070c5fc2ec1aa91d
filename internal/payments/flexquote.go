package payments

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/google/uuid"

	"github.com/venueplatform/venue/ent"
	"github.com/venueplatform/venue/ent/checkout"
	"github.com/venueplatform/venue/ent/passtype"
	"github.com/venueplatform/venue/internal/apperr"
	"github.com/venueplatform/venue/internal/model"
)

// FlexQuote is a flexible-quantity membership's checkout quote (contract:
// "the complete flexible_quote is passed unchanged to purchase"): the
// selection bought, its period price from the volume tiers, what the card is
// charged today and its VAT share. Fingerprint signs every other field with
// the installation's quote key, so a changed quote does not verify;
// AuthorityFingerprint digests what the price was computed from (the pass
// type's flexible configuration and currency, the VAT rate, the credit) and
// ObligationFingerprint the purchase obligation shown beside it, so a
// purchase after either changed is QUOTE_STALE.
type FlexQuote struct {
	Version               int
	OrganizationID        uuid.UUID
	UserID                uuid.UUID
	PassTypeID            uuid.UUID
	Selection             Selection
	PeriodPriceMinor      int64
	CreditAppliedMinor    int64
	ChargedTodayMinor     int64
	VATMinor              int64
	VATRateBP             int
	Currency              string
	AuthorityFingerprint  string
	ObligationFingerprint string
	IssuedAt, ExpiresAt   time.Time
	Fingerprint           string

	// FlashSaleID is the offer whose intro price is charged today (nil:
	// none) and FlashSaleRuleFingerprint the digest of its rule as priced
	// (flashSaleRuleFingerprint), so a purchase after the offer's rule
	// changed is QUOTE_STALE. BindingMonths is the binding tier sold (0:
	// none).
	FlashSaleID              *uuid.UUID
	FlashSaleRuleFingerprint string
	BindingMonths            int
	// StartDate is the venue-local day the membership starts, chosen in
	// the general preview (startdate.go), or nil: the day it activates.
	StartDate *time.Time
	// PromoCodeID is the promo code priced on the first period (promo.go),
	// or nil.
	PromoCodeID *uuid.UUID
}

// FlexTerms are what a flexible membership is sold with besides its
// selection: a flash-sale offer (its intro price today, the selection's
// period price from the day after the intro) or a binding tier (bound for
// its months at the selection's period price); not both.
type FlexTerms struct {
	FlashSaleID   *uuid.UUID
	BindingMonths int
	// StartDate is the chosen start day (nil: the day it activates);
	// checkStart says it is a new choice, checked against today.
	StartDate  *time.Time
	checkStart bool
	// PromoCode (a member's typing) or PromoCodeID (a quote's) is a promo
	// code taken off the first period; not with an offer.
	PromoCode   string
	PromoCodeID *uuid.UUID
}

// FlexPreview is a flexible checkout preview: the pass type, the quote and
// the purchase obligation it binds to.
type FlexPreview struct {
	PassType          *ent.PassType
	Quote             FlexQuote
	Pricing           *Pricing
	Obligation        Obligation
	CardPayments      bool
	UnavailableReason string
}

// PreviewFlexible prices a flexible-quantity membership with selection sel
// for the member of ctx (booking.AsMember): no charge, no write. Unlisted,
// inactive, unknown pass types and pass types that are not flexible
// memberships are 404; a selection the configuration does not sell (outside
// the bounds, off the step, unlimited not offered) is 422 VALIDATION_FAILED
// with details.reason selection_unavailable.
func (s *Service) PreviewFlexible(ctx context.Context, org, userID uuid.UUID, slug string, sel Selection) (*FlexPreview, error) {
	return s.PreviewFlexibleWith(ctx, org, userID, slug, sel, FlexTerms{})
}

// PreviewFlexibleWith is PreviewFlexible sold with terms: an offer that
// cannot be bought is 422 FLASH_SALE_UNAVAILABLE (never the normal price), a
// binding tier the pass type does not sell 422 VALIDATION_FAILED
// (binding_tier_unavailable).
func (s *Service) PreviewFlexibleWith(ctx context.Context, org, userID uuid.UUID, slug string, sel Selection, terms FlexTerms) (*FlexPreview, error) {
	pt, err := s.client.PassType.Query().
		Where(passtype.Slug(slug), passtype.Active(true), passtype.Listed(true)).Only(ctx)
	if ent.IsNotFound(err) {
		return nil, apperr.NotFound("pass type")
	}
	if err != nil {
		return nil, fmt.Errorf("payments: pass type: %w", err)
	}
	if !isFlexible(pt) {
		return nil, apperr.NotFound("flexible membership")
	}
	terms.checkStart = true // a new quote: its start date is checked against today
	return s.previewFlexibleOf(ctx, org, userID, pt, sel, terms)
}

// isFlexible says whether pt is a flexible-quantity membership, sold by its
// selection.
func isFlexible(pt *ent.PassType) bool {
	return pt.PricingMode == passtype.PricingModeFlexibleQuantity && pt.IsRecurring
}

// previewFlexibleOf prices selection sel of the flexible membership pt and
// signs its quote: the one flexible preview behind both the flexible and the
// general checkout preview.
func (s *Service) previewFlexibleOf(ctx context.Context, org, userID uuid.UUID, pt *ent.PassType, sel Selection, terms FlexTerms) (*FlexPreview, error) {
	vp, err := s.venuePayments(ctx)
	if err != nil {
		return nil, err
	}
	pr, ob, err := s.priceFlexible(ctx, pt, userID, sel, vp, terms, false)
	if err != nil {
		return nil, err
	}
	now := s.now().UTC().Truncate(time.Second)
	q := FlexQuote{Version: 1, OrganizationID: org, UserID: userID, PassTypeID: pt.ID, Selection: sel,
		PeriodPriceMinor: pr.FullPriceMinor, CreditAppliedMinor: pr.CreditAppliedMinor, ChargedTodayMinor: pr.PayableMinor,
		VATMinor: pr.VATMinor, VATRateBP: pr.RateBP, Currency: pr.Currency,
		AuthorityFingerprint: flexAuthority(pt, pr), ObligationFingerprint: obligationFingerprint(ob),
		IssuedAt: now, ExpiresAt: now.Add(QuoteTTL), BindingMonths: pr.BindingMonths, StartDate: pr.StartChosen}
	if pr.Promo != nil {
		q.PromoCodeID = &pr.Promo.Code.ID
	}
	if pr.Offer != nil {
		id := pr.Offer.ID
		q.FlashSaleID, q.FlashSaleRuleFingerprint = &id, flashSaleRuleFingerprint(pr.Offer)
	}
	q.Fingerprint = s.signFlex(q)
	out := &FlexPreview{PassType: pt, Quote: q, Pricing: pr, Obligation: ob}
	out.CardPayments, out.UnavailableReason = s.cardPayments(vp)
	return out, nil
}

// PurchaseFlexible charges the flexible quote q exactly as previewed for the
// member of ctx: the same path as Purchase (attempt rows, the reservation,
// activation) with the selection frozen on the checkout and its pass, so the
// renewals start at the selection's period price. A changed or foreign quote
// is 400 VALIDATION_ERROR; an expired one, or one whose price, VAT, credit or
// obligation changed since, 409 QUOTE_STALE. A quote of an offer is
// QUOTE_STALE too when the offer's rule changed (flash_sale_changed) or it
// can no longer be bought, its last place taken by another purchase
// included (flash_sale_unavailable, details.offer_reason); the place is
// claimed with the checkout, as fixed offers claim theirs.
func (s *Service) PurchaseFlexible(ctx context.Context, org, userID, memberID uuid.UUID, q FlexQuote, p PurchaseParams) (*PurchaseResult, error) {
	pt, pr, err := s.verifyFlex(ctx, org, userID, q)
	if err != nil {
		return nil, err
	}
	p.Quote = Quote{Version: 1, OrganizationID: org, UserID: userID, PassTypeID: pt.ID,
		FlashSaleID: q.FlashSaleID, BindingMonths: q.BindingMonths,
		CreditAppliedMinor: q.CreditAppliedMinor, PayableMinor: q.ChargedTodayMinor, Currency: q.Currency,
		AuthorityFingerprint: q.AuthorityFingerprint, IssuedAt: q.IssuedAt, ExpiresAt: q.ExpiresAt,
		Fingerprint: q.Fingerprint, StartDate: q.StartDate}
	res, err := s.purchaseVerified(ctx, org, memberID, pt, pr, p)
	if ae := (*apperr.Error)(nil); errors.As(err, &ae) && ae.Code == CodeFlashSaleUnavai {
		return nil, offerStale(ae) // the place went to another purchase meanwhile
	}
	return res, err
}

// offerStale is the QUOTE_STALE of a flexible quote whose offer can no
// longer be bought (ae: the offer's FLASH_SALE_UNAVAILABLE).
func offerStale(ae *apperr.Error) *apperr.Error {
	return quoteStale("flash_sale_unavailable").With("offer_reason", ae.Details["reason"])
}

// priceFlexible is the pricing of sel for pt today: the common pricing (VAT
// rate and age exemption, the member's credit) with the selection's period
// price from the volume tiers in place of the pass type's own price.
//
// With terms: an offer's intro price is what is sold today (the selection's
// period price from the day after its intro), a binding tier binds the
// member for its months at the selection's period price (a flexible
// membership is priced by its selection, so the tier's own price_minor,
// which prices fixed memberships, is not used). offerHeld says the quote's
// checkout already holds a place of the offer (a retry): its place is not
// counted against the capacity again.
func (s *Service) priceFlexible(ctx context.Context, pt *ent.PassType, userID uuid.UUID, sel Selection, vp *ent.VenuePayments, terms FlexTerms, offerHeld bool) (*Pricing, Obligation, error) {
	period, ok := FlexiblePrice(pt.FlexiblePricingConfig, sel, pt.Currency)
	if !ok {
		return nil, Obligation{}, flexRefused("selection_unavailable", "the membership does not sell that selection")
	}
	rate := 2500
	if vp != nil {
		rate = vp.VatRateBp
	}
	pr, err := s.price(ctx, pt, pricingInput{userID: userID, rateBP: rate, flashSaleID: terms.FlashSaleID,
		bindingMonths: terms.BindingMonths, offerHeld: offerHeld, startDate: terms.StartDate, checkStart: terms.checkStart})
	if err != nil {
		return nil, Obligation{}, err
	}
	pr.NormalMinor, pr.FullPriceMinor = period, period
	if pr.Offer == nil {
		pr.ListMinor = period
	}
	// A promo code takes its discount off the selection's first period
	// (promo.go), never off the renewals.
	if err := s.pricePromo(ctx, pt, pricingInput{flashSaleID: terms.FlashSaleID, promoCode: terms.PromoCode,
		promoCodeID: terms.PromoCodeID}, pr.memberID, pr); err != nil {
		return nil, Obligation{}, err
	}
	pr.CreditAppliedMinor = min(max(pr.CreditBalanceMinor, 0), pr.ListMinor)
	pr.PayableMinor = pr.ListMinor - pr.CreditAppliedMinor
	pr.VATMinor = VATShare(pr.ListMinor, pr.RateBP)
	pr.Selection = &sel
	return pr, ObligationOf(pt, pr), nil
}

// verifyFlex checks that q is a flexible quote this installation issued, to
// this user in this venue, not expired and still priced and binding the same
// way; it returns the pricing recomputed now (equal to the quote's).
func (s *Service) verifyFlex(ctx context.Context, org, userID uuid.UUID, q FlexQuote) (*ent.PassType, *Pricing, error) {
	if q.Version != 1 || !hmac.Equal([]byte(s.signFlex(q)), []byte(q.Fingerprint)) {
		return nil, nil, apperr.Validation("flexible_quote", "the quote was not issued by this service or was changed")
	}
	if q.OrganizationID != org || q.UserID != userID {
		return nil, nil, apperr.NotFound("quote")
	}
	if !s.now().Before(q.ExpiresAt) {
		return nil, nil, quoteStale("expired")
	}
	pt, err := s.client.PassType.Query().Where(passtype.ID(q.PassTypeID), passtype.Active(true)).Only(ctx)
	if ent.IsNotFound(err) {
		return nil, nil, quoteStale("pass_type_unavailable")
	}
	if err != nil {
		return nil, nil, fmt.Errorf("payments: pass type: %w", err)
	}
	if pt.PricingMode != passtype.PricingModeFlexibleQuantity || !pt.IsRecurring {
		return nil, nil, quoteStale("price_changed")
	}
	vp, err := s.venuePayments(ctx)
	if err != nil {
		return nil, nil, err
	}
	held := false
	if q.FlashSaleID != nil { // a retry of a checkout that holds its place
		if held, err = s.client.Checkout.Query().Where(checkout.QuoteFingerprint(q.Fingerprint)).Exist(ctx); err != nil {
			return nil, nil, fmt.Errorf("payments: checkout: %w", err)
		}
	}
	pr, ob, err := s.priceFlexible(ctx, pt, userID, q.Selection, vp,
		FlexTerms{FlashSaleID: q.FlashSaleID, BindingMonths: q.BindingMonths, StartDate: q.StartDate,
			PromoCodeID: q.PromoCodeID}, held)
	if ae := (*apperr.Error)(nil); errors.As(err, &ae) {
		switch {
		case ae.Code == CodeFlashSaleUnavai:
			return nil, nil, offerStale(ae)
		case ae.Code == "VALIDATION_FAILED" && ae.Details["reason"] == "binding_tier_unavailable":
			return nil, nil, quoteStale("binding_tier_unavailable")
		case ae.Code == "VALIDATION_FAILED":
			return nil, nil, quoteStale("price_changed") // the selection is no longer sold
		}
	}
	if err != nil {
		return nil, nil, err
	}
	if pr.Offer != nil && flashSaleRuleFingerprint(pr.Offer) != q.FlashSaleRuleFingerprint {
		return nil, nil, quoteStale("flash_sale_changed")
	}
	if flexAuthority(pt, pr) != q.AuthorityFingerprint || pr.PayableMinor != q.ChargedTodayMinor ||
		pr.FullPriceMinor != q.PeriodPriceMinor || pr.VATMinor != q.VATMinor {
		return nil, nil, quoteStale("price_changed")
	}
	if obligationFingerprint(ob) != q.ObligationFingerprint {
		return nil, nil, quoteStale("obligation_changed")
	}
	return pt, pr, nil
}

// signFlex is the flexible quote's fingerprint: an HMAC of every other
// field, under a prefix of its own so no fixed quote verifies as one.
func (s *Service) signFlex(q FlexQuote) string {
	m := hmac.New(sha256.New, s.quoteKey)
	fmt.Fprintf(m, "flex|v%d|%s|%s|%s|%s|%d|%d|%d|%d|%d|%d|%s|%s|%s|%d|%d", q.Version, q.OrganizationID, q.UserID,
		q.PassTypeID, q.Selection.Kind(), q.Selection.Quantity, q.PeriodPriceMinor, q.CreditAppliedMinor,
		q.ChargedTodayMinor, q.VATMinor, q.VATRateBP, q.Currency, q.AuthorityFingerprint, q.ObligationFingerprint,
		q.IssuedAt.Unix(), q.ExpiresAt.Unix())
	if q.FlashSaleID != nil {
		fmt.Fprintf(m, "|offer:%s|%s", q.FlashSaleID, q.FlashSaleRuleFingerprint)
	}
	if q.BindingMonths != 0 {
		fmt.Fprintf(m, "|binding:%d", q.BindingMonths)
	}
	fmt.Fprint(m, startPart(q.StartDate))
	if q.PromoCodeID != nil {
		fmt.Fprintf(m, "|promo:%s", q.PromoCodeID)
	}
	return "fq1_" + base64.RawURLEncoding.EncodeToString(m.Sum(nil))
}

// flexAuthority digests what a flexible price was computed from: the pass
// type's configuration (tiers, bounds, unlimited price), currency and
// billing period, the VAT rate and exemption, the credit balance and applied.
func flexAuthority(pt *ent.PassType, pr *Pricing) string {
	h := sha256.New()
	cfg := pt.FlexiblePricingConfig
	if cfg == nil {
		cfg = &model.FlexiblePricingConfig{}
	}
	fmt.Fprintf(h, "%s|%s|%d|%d|%d|%v|%v|%v|%d|%v|%d|%d|%d", pt.ID, pt.Currency, cfg.MinimumQuantity, cfg.MaximumQuantity,
		cfg.QuantityStep, cfg.Tiers, cfg.Unlimited, pt.BillingInterval, deref32(pt.BillingIntervalCount), pr.VATExempt,
		pr.RateBP, pr.CreditBalanceMinor, pr.CreditAppliedMinor)
	if pr.Offer != nil {
		fmt.Fprintf(h, "|offer:%s|%d", pr.Offer.ID, pr.ListMinor)
	}
	if pr.BindingMonths != 0 {
		fmt.Fprintf(h, "|binding:%d", pr.BindingMonths)
	}
	if pr.Promo != nil {
		fmt.Fprintf(h, "|promo:%s|%d", pr.Promo.Code.ID, pr.Promo.DiscountMinor)
	}
	return "fa1_" + base64.RawURLEncoding.EncodeToString(h.Sum(nil))[:22]
}

// flashSaleRuleFingerprint digests what an offer sells by: its commercial
// rule (price, currency, intro end), its window and product family. Its
// places (capacity and claims) are not part of it: other members buying do
// not make a quote stale, the last place going to another does.
func flashSaleRuleFingerprint(fs *ent.FlashSale) string {
	rule, _ := json.Marshal(fs.CommercialRule)
	h := sha256.New()
	fmt.Fprintf(h, "%s|%s|%s|%s|%s", fs.ID, rule, fs.StartsAt.UTC().Format(time.RFC3339Nano),
		fs.EndsAt.UTC().Format(time.RFC3339Nano), fs.ProductFamily)
	return "fr1_" + base64.RawURLEncoding.EncodeToString(h.Sum(nil))[:22]
}

// obligationFingerprint digests a purchase obligation as shown: its dates,
// totals and cancellation terms.
func obligationFingerprint(o Obligation) string {
	h := sha256.New()
	d := func(t *time.Time) string {
		if t == nil {
			return "-"
		}
		return t.Format(time.DateOnly)
	}
	fmt.Fprintf(h, "%s|%d|%s|%d|%d|%s|%s|%s|%s", d(o.IntroThrough), o.MinimumTotalMinor, d(o.FirstFullPriceDate),
		o.FullPriceMinor, o.MinimumFullCycles, d(o.CommitmentEndsOn), o.CancellationKind, o.CancellationCond,
		d(o.EarliestPossibleEnd))
	return "po1_" + base64.RawURLEncoding.EncodeToString(h.Sum(nil))[:22]
}

func deref32(p *int) int {
	if p == nil {
		return 0
	}
	return *p
}

// PassSelection is the flexible selection of membership p under cfg: what it
// was bought with, or the configuration's minimum for a pass that recorded
// none. The renewals charge its period price.
func PassSelection(p *ent.Pass, cfg *model.FlexiblePricingConfig) Selection {
	return currentSelection(p, cfg)
}

// PeriodPrice is what one period of membership p of pt costs: a flexible
// membership's selection priced by its tiers, else the pass type's price.
func PeriodPrice(p *ent.Pass, pt *ent.PassType) int64 {
	if pt.PricingMode == passtype.PricingModeFlexibleQuantity {
		if v, ok := FlexiblePrice(pt.FlexiblePricingConfig, currentSelection(p, pt.FlexiblePricingConfig), pt.Currency); ok {
			return v
		}
	}
	return pt.PriceMinor
}

// SelectionIn reads a selection from its API parts: quantity needs a
// quantity (1 or more), unlimited none; anything else is 400
// VALIDATION_ERROR.
func SelectionIn(kind string, quantity int, hasQuantity bool) (Selection, error) {
	switch kind {
	case "unlimited":
		if hasQuantity {
			return Selection{}, apperr.Validation("quantity", "an unlimited selection takes no quantity")
		}
		return Selection{Unlimited: true}, nil
	case "quantity":
		if !hasQuantity || quantity < 1 {
			return Selection{}, apperr.Validation("quantity", "a quantity selection needs a quantity")
		}
		return Selection{Quantity: quantity}, nil
	}
	return Selection{}, apperr.Validation("kind", "kind is quantity or unlimited")
}

// RenewalDates are membership p's next n renewals (the first is the day its
// paid period ends).
func RenewalDates(p *ent.Pass, pt *ent.PassType, n int) []Renewal { return renewals(p, pt, n) }

// FlexibleChangeHook runs in the transaction that schedules a change of a
// flexible membership's selection (the member's or the staff's), with the
// pass as it is after: the renewals price the change from there.
type FlexibleChangeHook func(ctx context.Context, tx *ent.Tx, p *ent.Pass) error

var flexChangeHooks []FlexibleChangeHook

// RegisterFlexibleChangeHook runs h whenever a flexible change is scheduled.
// Call it at init only.
func RegisterFlexibleChangeHook(h FlexibleChangeHook) {
	extMu.Lock()
	defer extMu.Unlock()
	flexChangeHooks = append(flexChangeHooks, h)
}

// RunFlexibleChangeHooks runs the registered hooks for p in tx.
func RunFlexibleChangeHooks(ctx context.Context, tx *ent.Tx, p *ent.Pass) error {
	extMu.RLock()
	hooks := append([]FlexibleChangeHook(nil), flexChangeHooks...)
	extMu.RUnlock()
	for _, h := range hooks {
		if err := h(ctx, tx, p); err != nil {
			return err
		}
	}
	return nil
}
