package handlers

import (
	"context"

	"github.com/google/uuid"

	api "github.com/venueplatform/venue/internal/gen/api"
	"github.com/venueplatform/venue/internal/money"
)

// ListPosServices implements api.Handler.
func (h *Handler) ListPosServices(ctx context.Context) (*api.PosServiceListResponse, error) {
	svcs, err := h.pos().Services(ctx)
	if err != nil {
		return nil, err
	}
	out := make([]api.PosService, len(svcs))
	for i, e := range svcs {
		s := e.Service
		c := s.Currency
		out[i] = api.PosService{ID: s.ID, Name: s.Name, Category: s.Category, DurationMinutes: s.DurationMinutes,
			PriceMinor: s.PriceMinor, Price: money.ToMajor(s.PriceMinor, c), Currency: c,
			CurrencyExponent: money.Exponent(c), Listed: s.Listed, Variants: make([]api.PosServiceVariant, len(e.Variants))}
		for j, v := range e.Variants {
			out[i].Variants[j] = api.PosServiceVariant{ID: v.ID, Name: v.Name, DurationMinutes: v.DurationMinutes,
				PriceMinor: v.PriceMinor, Price: money.ToMajor(v.PriceMinor, c)}
		}
	}
	return &api.PosServiceListResponse{Data: out, Meta: api.PosCatalogMeta{Total: len(out)}}, nil
}

// ListPosBundles implements api.Handler.
func (h *Handler) ListPosBundles(ctx context.Context) (*api.PosBundleListResponse, error) {
	bs, err := h.pos().Bundles(ctx)
	if err != nil {
		return nil, err
	}
	out := make([]api.PosBundle, len(bs))
	for i, b := range bs {
		c := b.Bundle.Currency
		out[i] = api.PosBundle{ID: b.Bundle.ID, Name: b.Bundle.Name, Description: b.Bundle.Description,
			PriceMinor: b.Bundle.PriceMinor, Price: money.ToMajor(b.Bundle.PriceMinor, c), Currency: c,
			CurrencyExponent: money.Exponent(c), SeparatePriceMinor: b.SeparateMinor(), TotalMinutes: b.TotalMinutes(),
			Services: make([]api.PosBundleService, len(b.Items))}
		for j, it := range b.Items {
			s := api.PosBundleService{ServiceID: it.Item.ServiceID, DurationMinutes: it.Duration, PriceMinor: it.PriceMinor}
			if it.Service != nil {
				s.Name = it.Service.Name
			}
			s.VariantID.SetToNull()
			if it.Item.VariantID != nil {
				s.VariantID.SetTo(*it.Item.VariantID)
				if v := it.Item.Edges.Variant; v != nil {
					s.Name += " (" + v.Name + ")"
				}
			}
			out[i].Services[j] = s
		}
	}
	return &api.PosBundleListResponse{Data: out, Meta: api.PosCatalogMeta{Total: len(out)}}, nil
}

// ListPosPerks implements api.Handler.
func (h *Handler) ListPosPerks(ctx context.Context) (*api.PosPerkListResponse, error) {
	ps, err := h.pos().Perks(ctx)
	if err != nil {
		return nil, err
	}
	out := make([]api.PosPerk, len(ps))
	for i, p := range ps {
		out[i] = api.PosPerk{ID: p.ID, Name: p.Name}
	}
	return &api.PosPerkListResponse{Data: out, Meta: api.PosCatalogMeta{Total: len(out)}}, nil
}

// ListPosFlashSales implements api.Handler.
func (h *Handler) ListPosFlashSales(ctx context.Context) (*api.PosFlashSaleListResponse, error) {
	os, err := h.pos().FlashSales(ctx)
	if err != nil {
		return nil, err
	}
	out := make([]api.PosFlashSale, len(os))
	for i, o := range os {
		fs := o.Sale
		c := fs.CommercialRule.Currency
		f := api.PosFlashSale{ID: fs.ID, Name: fs.Name, Status: api.PosFlashSaleStatus(o.Status),
			StartsAt: fs.StartsAt.UTC(), EndsAt: fs.EndsAt.UTC(), ProductFamily: api.PosFlashSaleProductFamily(fs.ProductFamily),
			Placements: append([]string{}, fs.Placements...), PriceMinor: o.PriceMinor, Price: money.ToMajor(o.PriceMinor, c),
			Currency: c, CurrencyExponent: money.Exponent(c), PassTypeIds: []uuid.UUID{}}
		f.Remaining.SetToNull()
		if o.Remaining != nil {
			f.Remaining.SetTo(*o.Remaining)
		}
		for _, pt := range fs.Edges.ApplicablePassTypes {
			f.PassTypeIds = append(f.PassTypeIds, pt.ID)
		}
		out[i] = f
	}
	return &api.PosFlashSaleListResponse{Data: out, Meta: api.PosCatalogMeta{Total: len(out)}}, nil
}

// GetPosKiosk implements api.Handler.
func (h *Handler) GetPosKiosk(ctx context.Context) (*api.PosKioskResponse, error) {
	k, err := h.pos().Kiosk(ctx)
	if err != nil {
		return nil, err
	}
	out := api.PosKiosk{VenueName: k.VenueName, Timezone: k.Timezone, Currency: k.Currency, BusinessDate: k.BusinessDate,
		PinSet: k.PinSet, Tiles: make([]api.PosKioskTile, len(k.Tiles))}
	for _, m := range k.Methods {
		out.PaymentMethods = append(out.PaymentMethods, api.PosKioskPaymentMethodsItem(m))
	}
	for i, t := range k.Tiles {
		x := api.PosKioskTile{Kind: api.PosKioskTileKind(t.Kind), ID: t.ID, Name: t.Name, Currency: t.Currency,
			CurrencyExponent: money.Exponent(t.Currency), Available: t.Available}
		x.PriceMinor.SetToNull()
		x.Price.SetToNull()
		if t.PriceMinor != nil {
			x.PriceMinor.SetTo(*t.PriceMinor)
			x.Price.SetTo(money.ToMajor(*t.PriceMinor, t.Currency))
		}
		x.StockOnHand.SetToNull()
		if t.StockOnHand != nil {
			x.StockOnHand.SetTo(*t.StockOnHand)
		}
		x.Reason.SetToNull()
		if t.Reason != "" {
			x.Reason.SetTo(api.PosKioskTileReason(t.Reason))
		}
		out.Tiles[i] = x
	}
	return &api.PosKioskResponse{Data: out}, nil
}
