package handlers

import (
	"context"

	"github.com/venueplatform/venue/internal/apperr"
	api "github.com/venueplatform/venue/internal/gen/api"
	"github.com/venueplatform/venue/internal/payments/guests"
	"github.com/venueplatform/venue/internal/schedule"
)

// GetAdminClassGuestPrice implements getAdminClassGuestPrice.
func (h *Handler) GetAdminClassGuestPrice(ctx context.Context, p api.GetAdminClassGuestPriceParams) (*api.ClassGuestPriceResponse, error) {
	if err := schedule.Authorize(ctx, schedule.AccessRead); err != nil {
		return nil, err
	}
	cp, err := h.guestInvites().ClassPrice(ctx, p.ID)
	if err != nil {
		return nil, err
	}
	return &api.ClassGuestPriceResponse{Data: classGuestPriceOut(cp)}, nil
}

// SetAdminClassGuestPrice implements setAdminClassGuestPrice.
func (h *Handler) SetAdminClassGuestPrice(ctx context.Context, req *api.ClassGuestPriceRequest, p api.SetAdminClassGuestPriceParams) (*api.ClassGuestPriceResponse, error) {
	if err := schedule.Authorize(ctx, schedule.AccessWrite); err != nil {
		return nil, err
	}
	var amount *int64
	if v, ok := req.AmountMinor.Get(); ok {
		if !req.Currency.Set {
			return nil, apperr.Validation("currency", "a guest price names its currency")
		}
		amount = &v
	}
	cp, err := h.guestInvites().SetClassPrice(ctx, p.ID, amount, req.Currency.Or(""))
	if err != nil {
		return nil, err
	}
	return &api.ClassGuestPriceResponse{Data: classGuestPriceOut(cp)}, nil
}

func classGuestPriceOut(cp *guests.ClassPrice) api.ClassGuestPrice {
	out := api.ClassGuestPrice{ClassID: cp.ClassID}
	if o := cp.Override; o != nil {
		out.Override.SetTo(api.ClassGuestPriceAmount{AmountMinor: o.AmountMinor, Currency: o.Currency})
	} else {
		out.Override.SetToNull()
	}
	if e := cp.Effective; e != nil {
		v := api.ClassGuestPriceEffective{AmountMinor: e.AmountMinor, Currency: e.Currency,
			Source: api.ClassGuestPriceEffectiveSource(cp.Source)}
		if e.CompareAtMinor != nil {
			v.CompareAtMinor.SetTo(*e.CompareAtMinor)
		} else {
			v.CompareAtMinor.SetToNull()
		}
		out.Effective.SetTo(v)
	} else {
		out.Effective.SetToNull()
	}
	return out
}
