package catalogue

import (
	"context"
	"slices"
	"time"

	"github.com/google/uuid"

	"github.com/venueplatform/venue/ent"
	"github.com/venueplatform/venue/ent/brand"
	"github.com/venueplatform/venue/ent/flashsale"
	"github.com/venueplatform/venue/ent/passtype"
)

// surfacePlacement maps a surface to the placement whose offers it shows. The
// branded app is the venue's own storefront and shows its pricing-page offers.
var surfacePlacement = map[string]string{
	"public_link":  "public_link",
	"pricing_page": "pricing_page",
	"global_app":   "global_app",
	"branded_app":  "pricing_page",
}

// OfferSurfaces are the surfaces the offer list accepts.
var OfferSurfaces = []string{"pricing_page", "global_app", "branded_app"}

// Offer is an offer with its derived status and capacity.
type Offer struct {
	Sale      *ent.FlashSale
	Status    string // live or scheduled
	Remaining *int   // nil when unbounded
}

// available derives the status of s at now, or false when it is cancelled,
// ended or sold out.
func available(s *ent.FlashSale, now time.Time) (Offer, bool) {
	if s.CancelledAt != nil || !s.EndsAt.After(now) {
		return Offer{}, false
	}
	o := Offer{Sale: s, Status: "live"}
	if s.StartsAt.After(now) {
		o.Status = "scheduled"
	}
	if s.CapacityMax != nil {
		r := max(*s.CapacityMax-s.ClaimedCount, 0)
		if r == 0 {
			return Offer{}, false
		}
		o.Remaining = &r
	}
	return o, true
}

// Offers returns the viewer's venue's live and scheduled offers shown on
// surface, by start time; an unknown surface shows none. brandID keeps offers
// with a pass type valid for that brand (restricted to it, or venue-wide).
func Offers(ctx context.Context, client *ent.Client, surface string, brandID *uuid.UUID, now time.Time) ([]Offer, error) {
	if !slices.Contains(OfferSurfaces, surface) {
		return []Offer{}, nil
	}
	q := client.FlashSale.Query().
		Where(flashsale.CancelledAtIsNil(), flashsale.EndsAtGT(now)).
		WithApplicablePassTypes().
		Order(ent.Asc(flashsale.FieldStartsAt), ent.Asc(flashsale.FieldID))
	if brandID != nil {
		q.Where(flashsale.HasApplicablePassTypesWith(passtype.Or(
			passtype.Not(passtype.HasAllowedBrands()),
			passtype.HasAllowedBrandsWith(brand.ID(*brandID)),
		)))
	}
	sales, err := q.All(ctx)
	if err != nil {
		return nil, err
	}
	out := []Offer{}
	for _, s := range sales {
		if o, ok := available(s, now); ok && slices.Contains(s.Placements, surfacePlacement[surface]) {
			out = append(out, o)
		}
	}
	return out, nil
}

// GetOffer returns one offer of the viewer's venue available on surface, or an ent
// not-found error when it is unknown, unavailable or not placed there.
func GetOffer(ctx context.Context, client *ent.Client, id uuid.UUID, surface string, now time.Time) (Offer, error) {
	s, err := client.FlashSale.Query().Where(flashsale.ID(id)).WithApplicablePassTypes().Only(ctx)
	if err != nil {
		return Offer{}, err
	}
	o, ok := available(s, now)
	placement, known := surfacePlacement[surface]
	if !ok || !known || !slices.Contains(s.Placements, placement) {
		return Offer{}, ent.NewNotFoundError("flash_sale")
	}
	return o, nil
}
