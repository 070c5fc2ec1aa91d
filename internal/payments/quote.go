package payments

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/google/uuid"

	"github.com/venueplatform/venue/ent"
	"github.com/venueplatform/venue/ent/passtype"
	"github.com/venueplatform/venue/internal/apperr"
)

// QuoteTTL is how long a direct purchase quote may be bought.
const QuoteTTL = 5 * time.Minute

// Quote is a direct purchase quote (contract: "Direct purchase quote"): what
// the member will be charged today, sent unchanged to purchase. Fingerprint
// signs every other field with the installation's quote key, so a changed
// quote does not verify; AuthorityFingerprint digests what the price was
// computed from (the pass type's price and currency, the VAT rate, the
// credit applied), so a purchase after any of them changed is QUOTE_STALE.
type Quote struct {
	Version              int
	OrganizationID       uuid.UUID
	UserID               uuid.UUID
	PassTypeID           uuid.UUID
	AuthorityFingerprint string
	CreditAppliedMinor   int64
	PayableMinor         int64
	Currency             string
	IssuedAt, ExpiresAt  time.Time
	Fingerprint          string
}

// Preview is a checkout preview: the pass type, the quote and its breakdown.
type Preview struct {
	PassType  *ent.PassType
	Quote     Quote
	VATMinor  int64
	VATRateBP int
	// CardPayments says whether the venue can take the card payment now;
	// UnavailableReason says why not.
	CardPayments      bool
	UnavailableReason string
}

// PreviewParams are a checkout preview's inputs.
type PreviewParams struct {
	PassTypeSlug string
	BrandID      *uuid.UUID
	FlashSaleID  *uuid.UUID
}

// Preview prices a pass type for the member of ctx (booking.AsMember): no
// charge, no write. Unlisted, inactive and unknown pass types are 404.
func (s *Service) Preview(ctx context.Context, org, userID uuid.UUID, p PreviewParams) (*Preview, error) {
	if p.FlashSaleID != nil {
		// Offers are not sold through direct checkout yet; the contract
		// forbids falling back to the normal price.
		return nil, (&apperr.Error{Status: 422, Code: CodeFlashSaleUnavai, Message: "the offer is not available"}).With("next_step", nil)
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
	vp, err := s.venuePayments(ctx)
	if err != nil {
		return nil, err
	}
	rate := 2500
	if vp != nil {
		rate = vp.VatRateBp
	}
	now := s.now().UTC().Truncate(time.Second)
	q := Quote{
		Version: 1, OrganizationID: org, UserID: userID, PassTypeID: pt.ID,
		PayableMinor: pt.PriceMinor, Currency: strings.ToUpper(pt.Currency),
		IssuedAt: now, ExpiresAt: now.Add(QuoteTTL),
	}
	q.AuthorityFingerprint = authority(pt, rate, q.CreditAppliedMinor)
	q.Fingerprint = s.sign(q)
	out := &Preview{PassType: pt, Quote: q, VATMinor: VATShare(q.PayableMinor, rate), VATRateBP: rate}
	out.CardPayments, out.UnavailableReason = s.cardPayments(vp)
	return out, nil
}

// authority digests what a quote's amount was computed from.
func authority(pt *ent.PassType, rateBP int, creditMinor int64) string {
	sum := sha256.Sum256([]byte(strings.Join([]string{
		pt.ID.String(), strconv.FormatInt(pt.PriceMinor, 10), strings.ToUpper(pt.Currency),
		strconv.Itoa(rateBP), strconv.FormatInt(creditMinor, 10), pt.UpdatedAt.UTC().Format(time.RFC3339Nano),
	}, "|")))
	return base64.RawURLEncoding.EncodeToString(sum[:16])
}

// sign is the quote's fingerprint: an HMAC of every other field.
func (s *Service) sign(q Quote) string {
	m := hmac.New(sha256.New, s.quoteKey)
	fmt.Fprintf(m, "v%d|%s|%s|%s|%s|%d|%d|%s|%d|%d", q.Version, q.OrganizationID, q.UserID, q.PassTypeID,
		q.AuthorityFingerprint, q.CreditAppliedMinor, q.PayableMinor, q.Currency, q.IssuedAt.Unix(), q.ExpiresAt.Unix())
	return "qf1_" + base64.RawURLEncoding.EncodeToString(m.Sum(nil))
}

// verifyQuote checks that q is a quote this installation issued, to this
// user in this venue, not expired and still priced the same way.
func (s *Service) verifyQuote(ctx context.Context, org, userID uuid.UUID, q Quote) (*ent.PassType, int, error) {
	if q.Version != 1 || !hmac.Equal([]byte(s.sign(q)), []byte(q.Fingerprint)) {
		return nil, 0, apperr.Validation("direct_purchase_quote", "the quote was not issued by this service or was changed")
	}
	if q.OrganizationID != org || q.UserID != userID {
		return nil, 0, apperr.NotFound("quote")
	}
	if !s.now().Before(q.ExpiresAt) {
		return nil, 0, quoteStale("expired")
	}
	pt, err := s.client.PassType.Query().Where(passtype.ID(q.PassTypeID), passtype.Active(true)).Only(ctx)
	if ent.IsNotFound(err) {
		return nil, 0, quoteStale("pass_type_unavailable")
	}
	if err != nil {
		return nil, 0, fmt.Errorf("payments: pass type: %w", err)
	}
	vp, err := s.venuePayments(ctx)
	if err != nil {
		return nil, 0, err
	}
	rate := 2500
	if vp != nil {
		rate = vp.VatRateBp
	}
	if authority(pt, rate, q.CreditAppliedMinor) != q.AuthorityFingerprint {
		return nil, 0, quoteStale("price_changed")
	}
	return pt, rate, nil
}
