package importer

import (
	"net/mail"
	"net/url"
	"regexp"
	"strings"

	"golang.org/x/text/language"
)

// Enumerations of the catalogue extension.
var (
	worlds        = []string{"classes", "treatments", "salon"}
	giftTypes     = []string{"amount", "pass"}
	giftStatuses  = []string{"active", "redeemed", "expired", "cancelled"}
	clockPattern  = regexp.MustCompile(`^([01][0-9]|2[0-3]):[0-5][0-9]$`)
	colorPattern  = regexp.MustCompile(`^#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{6})$`)
	giftCodeShape = regexp.MustCompile(`^[A-Z0-9][A-Z0-9_-]*$`)
)

// checkVenue validates the venue object; its problems are named venue.FIELD.
func (p *plan) checkVenue() {
	v := p.doc.Venue
	if v == nil {
		return
	}
	var it item
	f := func(name string) string { return SecVenue + "." + name }
	if v.Website != nil {
		p.webURL(it, f("website"), *v.Website, false)
	}
	if v.LogoURL != nil {
		p.webURL(it, f("logo_url"), *v.LogoURL, false)
	}
	if v.Email != nil {
		p.email(it, f("email"), *v.Email)
	}
	if v.Phone != nil && len(*v.Phone) > 50 {
		p.ps.add(it, f("phone"), "longer than 50 characters")
	}
	if v.World != nil {
		p.enum(it, f("world"), *v.World, "", worlds)
	}
	if v.Country != nil && *v.Country != "" {
		code := strings.ToUpper(*v.Country)
		region, err := language.ParseRegion(code)
		if len(code) != 2 || err != nil || !region.IsCountry() || region.String() != code {
			p.ps.add(it, f("country"), "invalid country %q; want an ISO 3166-1 alpha-2 code such as DK", *v.Country)
		} else {
			p.country = code
		}
	}
	if v.Lat != nil && (*v.Lat < -90 || *v.Lat > 90) {
		p.ps.add(it, f("lat"), "must be between -90 and 90")
	}
	if v.Lng != nil && (*v.Lng < -180 || *v.Lng > 180) {
		p.ps.add(it, f("lng"), "must be between -180 and 180")
	}
	if a := v.VatExemptAgeThreshold; a != nil && (*a < 0 || *a > 150) {
		p.ps.add(it, f("vat_exempt_age_threshold"), "must be an age between 0 and 150, got %d", *a)
	}
}

// checkBrandTheme validates the theming fields of a brand.
func (p *plan) checkBrandTheme(it item, in Brand) {
	if c := in.SecondaryColor; c != nil && *c != "" && !colorPattern.MatchString(*c) {
		p.ps.add(it, "secondary_color", "invalid color %q; want #RGB or #RRGGBB", *c)
	}
	if in.Tagline != nil && len(*in.Tagline) > 200 {
		p.ps.add(it, "tagline", "longer than 200 characters")
	}
	if in.Website != nil {
		p.webURL(it, "website", *in.Website, false)
	}
	if in.LogoURL != nil {
		p.webURL(it, "logo_url", *in.LogoURL, false)
	}
	for network, link := range in.SocialLinks {
		switch {
		case strings.TrimSpace(network) == "" || len(network) > 50:
			p.ps.add(it, "social_links", "network name %q must be 1 to 50 characters", network)
		case strings.TrimSpace(link) == "":
			p.ps.add(it, "social_links."+network, "missing; want a link or handle")
		case len(link) > 500:
			p.ps.add(it, "social_links."+network, "longer than 500 characters")
		}
	}
}

func (p *plan) checkOpeningHours() {
	for i, in := range p.doc.OpeningHours {
		it, id, ok := p.begin(SecOpeningHours, i, in.Ref)
		if !ok {
			continue
		}
		oh := &openingHoursPlan{it: it, in: in, id: id, ex: p.db.openingHours[in.Ref]}
		oh.location = p.resolveOpt(it, "location", SecLocations, in.Location)
		switch {
		case in.Weekday == nil:
			p.ps.add(it, "weekday", "missing; want an ISO weekday from 1 (Monday) to 7 (Sunday)")
		case *in.Weekday < 1 || *in.Weekday > 7:
			p.ps.add(it, "weekday", "weekday %d is not an ISO weekday from 1 (Monday) to 7 (Sunday)", *in.Weekday)
		}
		opens := p.clock(it, "opens_at", in.OpensAt, !in.Closed)
		closes := p.clock(it, "closes_at", in.ClosesAt, !in.Closed)
		switch {
		case in.Closed && in.OpensAt != "":
			p.ps.add(it, "opens_at", "a closed day has no opening time")
		case in.Closed && in.ClosesAt != "":
			p.ps.add(it, "closes_at", "a closed day has no closing time")
		case opens && closes && in.ClosesAt <= in.OpensAt:
			p.ps.add(it, "closes_at", "closing time %s is not after opening time %s", in.ClosesAt, in.OpensAt)
		}
		p.openingHours = append(p.openingHours, oh)
	}
}

func (p *plan) checkAmenities() {
	for i, in := range p.doc.Amenities {
		it, id, ok := p.begin(SecAmenities, i, in.Ref)
		if !ok {
			continue
		}
		a := &amenityPlan{it: it, in: in, id: id, ex: p.db.amenities[in.Ref]}
		a.location = p.resolveOpt(it, "location", SecLocations, in.Location)
		p.required(it, "name", in.Name, 100)
		if len(in.Icon) > 100 {
			p.ps.add(it, "icon", "longer than 100 characters")
		}
		p.amenities = append(p.amenities, a)
	}
}

