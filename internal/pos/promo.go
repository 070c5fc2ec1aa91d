package pos

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"time"

	"entgo.io/ent/dialect/sql"
	"github.com/google/uuid"

	"github.com/venueplatform/venue/ent"
	"github.com/venueplatform/venue/ent/flashsale"
	"github.com/venueplatform/venue/ent/passtype"
	"github.com/venueplatform/venue/internal/apperr"
	"github.com/venueplatform/venue/internal/audit"
	"github.com/venueplatform/venue/internal/money"
)

// Exception is a promo-window exception: the desk honours, for one sale,
// an offer that has ended (flash_sale_after_end) or a promo code whose
// window has closed (late_code_redemption), with the clerk's reason (5 to
// 500 characters), audited with the sale.
type Exception struct {
	Kind   string
	Reason string
}

// The kinds of promo-window exception the desk can honour.
const (
	ExceptionFlashSaleAfterEnd  = "flash_sale_after_end"
	ExceptionLateCodeRedemption = "late_code_redemption"
)

// Limits of an exception's reason.
const (
	MinReason = 5
	MaxReason = 500
)

// Check validates an exception for the offer flashSaleID and the code
// promoCode of the sale (zero: none named).
func (x *Exception) Check(flashSaleID uuid.UUID, promoCode string) error {
	return x.check(flashSaleID, promoCode)
}

// check validates an exception: its kind, a reason of MinReason to
// MaxReason characters (spaces around it not counted), and the offer or
// code it honours.
func (x *Exception) check(flashSaleID uuid.UUID, promoCode string) error {
	if flashSaleID != uuid.Nil && strings.TrimSpace(promoCode) != "" {
		return apperr.Validation("promo_code", "an offer and a promo code do not combine: name one")
	}
	if x == nil {
		return nil
	}
	x.Reason = strings.TrimSpace(x.Reason)
	switch {
	case x.Kind != ExceptionFlashSaleAfterEnd && x.Kind != ExceptionLateCodeRedemption:
		return apperr.Validation("promo_window_exception.kind", "flash_sale_after_end or late_code_redemption")
	case len([]rune(x.Reason)) < MinReason || len([]rune(x.Reason)) > MaxReason:
		return apperr.Validation("promo_window_exception.reason", fmt.Sprintf("%d to %d characters", MinReason, MaxReason))
	case x.Kind == ExceptionFlashSaleAfterEnd && flashSaleID == uuid.Nil:
		return apperr.Validation("flash_sale_id", "the exception honours an offer: name it")
	case x.Kind == ExceptionLateCodeRedemption && strings.TrimSpace(promoCode) == "":
		return apperr.Validation("promo_code", "the exception honours a promo code: name it")
	}
	return nil
}

// Allow sets what the exception honours on cart: an ended offer or an
// expired code.
func (x *Exception) Allow(cart *Cart) {
	if x == nil {
		return
	}
	cart.AllowEnded = x.Kind == ExceptionFlashSaleAfterEnd
	cart.AllowExpiredCode = x.Kind == ExceptionLateCodeRedemption
}

// lateReason is the reason of a late code redemption, else "".
func (x *Exception) lateReason() string {
	if x == nil || x.Kind != ExceptionLateCodeRedemption {
		return ""
	}
	return x.Reason
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

// claimOfferPlace takes one place of the offer a pass cart was priced at,
// in the sale's transaction, like checkout does online: one conditional
// update that adds to claimed_count only while the offer is not cancelled
// and below its capacity, so desks and members together never take more
// places than the offer has (its window is not checked again here: the
// quote checked it, or the exception honoured its end). Nothing without an
// offer.
func claimOfferPlace(ctx context.Context, tx *ent.Tx, q *Quote) error {
	if q.FlashSale == nil {
		return nil
	}
	n, err := tx.FlashSale.Update().Where(flashsale.ID(q.FlashSale.ID), flashsale.CancelledAtIsNil(),
		flashsale.Or(flashsale.CapacityMaxIsNil(), func(s *sql.Selector) {
			s.Where(sql.ColumnsLT(s.C(flashsale.FieldClaimedCount), s.C(flashsale.FieldCapacityMax)))
		})).AddClaimedCount(1).Save(ctx)
	if err != nil {
		return fmt.Errorf("pos: claim offer: %w", err)
	}
	if n == 0 {
		return offerRefused("sold_out")
	}
	return nil
}

// releaseOfferPlace gives back the place a lapsed card sale's checkout held.
func releaseOfferPlace(ctx context.Context, tx *ent.Tx, offerID *uuid.UUID) error {
	if offerID == nil {
		return nil
	}
	_, err := tx.FlashSale.Update().Where(flashsale.ID(*offerID), flashsale.ClaimedCountGT(0)).AddClaimedCount(-1).Save(ctx)
	return err
}
