package importer

import (
	"context"
	"fmt"

	"github.com/google/uuid"

	"github.com/venueplatform/venue/ent"
	"github.com/venueplatform/venue/ent/addonproduct"
	"github.com/venueplatform/venue/ent/amenity"
	"github.com/venueplatform/venue/ent/giftcard"
	"github.com/venueplatform/venue/ent/openinghours"
	"github.com/venueplatform/venue/ent/organization"
	"github.com/venueplatform/venue/ent/photo"
)

// optText sets an optional text field when present: an empty string clears
// it, an absent one (nil) leaves it as it is.
func optText(v *string, set func(string), clear func()) {
	if v != nil {
		text(*v, set, clear)
	}
}

// writeBrandTheme writes the theming fields a brand item has.
func writeBrandTheme(m *ent.BrandMutation, in Brand) {
	optText(in.SecondaryColor, m.SetSecondaryColor, m.ClearSecondaryColor)
	optText(in.Tagline, m.SetTagline, m.ClearTagline)
	optText(in.Website, m.SetWebsite, m.ClearWebsite)
	optText(in.LogoURL, m.SetLogoURL, m.ClearLogoURL)
	if in.SocialLinks != nil {
		m.SetSocialLinks(in.SocialLinks)
	}
	if in.SortOrder != nil {
		m.SetSortOrder(*in.SortOrder)
	}
}

// writeVenue applies the venue object to the venue's profile.
func (p *plan) writeVenue(ctx context.Context, c *ent.Client) error {
	v := p.doc.Venue
	if v == nil {
		return nil
	}
	u := c.Organization.UpdateOneID(p.venue)
	m := u.Mutation()
	optText(v.Description, m.SetDescription, m.ClearDescription)
	optText(v.Website, m.SetWebsite, m.ClearWebsite)
	optText(v.Email, m.SetEmail, m.ClearEmail)
	optText(v.Phone, m.SetPhone, m.ClearPhone)
	optText(v.LogoURL, m.SetLogoURL, m.ClearLogoURL)
	optText(v.Address, m.SetAddress, m.ClearAddress)
	optText(v.City, m.SetCity, m.ClearCity)
	if v.Country != nil {
		text(p.country, m.SetCountry, m.ClearCountry)
	}
	if v.World != nil {
		m.SetWorld(organization.World(*v.World))
	}
	if v.Lat != nil {
		m.SetLat(*v.Lat)
	}
	if v.Lng != nil {
		m.SetLng(*v.Lng)
	}
	if v.VatExemptAgeThreshold != nil {
		m.SetVatExemptAgeThreshold(*v.VatExemptAgeThreshold)
	}
	if err := u.Exec(ctx); err != nil {
		return fmt.Errorf("update venue profile: %w", err)
	}
	return nil
}

// setRef writes an optional reference: always on create, on update when it
// changes.
func setRef(create bool, old, new *uuid.UUID, set func(uuid.UUID), clear func()) {
	switch {
	case !changedFK(create, old, new):
	case new == nil:
		clear()
	default:
		set(*new)
	}
}

func sortOrder(v *int) int {
	if v == nil {
		return 0
	}
	return *v
}

func (p *plan) writeOpeningHours(ctx context.Context, c *ent.Client) error {
	var creates []*ent.OpeningHoursCreate
	for _, oh := range p.openingHours {
		fill := func(m *ent.OpeningHoursMutation) {
			m.SetImportRef(oh.in.Ref)
			var old *uuid.UUID
			if oh.ex != nil {
				old = oh.ex.LocationID
			}
			setRef(oh.ex == nil, old, oh.location, m.SetLocationID, m.ClearLocationID)
			m.SetWeekday(*oh.in.Weekday)
			text(oh.in.OpensAt, m.SetOpensAt, m.ClearOpensAt)
			text(oh.in.ClosesAt, m.SetClosesAt, m.ClearClosesAt)
			m.SetClosed(oh.in.Closed)
		}
		if oh.ex == nil {
			oc := c.OpeningHours.Create().SetID(oh.id)
			fill(oc.Mutation())
			creates = append(creates, oc)
			continue
		}
		ou := c.OpeningHours.Update().Where(openinghours.ID(oh.id))
		fill(ou.Mutation())
		if err := ou.Exec(ctx); err != nil {
			return fmt.Errorf("update opening hours %q: %w", oh.in.Ref, err)
		}
		p.advance(1)
	}
	return createAll(ctx, p, creates, func(ctx context.Context, bs []*ent.OpeningHoursCreate) error {
		return c.OpeningHours.CreateBulk(bs...).Exec(ctx)
	})
}

