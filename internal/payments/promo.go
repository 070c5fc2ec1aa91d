package payments

import (
	"context"

	"github.com/google/uuid"

	"github.com/venueplatform/venue/ent"
	"github.com/venueplatform/venue/internal/apperr"
	"github.com/venueplatform/venue/internal/promos"
)

// Promo codes at checkout (package promos). A code takes its discount off
// what is sold today (ListMinor: the pass type's price, or the binding
// tier's period price), never off the renewals; it does not combine with an
// offer (400). The quote carries the code's id (signed), so the purchase
// prices the same code again; the checkout holds one use of it from its
// creation (a conditional update that never passes max_uses) and the
// activation counts it, once; a checkout that lapses unpaid gives it back.

// pricePromo applies in's promo code, if any, to p.
func (s *Service) pricePromo(ctx context.Context, pt *ent.PassType, in pricingInput, memberID uuid.UUID, p *Pricing) error {
	if in.promoCode == "" && in.promoCodeID == nil {
		return nil
	}
	if in.flashSaleID != nil {
		return apperr.Validation("promo_code", "an offer and a promo code do not combine: name one")
	}
	t := promos.Target{PassTypeID: pt.ID, PriceMinor: p.ListMinor, Currency: p.Currency, MemberID: memberID, Now: s.now()}
	var (
		a   *promos.Applied
		err error
	)
	if in.promoCodeID != nil {
		a, err = promos.ApplyID(ctx, s.client, *in.promoCodeID, t)
	} else {
		a, err = promos.Apply(ctx, s.client, in.promoCode, t)
	}
	if err != nil {
		return err
	}
	p.Promo = a
	p.ListMinor -= a.DiscountMinor
	return nil
}
