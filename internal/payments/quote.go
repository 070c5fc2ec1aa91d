package payments

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"fmt"
	"time"

	"github.com/google/uuid"

	"github.com/venueplatform/venue/ent"
	"github.com/venueplatform/venue/ent/checkout"
	"github.com/venueplatform/venue/ent/passtype"
	"github.com/venueplatform/venue/internal/apperr"
)

// QuoteTTL is how long a direct purchase quote may be bought.
const QuoteTTL = 5 * time.Minute

// Quote is a direct purchase quote (contract: "Direct purchase quote"): what
// the member will be charged today, sent unchanged to purchase. Fingerprint
// signs every other field with the installation's quote key, so a changed
// quote does not verify; AuthorityFingerprint digests what the price was
// computed from (pricingAuthority: the pass type's price and currency, the
// VAT rate and age exemption, the credit balance and credit applied, the
// offer, the binding tier), so a purchase after any of them changed is
// QUOTE_STALE.
type Quote struct {
	Version              int
	OrganizationID       uuid.UUID
	UserID               uuid.UUID
	PassTypeID           uuid.UUID
	FlashSaleID          *uuid.UUID
	BindingMonths        int
	AuthorityFingerprint string
	CreditAppliedMinor   int64
	PayableMinor         int64
	Currency             string
	IssuedAt, ExpiresAt  time.Time
	Fingerprint          string

	// PromoCodeID is the promo code priced (promo.go), or nil.
	PromoCodeID *uuid.UUID
	// StartDate is the venue-local day the member chose for the pass to
	// start (startdate.go), or nil: the day it activates.
	StartDate *time.Time
}

// Preview is a checkout preview: the pass type, the quote and its breakdown.
type Preview struct {
	PassType   *ent.PassType
	Quote      Quote
	VATMinor   int64
	VATRateBP  int
	Pricing    *Pricing
	Obligation Obligation
	// CardPayments says whether the venue can take the card payment now;
	// UnavailableReason says why not.
	CardPayments      bool
	UnavailableReason string
	// Flex is the flexible preview of a flexible membership previewed with a
	// selection (its quote replaces Quote's signature), nil otherwise.
	// SelectionRequired says a flexible membership was previewed without
	// one: there is no quote to buy.
	Flex              *FlexPreview
	SelectionRequired bool
}

// PreviewParams are a checkout preview's inputs.
type PreviewParams struct {
	PassTypeSlug  string
	BrandID       *uuid.UUID
	FlashSaleID   *uuid.UUID
	BindingMonths int
	// PromoCode is a promo code the member typed (any case); not with
	// FlashSaleID.
	PromoCode string
	// StartDate is the venue-local day the pass starts (today up to
	// MaxStartAheadDays ahead), or nil: the day it activates.
	StartDate *time.Time
	// Selection is the selection of a flexible membership (kind, quantity):
	// with it the preview answers the flexible quote. Only for flexible
	// memberships.
	Selection *Selection
}

// Preview prices a pass type for the member of ctx (booking.AsMember): no
// charge, no write. Unlisted, inactive and unknown pass types are 404; an
// unavailable offer 422 FLASH_SALE_UNAVAILABLE (never the normal price); a
// binding tier the pass type does not sell 422 VALIDATION_FAILED.
func (s *Service) Preview(ctx context.Context, org, userID uuid.UUID, p PreviewParams) (*Preview, error) {
	if p.PromoCode != "" && p.FlashSaleID != nil {
		return nil, apperr.Validation("promo_code", "an offer and a promo code do not combine: name one")
	}
	pt, err := s.client.PassType.Query().
		Where(passtype.Slug(p.PassTypeSlug), passtype.Active(true), passtype.Listed(true)).
		WithAllowedBrands().Only(ctx)
	if ent.IsNotFound(err) {
		return nil, apperr.NotFound("pass type")
	}
	if err != nil {
		return nil, fmt.Errorf("payments: pass type: %w", err)
	}
	if p.BrandID != nil && len(pt.Edges.AllowedBrands) > 0 {
		ok := false
		for _, b := range pt.Edges.AllowedBrands {
			ok = ok || b.ID == *p.BrandID
		}
		if !ok {
			return nil, (&apperr.Error{Status: 422, Code: "SALE_BRAND_NOT_ALLOWED", Message: "the pass type is not sold for this brand"}).With("next_step", nil)
		}
	}
	if p.Selection != nil {
		return s.previewSelection(ctx, org, userID, pt, p)
	}
	vp, err := s.venuePayments(ctx)
	if err != nil {
		return nil, err
	}
	rate := 2500
	if vp != nil {
		rate = vp.VatRateBp
	}
	pr, err := s.price(ctx, pt, pricingInput{userID: userID, flashSaleID: p.FlashSaleID, bindingMonths: p.BindingMonths, rateBP: rate,
		promoCode: p.PromoCode, startDate: p.StartDate, checkStart: true})
	if err != nil {
		return nil, err
	}
	now := s.now().UTC().Truncate(time.Second)
	q := Quote{
		Version: 1, OrganizationID: org, UserID: userID, PassTypeID: pt.ID, FlashSaleID: p.FlashSaleID,
		BindingMonths: pr.BindingMonths, CreditAppliedMinor: pr.CreditAppliedMinor,
		PayableMinor: pr.PayableMinor, Currency: pr.Currency,
		IssuedAt: now, ExpiresAt: now.Add(QuoteTTL), StartDate: pr.StartChosen,
	}
	if pr.Promo != nil {
		q.PromoCodeID = &pr.Promo.Code.ID
	}
	q.AuthorityFingerprint = pricingAuthority(pt, pr)
	q.Fingerprint = s.sign(q)
	out := &Preview{PassType: pt, Quote: q, VATMinor: pr.VATMinor, VATRateBP: pr.RateBP, Pricing: pr, Obligation: ObligationOf(pt, pr)}
	out.CardPayments, out.UnavailableReason = s.cardPayments(vp)
	out.SelectionRequired = pt.PricingMode == passtype.PricingModeFlexibleQuantity
	return out, nil
}