func (p *plan) writeAmenities(ctx context.Context, c *ent.Client) error {
	var creates []*ent.AmenityCreate
	for _, a := range p.amenities {
		fill := func(m *ent.AmenityMutation) {
			m.SetImportRef(a.in.Ref)
			var old *uuid.UUID
			if a.ex != nil {
				old = a.ex.LocationID
			}
			setRef(a.ex == nil, old, a.location, m.SetLocationID, m.ClearLocationID)
			m.SetName(a.in.Name)
			text(a.in.Icon, m.SetIcon, m.ClearIcon)
			m.SetSortOrder(sortOrder(a.in.SortOrder))
		}
		if a.ex == nil {
			ac := c.Amenity.Create().SetID(a.id)
			fill(ac.Mutation())
			creates = append(creates, ac)
			continue
		}
		au := c.Amenity.Update().Where(amenity.ID(a.id))
		fill(au.Mutation())
		if err := au.Exec(ctx); err != nil {
			return fmt.Errorf("update amenity %q: %w", a.in.Ref, err)
		}
		p.advance(1)
	}
	return createAll(ctx, p, creates, func(ctx context.Context, bs []*ent.AmenityCreate) error {
		return c.Amenity.CreateBulk(bs...).Exec(ctx)
	})
}

func (p *plan) writePhotos(ctx context.Context, c *ent.Client) error {
	var creates []*ent.PhotoCreate
	for _, ph := range p.photos {
		fill := func(m *ent.PhotoMutation) {
			m.SetImportRef(ph.in.Ref)
			var oldLocation, oldBrand *uuid.UUID
			if ph.ex != nil {
				oldLocation, oldBrand = ph.ex.LocationID, ph.ex.BrandID
			}
			setRef(ph.ex == nil, oldLocation, ph.location, m.SetLocationID, m.ClearLocationID)
			setRef(ph.ex == nil, oldBrand, ph.brand, m.SetBrandID, m.ClearBrandID)
			m.SetURL(ph.in.URL)
			text(ph.in.Caption, m.SetCaption, m.ClearCaption)
			m.SetSortOrder(sortOrder(ph.in.SortOrder))
		}
		if ph.ex == nil {
			pc := c.Photo.Create().SetID(ph.id)
			fill(pc.Mutation())
			creates = append(creates, pc)
			continue
		}
		pu := c.Photo.Update().Where(photo.ID(ph.id))
		fill(pu.Mutation())
		if err := pu.Exec(ctx); err != nil {
			return fmt.Errorf("update photo %q: %w", ph.in.Ref, err)
		}
		p.advance(1)
	}
	return createAll(ctx, p, creates, func(ctx context.Context, bs []*ent.PhotoCreate) error {
		return c.Photo.CreateBulk(bs...).Exec(ctx)
	})
}

func (p *plan) writeAddons(ctx context.Context, c *ent.Client) error {
	var creates []*ent.AddonProductCreate
	for _, a := range p.addons {
		fill := func(m *ent.AddonProductMutation) {
			m.SetImportRef(a.in.Ref)
			m.SetName(a.in.Name)
			m.SetCategory(a.category)
			text(a.in.Description, m.SetDescription, m.ClearDescription)
			m.SetPriceMinor(*a.in.PriceMinor)
			m.SetCurrency(a.in.Currency)
			m.SetActive(a.active)
			m.SetSortOrder(sortOrder(a.in.SortOrder))
		}
		if a.ex == nil {
			ac := c.AddonProduct.Create().SetID(a.id)
			fill(ac.Mutation())
			creates = append(creates, ac)
			continue
		}
		au := c.AddonProduct.Update().Where(addonproduct.ID(a.id))
		fill(au.Mutation())
		if err := au.Exec(ctx); err != nil {
			return fmt.Errorf("update add-on %q: %w", a.in.Ref, err)
		}
		p.advance(1)
	}
	return createAll(ctx, p, creates, func(ctx context.Context, bs []*ent.AddonProductCreate) error {
		return c.AddonProduct.CreateBulk(bs...).Exec(ctx)
	})
}

func (p *plan) writeGiftCards(ctx context.Context, c *ent.Client) error {
	var creates []*ent.GiftCardCreate
	for _, g := range p.giftCards {
		fill := func(m *ent.GiftCardMutation) {
			m.SetImportRef(g.in.Ref)
			m.SetCode(g.code)
			m.SetGiftType(giftcard.GiftType(g.giftType))
			m.SetInitialAmountMinor(*g.in.InitialAmountMinor)
			m.SetRemainingAmountMinor(g.remaining)
			m.SetCurrency(g.in.Currency)
			m.SetStatus(giftcard.Status(g.status))
			setTime(g.expiresAt, m.SetExpiresAt, m.ClearExpiresAt)
			text(g.in.SenderName, m.SetSenderName, m.ClearSenderName)
			text(g.in.GiftDescription, m.SetGiftDescription, m.ClearGiftDescription)
			var old *uuid.UUID
			if g.ex != nil {
				old = g.ex.PassTypeID
			}
			setRef(g.ex == nil, old, g.passType, m.SetPassTypeID, m.ClearPassTypeID)
		}
		if g.ex == nil {
			gc := c.GiftCard.Create().SetID(g.id)
			fill(gc.Mutation())
			creates = append(creates, gc)
			continue
		}
		gu := c.GiftCard.Update().Where(giftcard.ID(g.id))
		fill(gu.Mutation())
		if err := gu.Exec(ctx); err != nil {
			return fmt.Errorf("update gift card %q: %w", g.in.Ref, err)
		}
		p.advance(1)
	}
	return createAll(ctx, p, creates, func(ctx context.Context, bs []*ent.GiftCardCreate) error {
		return c.GiftCard.CreateBulk(bs...).Exec(ctx)
	})
}
