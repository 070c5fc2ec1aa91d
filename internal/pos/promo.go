package pos

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/google/uuid"

	"github.com/venueplatform/venue/ent"
	"github.com/venueplatform/venue/ent/flashsale"
	"github.com/venueplatform/venue/ent/passtype"
	"github.com/venueplatform/venue/internal/apperr"
	"github.com/venueplatform/venue/internal/audit"
	"github.com/venueplatform/venue/internal/money"
)

// Exception is a promo-window exception: the desk honours, for one sale,
// an offer that has ended (flash_sale_after_end), with the clerk's reason
// (5 to 500 characters), audited with the sale.
type Exception struct {
	Kind   string
	Reason string
}

// The kinds of promo-window exception the desk can honour.
const ExceptionFlashSaleAfterEnd = "flash_sale_after_end"

// Limits of an exception's reason.
const (
	MinReason = 5
	MaxReason = 500
)

// Check validates an exception for flashSaleID (nil: none to check).
func (x *Exception) Check(flashSaleID uuid.UUID) error { return x.check(flashSaleID) }

// check validates an exception: its kind, a reason of MinReason to
// MaxReason characters (spaces around it not counted), and an offer to
// honour.
func (x *Exception) check(flashSaleID uuid.UUID) error {
	if x == nil {
		return nil
	}
	x.Reason = strings.TrimSpace(x.Reason)
	switch {
	case x.Kind != ExceptionFlashSaleAfterEnd:
		return apperr.Validation("promo_window_exception.kind", "flash_sale_after_end")
	case len([]rune(x.Reason)) < MinReason || len([]rune(x.Reason)) > MaxReason:
		return apperr.Validation("promo_window_exception.reason", fmt.Sprintf("%d to %d characters", MinReason, MaxReason))
	case flashSaleID == uuid.Nil:
		return apperr.Validation("flash_sale_id", "the exception honours an offer: name it")
	}
	return nil
}

func offerRefused(reason string) *apperr.Error {
	return (&apperr.Error{Status: http.StatusUnprocessableEntity, Code: "FLASH_SALE_UNAVAILABLE",
		Message: "the offer cannot be sold"}).With("reason", reason).With("next_step", nil)
}

// priceOffer prices a pass cart q at flash sale id: the offer's price
// (VAT-inclusive, as its rule says) is the total, the pass type's price the
// subtotal and the difference the discount. The offer must name the pass
// type, be of its product family and currency, not cancelled, started and
// with a place left, and have ended only when allowEnded (a promo-window
// exception); else 422 FLASH_SALE_UNAVAILABLE with details.reason. A
// recurring offer's intro end (IntroThrough) is kept while it lies ahead.
func priceOffer(ctx context.Context, client *ent.Client, q *Quote, id uuid.UUID, allowEnded bool, now time.Time, today time.Time) error {
	pt := q.PassType
	fs, err := client.FlashSale.Query().Where(flashsale.ID(id)).
		WithApplicablePassTypes(func(pq *ent.PassTypeQuery) { pq.Where(passtype.ID(pt.ID)) }).Only(ctx)
	if ent.IsNotFound(err) {
		return offerRefused("not_found")
	}
	if err != nil {
		return fmt.Errorf("pos: flash sale: %w", err)
	}
	r := fs.CommercialRule
	switch {
	case fs.CancelledAt != nil:
		return offerRefused("cancelled")
	case now.Before(fs.StartsAt):
		return offerRefused("not_started")
	case !now.Before(fs.EndsAt) && !allowEnded:
		return offerRefused("ended")
	case now.Before(fs.EndsAt) && allowEnded:
		return apperr.Validation("promo_window_exception", "the offer has not ended: sell it without an exception")
	case fs.CapacityMax != nil && fs.ClaimedCount >= *fs.CapacityMax:
		return offerRefused("sold_out")
	case len(fs.Edges.ApplicablePassTypes) == 0:
		return offerRefused("pass_type_not_included")
	case (fs.ProductFamily == flashsale.ProductFamilyRecurring) != pt.IsRecurring:
		return offerRefused("product_family_mismatch")
	case !strings.EqualFold(r.Currency, pt.Currency):
		return offerRefused("currency_mismatch")
	case r.Version != 2 || r.Kind != "introductory_price" || r.Pricing.Mode != "shared" || r.Pricing.Price < 0 ||
		(r.VatMode != "" && r.VatMode != "included"):
		return offerRefused("rule_unsupported")
	}
	price := money.ToMinor(r.Pricing.Price, q.Currency)
	if price > q.SubtotalMinor {
		price = q.SubtotalMinor
	}
	q.DiscountMinor = q.SubtotalMinor - price
	q.FlashSale = fs
	if pt.IsRecurring {
		if end, err := time.Parse(time.DateOnly, r.Duration.EndsAt); err == nil && !end.Before(today) {
			q.IntroThrough = &end
		}
	}
	return nil
}

// auditException records the exception a sale was made under, with its
// reason, in the sale's transaction (nothing when the sale had none).
func auditException(ctx context.Context, tx *ent.Tx, sale *ent.PosSale) error {
	if sale.PromoExceptionKind == nil {
		return nil
	}
	reason := ""
	if sale.PromoExceptionReason != nil {
		reason = *sale.PromoExceptionReason
	}
	_, err := audit.Record(ctx, tx.Client(), audit.Entry{Action: "pos.promo_window_exception", Target: "pos_sale:" + sale.ID.String(),
		Outcome: "success", Details: map[string]any{"kind": *sale.PromoExceptionKind, "reason": reason,
			"sale_id": sale.ID.String(), "total_minor": sale.TotalMinor, "discount_minor": sale.DiscountMinor,
			"currency": sale.Currency}})
	return err
}
