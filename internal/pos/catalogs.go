package pos

import (
	"context"
	"fmt"
	"time"

	"github.com/google/uuid"

	"github.com/venueplatform/venue/ent"
	"github.com/venueplatform/venue/ent/flashsale"
	"github.com/venueplatform/venue/ent/service"
	"github.com/venueplatform/venue/ent/servicevariant"
	"github.com/venueplatform/venue/internal/appointments"
	"github.com/venueplatform/venue/internal/money"
)

// MaxCatalog bounds each desk catalog list.
const MaxCatalog = 500

// ServiceEntry is an appointment service the desk sells, with its active
// variants in the venue's order.
type ServiceEntry struct {
	Service  *ent.Service
	Variants []*ent.ServiceVariant
}

// Services is the venue's active appointment services (listed or not: the
// desk also sells the services staff book only) in the venue's order, at
// most MaxCatalog, each with its active variants. Needs pos.access.
func (s *Service) Services(ctx context.Context) ([]ServiceEntry, error) {
	if _, err := Staff(ctx, false, PermAccess); err != nil {
		return nil, err
	}
	svcs, err := s.client.Service.Query().Where(service.IsActive(true)).
		WithVariants(func(q *ent.ServiceVariantQuery) {
			q.Where(servicevariant.IsActive(true)).
				Order(ent.Asc(servicevariant.FieldSortOrder), ent.Asc(servicevariant.FieldName), ent.Asc(servicevariant.FieldID))
		}).
		Order(ent.Asc(service.FieldSortOrder), ent.Asc(service.FieldName), ent.Asc(service.FieldID)).
		Limit(MaxCatalog).All(ctx)
	if err != nil {
		return nil, fmt.Errorf("pos: services: %w", err)
	}
	out := make([]ServiceEntry, len(svcs))
	for i, sv := range svcs {
		out[i] = ServiceEntry{Service: sv, Variants: sv.Edges.Variants}
	}
	return out, nil
}

// Bundles is the venue's active service bundles (combo packages) in the
// venue's order, at most MaxCatalog, with their services and what those
// cost one by one. Needs pos.access.
func (s *Service) Bundles(ctx context.Context) ([]appointments.BundleView, error) {
	if _, err := Staff(ctx, false, PermAccess); err != nil {
		return nil, err
	}
	bs, err := appointments.Bundles(ctx, s.client, false)
	if err != nil {
		return nil, err
	}
	if len(bs) > MaxCatalog {
		bs = bs[:MaxCatalog]
	}
	return bs, nil
}

// Perk is a benefit the desk could hand a member without a sale. The
// service has no perk (loyalty reward) entity yet, so Perks is always empty;
// see docs/pos.md.
type Perk struct {
	ID   uuid.UUID
	Name string
}

// Perks is the venue's perks: none until loyalty rewards exist (the list's
// shape is fixed so the desk can show the section). Needs pos.access.
func (s *Service) Perks(ctx context.Context) ([]Perk, error) {
	if _, err := Staff(ctx, false, PermAccess); err != nil {
		return nil, err
	}
	return []Perk{}, nil
}

// Offer is a flash sale as the desk sees it: live (sellable now) or
// scheduled, with its price in minor units of its currency and the places
// left (nil when unbounded).
type Offer struct {
	Sale       *ent.FlashSale
	Status     string // live or scheduled
	PriceMinor int64
	Remaining  *int
}

// FlashSales is the venue's flash sales that are live or scheduled at now
// (not cancelled, not ended, not sold out), whatever their placements (the
// desk is staff: placements choose member-facing surfaces), by start, at
// most MaxCatalog. Needs pos.access.
func (s *Service) FlashSales(ctx context.Context) ([]Offer, error) {
	if _, err := Staff(ctx, false, PermAccess); err != nil {
		return nil, err
	}
	now := s.now()
	sales, err := s.client.FlashSale.Query().
		Where(flashsale.CancelledAtIsNil(), flashsale.EndsAtGT(now)).
		WithApplicablePassTypes().
		Order(ent.Asc(flashsale.FieldStartsAt), ent.Asc(flashsale.FieldID)).
		Limit(MaxCatalog).All(ctx)
	if err != nil {
		return nil, fmt.Errorf("pos: flash sales: %w", err)
	}
	out := make([]Offer, 0, len(sales))
	for _, fs := range sales {
		o, ok := offerAt(fs, now)
		if ok {
			out = append(out, o)
		}
	}
	return out, nil
}

func offerAt(fs *ent.FlashSale, now time.Time) (Offer, bool) {
	o := Offer{Sale: fs, Status: "live", PriceMinor: money.ToMinor(fs.CommercialRule.Pricing.Price, fs.CommercialRule.Currency)}
	if fs.StartsAt.After(now) {
		o.Status = "scheduled"
	}
	if fs.CapacityMax != nil {
		r := max(*fs.CapacityMax-fs.ClaimedCount, 0)
		if r == 0 {
			return Offer{}, false
		}
		o.Remaining = &r
	}
	return o, true
}
