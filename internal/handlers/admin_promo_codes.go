package handlers

import (
	"context"
	"time"

	"github.com/google/uuid"

	"github.com/venueplatform/venue/ent"
	"github.com/venueplatform/venue/internal/apperr"
	api "github.com/venueplatform/venue/internal/gen/api"
	"github.com/venueplatform/venue/internal/promos"
)

func (h *Handler) promos() *promos.Service { return promos.New(h.client, h.now) }

// ListPromoCodes implements api.Handler.
func (h *Handler) ListPromoCodes(ctx context.Context) (*api.PromoCodeListResponse, error) {
	cs, err := h.promos().List(ctx)
	if err != nil {
		return nil, err
	}
	out := make([]api.PromoCode, len(cs))
	for i, c := range cs {
		out[i] = promoCodeOut(c)
	}
	return &api.PromoCodeListResponse{Data: out, Meta: api.PromoCodeListResponseMeta{Total: len(out)}}, nil
}

// CreatePromoCode implements api.Handler.
func (h *Handler) CreatePromoCode(ctx context.Context, req *api.PromoCodeCreateRequest, _ api.CreatePromoCodeParams) (*api.PromoCodeResponse, error) {
	p := promos.Params{Code: req.Code, Name: req.Name.Or(""), DiscountKind: string(req.DiscountKind),
		PassTypeIDs: req.PassTypeIds, ProductIDs: req.ProductIds}
	if v, ok := req.PercentOff.Get(); ok {
		p.PercentOff = &v
	}
	if v, ok := req.AmountOffMinor.Get(); ok {
		p.AmountOffMinor = &v
	}
	if v, ok := req.Currency.Get(); ok {
		p.Currency = &v
	}
	if v, ok := req.StartsAt.Get(); ok {
		p.StartsAt = &v
	}
	if v, ok := req.EndsAt.Get(); ok {
		p.EndsAt = &v
	}
	if v, ok := req.MaxUses.Get(); ok {
		p.MaxUses = &v
	}
	if v, ok := req.MaxUsesPerMember.Get(); ok {
		p.MaxUsesPerMember = &v
	}
	if v, ok := req.Campaign.Get(); ok {
		p.Campaign = &v
	}
	if v, ok := req.PartnerLabel.Get(); ok {
		p.PartnerLabel = &v
	}
	if v, ok := req.GrantsPassTypeID.Get(); ok {
		p.GrantsPassTypeID = &v
	}
	c, err := h.promos().Create(ctx, p)
	if err != nil {
		return nil, err
	}
	return &api.PromoCodeResponse{Data: promoCodeOut(c)}, nil
}

// GetPromoCode implements api.Handler.
func (h *Handler) GetPromoCode(ctx context.Context, p api.GetPromoCodeParams) (*api.PromoCodeResponse, error) {
	c, err := h.promos().Get(ctx, p.PromoCodeId)
	if err != nil {
		return nil, err
	}
	return &api.PromoCodeResponse{Data: promoCodeOut(c)}, nil
}

// UpdatePromoCode implements api.Handler.
func (h *Handler) UpdatePromoCode(ctx context.Context, req *api.PromoCodeUpdateRequest, p api.UpdatePromoCodeParams) (*api.PromoCodeResponse, error) {
	var pt promos.Patch
	n := 0
	if v, ok := req.Active.Get(); ok {
		pt.Active, n = &v, n+1
	}
	if v, ok := req.Name.Get(); ok {
		pt.Name, n = &v, n+1
	}
	if req.EndsAt.Set {
		n++
		if v, ok := req.EndsAt.Get(); ok {
			pt.EndsAt = &v
		} else {
			pt.ClearEndsAt = true
		}
	}
	if v, ok := req.MaxUses.Get(); ok {
		pt.MaxUses, n = &v, n+1
	}
	if v, ok := req.MaxUsesPerMember.Get(); ok {
		pt.MaxUsesPerMember, n = &v, n+1
	}
	if n == 0 {
		return nil, apperr.Validation("body", "name at least one field to change")
	}
	c, err := h.promos().Update(ctx, p.PromoCodeId, pt)
	if err != nil {
		return nil, err
	}
	return &api.PromoCodeResponse{Data: promoCodeOut(c)}, nil
}

func promoCodeOut(c *ent.PromoCode) api.PromoCode {
	out := api.PromoCode{ID: c.ID, Code: c.Code, Name: c.Name, DiscountKind: api.PromoCodeDiscountKind(c.DiscountKind),
		ClaimedCount: c.ClaimedCount, RedeemedCount: c.RedeemedCount, PassTypeIds: nonNilIDs(c.PassTypeIds),
		ProductIds: nonNilIDs(c.ProductIds), Active: c.Active, CreatedAt: c.CreatedAt.UTC()}
	for _, f := range []struct {
		dst *api.NilInt
		src *int
	}{{&out.PercentOff, c.PercentOff}, {&out.MaxUses, c.MaxUses}, {&out.MaxUsesPerMember, c.MaxUsesPerMember}} {
		f.dst.SetToNull()
		if f.src != nil {
			f.dst.SetTo(*f.src)
		}
	}
	out.AmountOffMinor.SetToNull()
	if c.AmountOffMinor != nil {
		out.AmountOffMinor.SetTo(*c.AmountOffMinor)
	}
	for _, f := range []struct {
		dst *api.NilString
		src *string
	}{{&out.Currency, c.Currency}, {&out.Campaign, c.Campaign}, {&out.PartnerLabel, c.PartnerLabel}} {
		f.dst.SetToNull()
		if f.src != nil {
			f.dst.SetTo(*f.src)
		}
	}
	for _, f := range []struct {
		dst *api.NilDateTime
		src *time.Time
	}{{&out.StartsAt, c.StartsAt}, {&out.EndsAt, c.EndsAt}} {
		f.dst.SetToNull()
		if f.src != nil {
			f.dst.SetTo(f.src.UTC())
		}
	}
	out.GrantsPassTypeID.SetToNull()
	if c.GrantsPassTypeID != nil {
		out.GrantsPassTypeID.SetTo(*c.GrantsPassTypeID)
	}
	return out
}

func nonNilIDs(ids []uuid.UUID) []uuid.UUID {
	if ids == nil {
		return []uuid.UUID{}
	}
	return ids
}
