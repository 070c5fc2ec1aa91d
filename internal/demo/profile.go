package demo

import (
	"fmt"
	"time"

	"github.com/venueplatform/venue/internal/importer"
)

func strp(s string) *string { return &s }

// profile adds the venue's public profile, its brands' theming and the
// catalogue around the classes: opening hours, amenities, photos, add-ons
// and gift cards. The site opens half an hour before the first class and
// closes well after the last.
func profile(d *importer.Document, today time.Time) {
	d.Venue = &importer.VenueProfile{
		Description: strp("Yoga, reformer pilates and indoor cycling in two studios in Vesterbro and Nørrebro."),
		Website:     strp("https://copenhagen-flow.example"),
		Email:       strp("hello@copenhagen-flow.example"),
		Phone:       strp("+45 33 21 40 70"),
		LogoURL:     strp("https://copenhagen-flow.example/img/logo.svg"),
		World:       strp("classes"),
		Address:     strp("Istedgade 70, 1650 København V"),
		City:        strp("København"),
		Country:     strp("DK"),
		Lat:         ptr(55.6699),
		Lng:         ptr(12.5533),
	}
	theme := map[string]importer.Brand{
		"b-flow": {Color: "#2F6F62", SecondaryColor: strp("#F3EDE4"), Tagline: strp("Breathe, move, flow"),
			Website: strp("https://copenhagen-flow.example/yoga"), LogoURL: strp("https://copenhagen-flow.example/img/flow.svg"),
			SocialLinks: map[string]string{"instagram": "https://instagram.com/copenhagenflow", "facebook": "https://facebook.com/copenhagenflow"},
			SortOrder:   intp(1)},
		"b-ride": {Color: "#E4572E", SecondaryColor: strp("#1B1B1E"), Tagline: strp("Ride to the beat"),
			Website: strp("https://copenhagen-flow.example/ride"), LogoURL: strp("https://copenhagen-flow.example/img/ride.svg"),
			SocialLinks: map[string]string{"instagram": "https://instagram.com/ridecph"},
			SortOrder:   intp(2)},
	}
	for i, b := range d.Brands {
		t := theme[b.Ref]
		d.Brands[i].Color, d.Brands[i].SecondaryColor, d.Brands[i].Tagline = t.Color, t.SecondaryColor, t.Tagline
		d.Brands[i].Website, d.Brands[i].LogoURL = t.Website, t.LogoURL
		d.Brands[i].SocialLinks, d.Brands[i].SortOrder = t.SocialLinks, t.SortOrder
	}

	for day := 1; day <= 7; day++ {
		closes := "21:30"
		if day >= 6 {
			closes = "20:30"
		}
		d.OpeningHours = append(d.OpeningHours,
			importer.OpeningHours{Ref: fmt.Sprintf("oh-%d", day), Weekday: intp(day), OpensAt: "06:30", ClosesAt: closes},
			importer.OpeningHours{Ref: fmt.Sprintf("oh-norrebro-%d", day), Location: "l-norrebro", Weekday: intp(day),
				OpensAt: "08:30", ClosesAt: "20:30"})
	}
	d.Amenities = []importer.Amenity{
		{Ref: "am-showers", Name: "Showers", Icon: "shower", SortOrder: intp(1)},
		{Ref: "am-lockers", Name: "Lockers", Icon: "lock", SortOrder: intp(2)},
		{Ref: "am-towels", Name: "Towel service", Icon: "towel", SortOrder: intp(3)},
		{Ref: "am-mats", Location: "l-vesterbro", Name: "Mat rental", Icon: "yoga-mat", SortOrder: intp(4)},
		{Ref: "am-shoes", Location: "l-norrebro", Name: "Cycling shoes", Icon: "shoe", SortOrder: intp(5)},
	}
	d.Photos = []importer.Photo{
		{Ref: "ph-front", URL: "https://copenhagen-flow.example/img/front-desk.jpg", Caption: "The front desk on Istedgade", SortOrder: intp(1)},
		{Ref: "ph-sal-1", Location: "l-vesterbro", URL: "https://copenhagen-flow.example/img/sal-1.jpg", Caption: "Sal 1 before the morning flow", SortOrder: intp(2)},
		{Ref: "ph-ride", Brand: "b-ride", URL: "https://copenhagen-flow.example/img/ride-room.jpg", Caption: "The ride room", SortOrder: intp(3)},
	}
	price := func(v int64) *int64 { return &v }
	d.Addons = []importer.Addon{
		{Ref: "ad-mat", Name: "Mat rental", Category: "rental", Description: "A clean mat for the class.", PriceMinor: price(2000), Currency: Currency, SortOrder: intp(1)},
		{Ref: "ad-towel", Name: "Towel", Category: "rental", PriceMinor: price(1500), Currency: Currency, SortOrder: intp(2)},
		{Ref: "ad-shoes", Name: "Cycling shoes", Category: "rental", Description: "SPD shoes in sizes 36 to 47.", PriceMinor: price(2500), Currency: Currency, SortOrder: intp(3)},
		{Ref: "ad-shake", Name: "Protein shake", Category: "drinks", Description: "Chocolate or vanilla, made after class.", PriceMinor: price(4500), Currency: Currency, SortOrder: intp(4)},
		{Ref: "ad-kombucha", Name: "Kombucha", Category: "drinks", PriceMinor: price(3500), Currency: Currency, SortOrder: intp(5)},
	}
	expires := time.Date(today.Year()+1, today.Month(), today.Day(), 23, 59, 0, 0, today.Location()).Format(time.RFC3339)
	d.GiftCards = []importer.GiftCard{
		{Ref: "gc-amount", Code: "CF-GIFT-7Q2M", InitialAmountMinor: price(50000), RemainingAmountMinor: price(32000),
			Currency: Currency, Status: "active", ExpiresAt: expires, SenderName: "Henrik", GiftDescription: "Tillykke med fødselsdagen!"},
		{Ref: "gc-clip", Code: "CF-GIFT-K4XR", GiftType: "pass", PassType: "pt-clip", InitialAmountMinor: price(prices["pt-clip"]),
			Currency: Currency, Status: "active", ExpiresAt: expires, SenderName: "Astrid", GiftDescription: "Ten classes of your choice."},
	}
}