// previewSelection is the general preview of a flexible membership with a
// selection: the flexible preview (flexquote.go) as a Preview. A selection
// for a pass type that is not a flexible membership is 422
// VALIDATION_FAILED with details.reason selection_unavailable. An offer, a
// binding tier or a promo code (off the first period) is sold with the
// selection (FlexTerms).
func (s *Service) previewSelection(ctx context.Context, org, userID uuid.UUID, pt *ent.PassType, p PreviewParams) (*Preview, error) {
	if !isFlexible(pt) {
		return nil, flexRefused("selection_unavailable", "only a flexible membership is sold with a selection")
	}
	fp, err := s.previewFlexibleOf(ctx, org, userID, pt, *p.Selection, FlexTerms{FlashSaleID: p.FlashSaleID, BindingMonths: p.BindingMonths,
		StartDate: p.StartDate, checkStart: true, PromoCode: p.PromoCode})
	if err != nil {
		return nil, err
	}
	fq := fp.Quote
	return &Preview{PassType: pt, Flex: fp, Pricing: fp.Pricing, Obligation: fp.Obligation,
		Quote: Quote{Version: 1, OrganizationID: org, UserID: userID, PassTypeID: pt.ID,
			FlashSaleID: fq.FlashSaleID, BindingMonths: fq.BindingMonths, CreditAppliedMinor: fq.CreditAppliedMinor, PayableMinor: fq.ChargedTodayMinor, Currency: fq.Currency,
			AuthorityFingerprint: fq.AuthorityFingerprint, IssuedAt: fq.IssuedAt, ExpiresAt: fq.ExpiresAt, StartDate: fq.StartDate,
			PromoCodeID: fq.PromoCodeID},
		VATMinor: fq.VATMinor, VATRateBP: fq.VATRateBP,
		CardPayments: fp.CardPayments, UnavailableReason: fp.UnavailableReason}, nil
}

// sign is the quote's fingerprint: an HMAC of every other field.
func (s *Service) sign(q Quote) string {
	m := hmac.New(sha256.New, s.quoteKey)
	fs := ""
	if q.FlashSaleID != nil {
		fs = q.FlashSaleID.String()
	}
	fmt.Fprintf(m, "v%d|%s|%s|%s|%s|%d|%d|%s|%d|%d|%s|%d", q.Version, q.OrganizationID, q.UserID, q.PassTypeID,
		q.AuthorityFingerprint, q.CreditAppliedMinor, q.PayableMinor, q.Currency, q.IssuedAt.Unix(), q.ExpiresAt.Unix(),
		fs, q.BindingMonths)
	if q.PromoCodeID != nil {
		fmt.Fprintf(m, "|promo:%s", q.PromoCodeID)
	}
	fmt.Fprint(m, startPart(q.StartDate))
	return "qf1_" + base64.RawURLEncoding.EncodeToString(m.Sum(nil))
}

// verifyQuote checks that q is a quote this installation issued, to this
// user in this venue, not expired and still priced the same way; it returns
// the pricing recomputed now (equal to the quote's).
func (s *Service) verifyQuote(ctx context.Context, org, userID uuid.UUID, q Quote) (*ent.PassType, *Pricing, error) {
	if q.Version != 1 || !hmac.Equal([]byte(s.sign(q)), []byte(q.Fingerprint)) {
		return nil, nil, apperr.Validation("direct_purchase_quote", "the quote was not issued by this service or was changed")
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
	vp, err := s.venuePayments(ctx)
	if err != nil {
		return nil, nil, err
	}
	rate := 2500
	if vp != nil {
		rate = vp.VatRateBp
	}
	held := false
	if q.FlashSaleID != nil { // a retry of a checkout that holds the offer's place (another card after a decline)
		if held, err = s.client.Checkout.Query().Where(checkout.QuoteFingerprint(q.Fingerprint)).Exist(ctx); err != nil {
			return nil, nil, fmt.Errorf("payments: checkout: %w", err)
		}
	}
	pr, err := s.price(ctx, pt, pricingInput{userID: userID, flashSaleID: q.FlashSaleID, bindingMonths: q.BindingMonths, rateBP: rate,
		promoCodeID: q.PromoCodeID, offerHeld: held, startDate: q.StartDate})
	if err != nil {
		return nil, nil, err
	}
	if pricingAuthority(pt, pr) != q.AuthorityFingerprint || pr.PayableMinor != q.PayableMinor {
		return nil, nil, quoteStale("price_changed")
	}
	return pt, pr, nil
}
