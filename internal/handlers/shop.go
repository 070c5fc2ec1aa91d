package handlers

import (
	"context"
	"strings"
	"time"

	"github.com/venueplatform/venue/ent"
	"github.com/venueplatform/venue/ent/addonproduct"
	"github.com/venueplatform/venue/ent/brand"
	"github.com/venueplatform/venue/ent/classtype"
	"github.com/venueplatform/venue/ent/giftcard"
	"github.com/venueplatform/venue/ent/photo"
	"github.com/venueplatform/venue/internal/apperr"
	"github.com/venueplatform/venue/internal/catalogue"
	api "github.com/venueplatform/venue/internal/gen/api"
	"github.com/venueplatform/venue/internal/gen/apient"
	"github.com/venueplatform/venue/internal/money"
)

// GetVenueBrand implements getVenueBrand.
func (h *Handler) GetVenueBrand(ctx context.Context, p api.GetVenueBrandParams) (*api.BrandDetailResponse, error) {
	ctx, _, err := h.venueContext(ctx, p.Slug)
	if err != nil {
		return nil, err
	}
	b, err := h.client.Brand.Query().Where(brand.Slug(p.BrandSlug), brand.Active(true)).
		WithClassTypes(func(q *ent.ClassTypeQuery) {
			q.Where(classtype.Active(true)).WithBrand().Order(ent.Asc(classtype.FieldName), ent.Asc(classtype.FieldID))
		}).Only(ctx)
	if ent.IsNotFound(err) {
		return nil, brandNotFound()
	}
	if err != nil {
		return nil, err
	}
	pts, err := catalogue.PassTypes(ctx, h.client, catalogue.PassTypeFilter{BrandID: &b.ID})
	if err != nil {
		return nil, err
	}
	photos, err := h.client.Photo.Query().Where(photo.BrandID(b.ID)).
		Order(ent.Asc(photo.FieldSortOrder), ent.Asc(photo.FieldID)).All(ctx)
	if err != nil {
		return nil, err
	}
	d := api.BrandDetail{
		Brand:      brandItem(b, len(b.Edges.ClassTypes)),
		ClassTypes: classTypeItems(b.Edges.ClassTypes),
		PassTypes:  make([]api.PricedPassType, len(pts)),
		Photos:     apient.Map(photos, apient.Photo),
	}
	for i, pt := range pts {
		d.PassTypes[i] = pricedPassType(pt)
	}
	return &api.BrandDetailResponse{Data: d}, nil
}

// ListVenueAddons implements listVenueAddons.
func (h *Handler) ListVenueAddons(ctx context.Context, p api.ListVenueAddonsParams) (*api.AddonListResponse, error) {
	ctx, _, err := h.venueContext(ctx, p.Slug)
	if err != nil {
		return nil, err
	}
	items, err := h.client.AddonProduct.Query().Where(addonproduct.Active(true)).
		Order(ent.Asc(addonproduct.FieldSortOrder), ent.Asc(addonproduct.FieldName), ent.Asc(addonproduct.FieldID)).All(ctx)
	if err != nil {
		return nil, err
	}
	groups := map[string][]api.AddonItem{}
	for _, a := range items {
		groups[a.Category] = append(groups[a.Category], api.AddonItem{
			ID: a.ID, Name: a.Name, Description: a.Description,
			PriceAmount: money.ToMajor(a.PriceMinor, a.Currency), PriceMinor: a.PriceMinor, Currency: a.Currency,
		})
	}
	data := []api.AddonGroup{}
	for _, c := range sortedKeys(groups) {
		data = append(data, api.AddonGroup{Category: c, Products: groups[c]})
	}
	return &api.AddonListResponse{Data: data, Meta: api.ListMeta{Total: len(data)}}, nil
}

// giftCard finds a venue's card by code. Unknown codes, other venues' cards
// and cancelled cards give the same generic 404.
func (h *Handler) giftCard(ctx context.Context, slug, code string) (*ent.GiftCard, string, error) {
	notFound := apperr.NotFound("gift card")
	ctx, _, err := h.venueContext(ctx, slug)
	if err != nil {
		if e, ok := err.(*apperr.Error); ok && e.Status == 404 {
			return nil, "", notFound
		}
		return nil, "", err
	}
	gc, err := h.client.GiftCard.Query().
		Where(giftcard.CodeEQ(strings.ToUpper(strings.TrimSpace(code))), giftcard.StatusNEQ(giftcard.StatusCancelled)).
		WithPassType().Only(ctx)
	if ent.IsNotFound(err) {
		return nil, "", notFound
	}
	if err != nil {
		return nil, "", err
	}
	status := string(gc.Status)
	if gc.Status == giftcard.StatusActive && gc.ExpiresAt != nil && !gc.ExpiresAt.After(h.now()) {
		status = string(giftcard.StatusExpired)
	}
	return gc, status, nil
}

func nilTime(t *time.Time) api.NilDateTime {
	if t == nil {
		return api.NilDateTime{Null: true}
	}
	return api.NewNilDateTime(t.UTC())
}

// GetGiftCardBalance implements getGiftCardBalance.
func (h *Handler) GetGiftCardBalance(ctx context.Context, p api.GetGiftCardBalanceParams) (*api.GiftCardBalanceResponse, error) {
	gc, status, err := h.giftCard(ctx, p.Slug, p.Code)
	if err != nil {
		return nil, err
	}
	return &api.GiftCardBalanceResponse{Data: api.GiftCardBalanceResponseData{
		Code: gc.Code, RemainingAmount: money.ToMajor(gc.RemainingAmountMinor, gc.Currency),
		RemainingAmountMinor: gc.RemainingAmountMinor, Currency: gc.Currency,
		Status: api.GiftCardBalanceResponseDataStatus(status), ExpiresAt: nilTime(gc.ExpiresAt),
	}}, nil
}

// GetGiftCardPreview implements getGiftCardPreview.
func (h *Handler) GetGiftCardPreview(ctx context.Context, p api.GetGiftCardPreviewParams) (*api.GiftCardPreviewResponse, error) {
	gc, status, err := h.giftCard(ctx, p.Slug, p.Code)
	if err != nil {
		return nil, err
	}
	d := api.GiftCardPreviewResponseData{
		Code: gc.Code, GiftType: api.GiftCardPreviewResponseDataGiftType(gc.GiftType),
		SenderName: gc.SenderName, GiftDescription: gc.GiftDescription,
		Amount: money.ToMajor(gc.InitialAmountMinor, gc.Currency), AmountMinor: gc.InitialAmountMinor,
		Currency: gc.Currency, Status: api.GiftCardPreviewResponseDataStatus(status), ExpiresAt: nilTime(gc.ExpiresAt),
	}
	if pt := gc.Edges.PassType; pt != nil {
		d.PassName.SetTo(pt.Name)
	} else {
		d.PassName.SetToNull()
	}
	return &api.GiftCardPreviewResponse{Data: d}, nil
}
