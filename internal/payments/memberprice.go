package payments

import (
	"context"

	"github.com/google/uuid"

	"github.com/venueplatform/venue/ent"
)

// MemberPriceHook answers a member's own price of a pass type in minor
// units (ok false when they have none): billing's loyalty prices register
// one, so a checkout quote of the pass type for that member is priced at
// it (its list and full price; an offer or a binding tier prices by its
// own rule instead). The price is part of the quote's authority, so a
// change makes an issued quote QUOTE_STALE.
type MemberPriceHook func(ctx context.Context, c *ent.Client, memberID uuid.UUID, pt *ent.PassType) (int64, bool, error)

var memberPriceHook MemberPriceHook

// RegisterMemberPriceHook installs h (at init).
func RegisterMemberPriceHook(h MemberPriceHook) { memberPriceHook = h }

// priceMember applies the member's own price of pt to p.
func (s *Service) priceMember(ctx context.Context, pt *ent.PassType, memberID uuid.UUID, p *Pricing) error {
	if memberPriceHook == nil || memberID == uuid.Nil || p.Offer != nil || p.BindingMonths != 0 {
		return nil
	}
	v, ok, err := memberPriceHook(ctx, s.client, memberID, pt)
	if err != nil || !ok {
		return err
	}
	p.ListMinor, p.FullPriceMinor = v, v
	return nil
}