func (p *plan) checkPhotos() {
	for i, in := range p.doc.Photos {
		it, id, ok := p.begin(SecPhotos, i, in.Ref)
		if !ok {
			continue
		}
		ph := &photoPlan{it: it, in: in, id: id, ex: p.db.photos[in.Ref]}
		ph.location = p.resolveOpt(it, "location", SecLocations, in.Location)
		ph.brand = p.resolveOpt(it, "brand", SecBrands, in.Brand)
		if in.Location != "" && in.Brand != "" {
			p.ps.add(it, "brand", "a photo belongs to the venue, one location or one brand: give location or brand, not both")
		}
		p.webURL(it, "url", in.URL, true)
		if len(in.Caption) > 500 {
			p.ps.add(it, "caption", "longer than 500 characters")
		}
		p.photos = append(p.photos, ph)
	}
}

func (p *plan) checkAddons() {
	for i, in := range p.doc.Addons {
		it, id, ok := p.begin(SecAddons, i, in.Ref)
		if !ok {
			continue
		}
		a := &addonPlan{it: it, in: in, id: id, ex: p.db.addons[in.Ref], category: in.Category, active: true}
		p.required(it, "name", in.Name, 200)
		if a.category == "" {
			a.category = "other"
		} else if len(a.category) > 100 {
			p.ps.add(it, "category", "longer than 100 characters")
		}
		switch {
		case in.PriceMinor == nil:
			p.ps.add(it, "price_minor", "missing; want the price in minor units")
		case *in.PriceMinor < 0:
			p.ps.add(it, "price_minor", "must not be negative")
		}
		p.isoCurrency(it, "currency", in.Currency)
		if in.Active != nil {
			a.active = *in.Active
		}
		p.addons = append(p.addons, a)
	}
}

func (p *plan) checkGiftCards() {
	codes := map[string]string{}
	for i, in := range p.doc.GiftCards {
		it, id, ok := p.begin(SecGiftCards, i, in.Ref)
		if !ok {
			continue
		}
		g := &giftCardPlan{it: it, in: in, id: id, ex: p.db.giftCards[in.Ref]}
		g.code = strings.ToUpper(strings.TrimSpace(in.Code))
		switch {
		case g.code == "":
			p.ps.add(it, "code", "missing; want the card's code")
		case len(g.code) > 64:
			p.ps.add(it, "code", "longer than 64 characters")
		case !giftCodeShape.MatchString(g.code):
			p.ps.add(it, "code", "invalid code %q; want letters, digits, hyphens and underscores", in.Code)
		case codes[g.code] != "":
			p.ps.add(it, "code", "code %q is also gift card %q (codes are unique per venue, ignoring case)", g.code, codes[g.code])
		default:
			codes[g.code] = in.Ref
		}
		g.giftType = p.enum(it, "gift_type", in.GiftType, "amount", giftTypes)
		g.status = p.enum(it, "status", in.Status, "active", giftStatuses)
		switch {
		case in.InitialAmountMinor == nil:
			p.ps.add(it, "initial_amount_minor", "missing; want the card's value in minor units")
		case *in.InitialAmountMinor < 0:
			p.ps.add(it, "initial_amount_minor", "must not be negative")
		default:
			g.remaining = *in.InitialAmountMinor
		}
		if r := in.RemainingAmountMinor; r != nil {
			g.remaining = *r
			switch {
			case *r < 0:
				p.ps.add(it, "remaining_amount_minor", "must not be negative")
			case in.InitialAmountMinor != nil && *r > *in.InitialAmountMinor:
				p.ps.add(it, "remaining_amount_minor", "remaining amount %d is more than the initial amount %d", *r, *in.InitialAmountMinor)
			}
		}
		p.isoCurrency(it, "currency", in.Currency)
		g.expiresAt = p.timestamp(it, "expires_at", in.ExpiresAt, false)
		if len(in.SenderName) > 200 {
			p.ps.add(it, "sender_name", "longer than 200 characters")
		}
		g.passType = p.resolveOpt(it, "pass_type", SecPassTypes, in.PassType)
		switch {
		case g.giftType == "pass" && in.PassType == "":
			p.ps.add(it, "pass_type", "missing; a gift card of gift_type pass names the gifted pass type")
		case g.giftType == "amount" && in.PassType != "":
			p.ps.add(it, "pass_type", "only a gift card of gift_type pass names a pass type")
		}
		p.giftCards = append(p.giftCards, g)
	}
}

// clock checks an HH:MM time; ok is true when it is present and valid.
func (p *plan) clock(it item, field, v string, required bool) (ok bool) {
	switch {
	case v == "" && required:
		p.ps.add(it, field, "missing; want a time HH:MM such as 07:00")
	case v == "":
	case !clockPattern.MatchString(v):
		p.ps.add(it, field, "invalid time %q; want HH:MM from 00:00 to 23:59", v)
	default:
		return true
	}
	return false
}

// webURL checks an absolute http or https URL; an empty one is reported
// only when required.
func (p *plan) webURL(it item, field, v string, required bool) {
	if v == "" {
		if required {
			p.ps.add(it, field, "missing; want an http or https URL")
		}
		return
	}
	u, err := url.Parse(v)
	switch {
	case len(v) > 2000:
		p.ps.add(it, field, "longer than 2000 characters")
	case err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "":
		p.ps.add(it, field, "invalid URL %q; want an absolute http or https URL", v)
	}
}

// email checks an optional email address.
func (p *plan) email(it item, field, v string) {
	if v == "" {
		return
	}
	if a, err := mail.ParseAddress(v); err != nil || a.Address != v {
		p.ps.add(it, field, "invalid email %q", v)
	}
}
