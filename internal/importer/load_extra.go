package importer

import (
	"context"
	"fmt"

	"github.com/venueplatform/venue/ent"
	"github.com/venueplatform/venue/ent/addonproduct"
	"github.com/venueplatform/venue/ent/amenity"
	"github.com/venueplatform/venue/ent/giftcard"
	"github.com/venueplatform/venue/ent/openinghours"
	"github.com/venueplatform/venue/ent/photo"
)

// addExtraRefs adds the refs the catalogue extension's sections define or
// name.
func addExtraRefs(d *Document, s refSet) {
	for _, x := range d.OpeningHours {
		s.add(SecOpeningHours, x.Ref)
		s.add(SecLocations, x.Location)
	}
	for _, x := range d.Amenities {
		s.add(SecAmenities, x.Ref)
		s.add(SecLocations, x.Location)
	}
	for _, x := range d.Photos {
		s.add(SecPhotos, x.Ref)
		s.add(SecLocations, x.Location)
		s.add(SecBrands, x.Brand)
	}
	for _, x := range d.Addons {
		s.add(SecAddons, x.Ref)
	}
	for _, x := range d.GiftCards {
		s.add(SecGiftCards, x.Ref)
		s.add(SecPassTypes, x.PassType)
	}
}

// loadExtra reads the catalogue extension's rows of earlier imports that the
// document defines.
func loadExtra(ctx context.Context, c *ent.Client, refs refSet, ex *existing) error {
	var err error
	wrap := func(section string, e error) error { return fmt.Errorf("read existing %s: %w", section, e) }
	if ex.openingHours, err = byRef(ctx, refs[SecOpeningHours], func(ctx context.Context, r []string) ([]*ent.OpeningHours, error) {
		return c.OpeningHours.Query().Where(openinghours.ImportRefIn(r...)).All(ctx)
	}, func(x *ent.OpeningHours) *string { return x.ImportRef }); err != nil {
		return wrap(SecOpeningHours, err)
	}
	if ex.amenities, err = byRef(ctx, refs[SecAmenities], func(ctx context.Context, r []string) ([]*ent.Amenity, error) {
		return c.Amenity.Query().Where(amenity.ImportRefIn(r...)).All(ctx)
	}, func(x *ent.Amenity) *string { return x.ImportRef }); err != nil {
		return wrap(SecAmenities, err)
	}
	if ex.photos, err = byRef(ctx, refs[SecPhotos], func(ctx context.Context, r []string) ([]*ent.Photo, error) {
		return c.Photo.Query().Where(photo.ImportRefIn(r...)).All(ctx)
	}, func(x *ent.Photo) *string { return x.ImportRef }); err != nil {
		return wrap(SecPhotos, err)
	}
	if ex.addons, err = byRef(ctx, refs[SecAddons], func(ctx context.Context, r []string) ([]*ent.AddonProduct, error) {
		return c.AddonProduct.Query().Where(addonproduct.ImportRefIn(r...)).All(ctx)
	}, func(x *ent.AddonProduct) *string { return x.ImportRef }); err != nil {
		return wrap(SecAddons, err)
	}
	if ex.giftCards, err = byRef(ctx, refs[SecGiftCards], func(ctx context.Context, r []string) ([]*ent.GiftCard, error) {
		return c.GiftCard.Query().Where(giftcard.ImportRefIn(r...)).All(ctx)
	}, func(x *ent.GiftCard) *string { return x.ImportRef }); err != nil {
		return wrap(SecGiftCards, err)
	}
	return nil
}

// checkGiftCodes refuses a gift card code that another card of the venue
// (one with another import ref, or none) already has. Codes move between
// cards of a document only over two runs: the first frees the code.
func (p *plan) checkGiftCodes(ctx context.Context, c *ent.Client) error {
	byCode := map[string]*giftCardPlan{}
	var codes []string
	for _, g := range p.giftCards {
		if g.code != "" && byCode[g.code] == nil {
			byCode[g.code] = g
			codes = append(codes, g.code)
		}
	}
	for start := 0; start < len(codes); start += chunk {
		rows, err := c.GiftCard.Query().Where(giftcard.CodeIn(codes[start:min(start+chunk, len(codes))]...)).
			Select(giftcard.FieldID, giftcard.FieldCode).All(ctx)
		if err != nil {
			return fmt.Errorf("read gift card codes: %w", err)
		}
		for _, row := range rows {
			if g := byCode[row.Code]; row.ID != g.id {
				p.ps.add(g.it, "code", "code %q is already used by another gift card of the venue", row.Code)
			}
		}
	}
	return nil
}
