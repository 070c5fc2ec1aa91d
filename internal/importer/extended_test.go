package importer_test

import (
	"context"
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/venueplatform/venue/ent/amenity"
	"github.com/venueplatform/venue/ent/giftcard"
	"github.com/venueplatform/venue/ent/openinghours"
	"github.com/venueplatform/venue/internal/importer"
)

func readExtended(t *testing.T) string {
	t.Helper()
	b, err := os.ReadFile("testdata/extended.json")
	require.NoError(t, err)
	return string(b)
}

// venueRow renders the venue's row, to see that an import left it alone.
func (e *env) venueRow(t *testing.T) string {
	t.Helper()
	var row string
	require.NoError(t, e.pool.QueryRow(context.Background(),
		"SELECT (to_jsonb(o) - 'updated_at')::text FROM organizations o WHERE slug = 'studio'").Scan(&row))
	return row
}

func TestExtendedRoundTrip(t *testing.T) {
	e := newEnv(t)
	res, err := e.importJSON(t, readExtended(t), importer.Options{})
	require.NoError(t, err)
	require.True(t, res.Venue)
	for section, n := range map[string]int{"opening_hours": 3, "amenities": 2, "photos": 3, "addons": 3, "gift_cards": 2} {
		require.Equal(t, n, res.Counts[section], section)
		require.Equal(t, n, res.Created[section], section)
		require.Len(t, res.IDs[section], n, section)
	}

	org, err := e.client.Organization.Query().Only(e.ctx)
	require.NoError(t, err)
	require.Equal(t, "Yoga and indoor cycling in Vesterbro and Nørrebro.", org.Description)
	require.Equal(t, "https://studio.example", org.Website)
	require.Equal(t, "hello@studio.example", org.Email)
	require.Equal(t, "+45 33 12 34 56", org.Phone)
	require.Equal(t, "https://cdn.studio.example/logo.png", org.LogoURL)
	require.Equal(t, "classes", string(org.World))
	require.Equal(t, "København", org.City)
	require.Equal(t, "DK", org.Country, "upper-cased")
	require.InDelta(t, 55.6699, *org.Lat, 1e-9)
	require.InDelta(t, 12.5533, *org.Lng, 1e-9)
	require.Equal(t, 18, *org.VatExemptAgeThreshold)
	require.Equal(t, "studio", org.Slug, "name, slug, currency stay")
	require.Equal(t, "DKK", org.Currency)

	b1, err := e.client.Brand.Get(e.ctx, uuidOf(t, res, "brands", "b1"))
	require.NoError(t, err)
	require.Equal(t, "#C0392B", b1.Color)
	require.Equal(t, "#FDEDEC", b1.SecondaryColor)
	require.Equal(t, "Sweat, breathe, repeat", b1.Tagline)
	require.Equal(t, "https://hotyoga.example", b1.Website)
	require.Equal(t, "https://cdn.studio.example/hot.png", b1.LogoURL)
	require.Equal(t, map[string]string{"instagram": "https://instagram.com/hotyogacph"}, b1.SocialLinks)
	require.Equal(t, 1, b1.SortOrder)
	require.Equal(t, "Heated yoga", b1.Description)

	oh1, err := e.client.OpeningHours.Get(e.ctx, uuidOf(t, res, "opening_hours", "oh1"))
	require.NoError(t, err)
	require.Nil(t, oh1.LocationID, "venue-wide")
	require.Equal(t, 1, oh1.Weekday)
	require.Equal(t, "06:30", oh1.OpensAt)
	require.Equal(t, "21:00", oh1.ClosesAt)
	oh3, err := e.client.OpeningHours.Get(e.ctx, uuidOf(t, res, "opening_hours", "oh3"))
	require.NoError(t, err)
	require.True(t, oh3.Closed)
	require.Equal(t, uuidOf(t, res, "locations", "l2"), *oh3.LocationID)
	require.Empty(t, oh3.OpensAt)

	am2, err := e.client.Amenity.Get(e.ctx, uuidOf(t, res, "amenities", "am2"))
	require.NoError(t, err)
	require.Equal(t, "Mat rental", am2.Name)
	require.Equal(t, "mat", am2.Icon)
	require.Equal(t, 2, am2.SortOrder)
	require.Equal(t, uuidOf(t, res, "locations", "l1"), *am2.LocationID)

	ph3, err := e.client.Photo.Get(e.ctx, uuidOf(t, res, "photos", "ph3"))
	require.NoError(t, err)
	require.Equal(t, uuidOf(t, res, "brands", "b1"), *ph3.BrandID)
	require.Nil(t, ph3.LocationID)
	ph1, err := e.client.Photo.Get(e.ctx, uuidOf(t, res, "photos", "ph1"))
	require.NoError(t, err)
	require.Equal(t, "Front desk", ph1.Caption)
	require.Nil(t, ph1.LocationID)
	require.Nil(t, ph1.BrandID)

	ad2, err := e.client.AddonProduct.Get(e.ctx, uuidOf(t, res, "addons", "ad2"))
	require.NoError(t, err)
	require.False(t, ad2.Active)
	require.Equal(t, "rental", ad2.Category)
	require.EqualValues(t, 1500, ad2.PriceMinor)
	ad3, err := e.client.AddonProduct.Get(e.ctx, uuidOf(t, res, "addons", "ad3"))
	require.NoError(t, err)
	require.True(t, ad3.Active, "active by default")
	require.Equal(t, "DKK", ad3.Currency)

	g1, err := e.client.GiftCard.Get(e.ctx, uuidOf(t, res, "gift_cards", "g1"))
	require.NoError(t, err)
	require.Equal(t, "XMAS-2026-AA1", g1.Code, "upper-cased")
	require.Equal(t, giftcard.GiftTypeAmount, g1.GiftType)
	require.EqualValues(t, 50000, g1.InitialAmountMinor)
	require.EqualValues(t, 20000, g1.RemainingAmountMinor)
	require.Equal(t, giftcard.StatusActive, g1.Status)
	require.Equal(t, "2027-12-31T22:59:59Z", g1.ExpiresAt.UTC().Format("2006-01-02T15:04:05Z07:00"))
	require.Equal(t, "Mormor", g1.SenderName)
	g2, err := e.client.GiftCard.Get(e.ctx, uuidOf(t, res, "gift_cards", "g2"))
	require.NoError(t, err)
	require.Equal(t, giftcard.GiftTypePass, g2.GiftType)
	require.EqualValues(t, 120000, g2.RemainingAmountMinor, "remaining defaults to initial")
	require.Equal(t, uuidOf(t, res, "pass_types", "pt1"), *g2.PassTypeID)
	require.Nil(t, g2.ExpiresAt)
}

func TestExtendedIsIdempotent(t *testing.T) {
	e := newEnv(t)
	first, err := e.importJSON(t, readExtended(t), importer.Options{})
	require.NoError(t, err)
	before, venueBefore := e.rowCounts(t), e.venueRow(t)
	second, err := e.importJSON(t, readExtended(t), importer.Options{})
	require.NoError(t, err)
	require.Equal(t, first.IDs, second.IDs)
	require.Equal(t, first.Counts, second.Counts)
	for s, n := range second.Created {
		require.Zero(t, n, "created in %s on re-run", s)
	}
	require.Equal(t, before, e.rowCounts(t))
	require.Equal(t, venueBefore, e.venueRow(t))

	// A changed document updates the same rows.
	changed := strings.NewReplacer(
		`"remaining_amount_minor": 20000`, `"remaining_amount_minor": 5000`,
		`"closes_at": "21:00"`, `"closes_at": "22:00"`,
		`{"ref": "ph2", "location": "l2",`, `{"ref": "ph2", "brand": "b1",`,
		`"name": "Showers", "icon": "shower",`, `"name": "Showers", "location": "l2",`,
		`"tagline": "Sweat, breathe, repeat"`, `"tagline": ""`,
		`"city": "København"`, `"city": "Copenhagen"`,
	).Replace(readExtended(t))
	third, err := e.importJSON(t, changed, importer.Options{})
	require.NoError(t, err)
	require.Equal(t, first.IDs, third.IDs)
	require.Equal(t, before, e.rowCounts(t))
	g1, err := e.client.GiftCard.Get(e.ctx, uuidOf(t, third, "gift_cards", "g1"))
	require.NoError(t, err)
	require.EqualValues(t, 5000, g1.RemainingAmountMinor)
	oh1, err := e.client.OpeningHours.Get(e.ctx, uuidOf(t, third, "opening_hours", "oh1"))
	require.NoError(t, err)
	require.Equal(t, "22:00", oh1.ClosesAt)
	ph2, err := e.client.Photo.Get(e.ctx, uuidOf(t, third, "photos", "ph2"))
	require.NoError(t, err)
	require.Nil(t, ph2.LocationID, "moved from the location to the brand")
	require.Equal(t, uuidOf(t, third, "brands", "b1"), *ph2.BrandID)
	am1, err := e.client.Amenity.Query().Where(amenity.ImportRef("am1")).Only(e.ctx)
	require.NoError(t, err)
	require.Empty(t, am1.Icon, "an absent icon is cleared")
	require.Equal(t, uuidOf(t, third, "locations", "l2"), *am1.LocationID)
	b1, err := e.client.Brand.Get(e.ctx, uuidOf(t, third, "brands", "b1"))
	require.NoError(t, err)
	require.Empty(t, b1.Tagline, "an empty string clears")
	require.Equal(t, "#FDEDEC", b1.SecondaryColor)
	org, err := e.client.Organization.Query().Only(e.ctx)
	require.NoError(t, err)
	require.Equal(t, "Copenhagen", org.City)
}

// A document without the extension (testdata/full.json) imports as before:
// it leaves the venue's profile and the brands' theming as they are.
func TestDocumentWithoutExtensionLeavesItAlone(t *testing.T) {
	e := newEnv(t)
	venueBefore := e.venueRow(t)
	res, err := e.importJSON(t, readFull(t), importer.Options{})
	require.NoError(t, err)
	require.False(t, res.Venue)
	require.Equal(t, venueBefore, e.venueRow(t))

	e = newEnv(t)
	_, err = e.importJSON(t, readExtended(t), importer.Options{})
	require.NoError(t, err)
	venueBefore = e.venueRow(t)
	counts := e.rowCounts(t)
	res, err = e.importJSON(t, readFull(t), importer.Options{})
	require.NoError(t, err)
	require.Equal(t, venueBefore, e.venueRow(t))
	for _, s := range []string{"opening_hours", "amenities", "photos", "addons", "gift_cards"} {
		require.Zero(t, res.Counts[s], s)
	}
	after := e.rowCounts(t)
	for _, tbl := range []string{"opening_hours", "amenities", "photos", "addon_products", "gift_cards"} {
		require.Equal(t, counts[tbl], after[tbl], tbl)
	}
	b1, err := e.client.Brand.Get(e.ctx, uuidOf(t, res, "brands", "b1"))
	require.NoError(t, err)
	require.Equal(t, "Sweat, breathe, repeat", b1.Tagline, "theming is kept when the item does not carry it")
	require.Equal(t, 1, b1.SortOrder)
	require.Len(t, b1.SocialLinks, 1)
	require.Empty(t, b1.Color, "color was a field of version 1 before: an absent color clears as it always did")
}

func TestExtendedDryRunWritesNothing(t *testing.T) {
	e := newEnv(t)
	before, venueBefore := e.rowCounts(t), e.venueRow(t)
	res, err := e.importJSON(t, readExtended(t), importer.Options{DryRun: true})
	require.NoError(t, err)
	require.True(t, res.DryRun)
	require.Equal(t, 2, res.Counts["gift_cards"])
	require.Len(t, res.IDs["opening_hours"], 3)
	require.Equal(t, before, e.rowCounts(t))
	require.Equal(t, venueBefore, e.venueRow(t))
}

func TestExtendedBadDocumentsWriteNothing(t *testing.T) {
	ext := readExtended(t)
	cases := []struct{ name, doc, want string }{
		{"unknown location", strings.Replace(ext, `"ref": "oh2", "location": "l1"`, `"ref": "oh2", "location": "l9"`, 1),
			`opening_hours[oh2].location: unknown location ref "l9"`},
		{"unknown amenity location", strings.Replace(ext, `"ref": "am2", "location": "l1"`, `"ref": "am2", "location": "l7"`, 1),
			`amenities[am2].location: unknown location ref "l7"`},
		{"unknown brand", strings.Replace(ext, `"ref": "ph3", "brand": "b1"`, `"ref": "ph3", "brand": "b9"`, 1),
			`photos[ph3].brand: unknown brand ref "b9"`},
		{"photo of location and brand", strings.Replace(ext, `"ref": "ph3", "brand": "b1"`, `"ref": "ph3", "brand": "b1", "location": "l1"`, 1),
			`photos[ph3].brand: a photo belongs to the venue, one location or one brand`},
		{"unknown pass type", strings.Replace(ext, `"pass_type": "pt1"`, `"pass_type": "pt9"`, 1),
			`gift_cards[g2].pass_type: unknown pass type ref "pt9"`},
		{"pass gift without pass type", strings.Replace(ext, `, "pass_type": "pt1"`, ``, 1),
			`gift_cards[g2].pass_type: missing`},
		{"bad weekday", strings.Replace(ext, `"weekday": 6`, `"weekday": 8`, 1),
			`opening_hours[oh2].weekday: weekday 8 is not an ISO weekday`},
		{"weekday zero", strings.Replace(ext, `"weekday": 1,`, `"weekday": 0,`, 1),
			`opening_hours[oh1].weekday: weekday 0 is not an ISO weekday`},
		{"bad clock", strings.Replace(ext, `"opens_at": "08:00"`, `"opens_at": "8:00"`, 1),
			`opening_hours[oh2].opens_at: invalid time "8:00"; want HH:MM`},
		{"clock out of range", strings.Replace(ext, `"closes_at": "21:00"`, `"closes_at": "24:00"`, 1),
			`opening_hours[oh1].closes_at: invalid time "24:00"`},
		{"closes before opens", strings.Replace(ext, `"closes_at": "14:00"`, `"closes_at": "07:00"`, 1),
			`opening_hours[oh2].closes_at: closing time 07:00 is not after opening time 08:00`},
		{"closed with hours", strings.Replace(ext, `"weekday": 7, "closed": true`, `"weekday": 7, "closed": true, "opens_at": "09:00"`, 1),
			`opening_hours[oh3].opens_at: a closed day has no opening time`},
		{"remaining above initial", strings.Replace(ext, `"remaining_amount_minor": 20000`, `"remaining_amount_minor": 60000`, 1),
			`gift_cards[g1].remaining_amount_minor: remaining amount 60000 is more than the initial amount 50000`},
		{"gift card currency", strings.Replace(ext, `"initial_amount_minor": 50000, "remaining_amount_minor": 20000, "currency": "DKK"`,
			`"initial_amount_minor": 50000, "remaining_amount_minor": 20000, "currency": "EURO"`, 1),
			`gift_cards[g1].currency: currency "EURO" is not an ISO 4217 code`},
		{"addon currency", strings.Replace(ext, `"price_minor": 2000, "currency": "DKK"`, `"price_minor": 2000, "currency": "sek"`, 1),
			`addons[ad1].currency: currency "sek" is not an ISO 4217 code`},
		{"addon without price", strings.Replace(ext, `"price_minor": 1500, `, ``, 1),
			`addons[ad2].price_minor: missing`},
		{"duplicate code", strings.Replace(ext, `"code": "PASS-TEN-01"`, `"code": "Xmas-2026-AA1"`, 1),
			`gift_cards[g2].code: code "XMAS-2026-AA1" is also gift card "g1"`},
		{"gift status", strings.Replace(ext, `"status": "active", "expires_at"`, `"status": "used", "expires_at"`, 1),
			`gift_cards[g1].status: value "used" is not one of active, redeemed, expired, cancelled`},
		{"gift expiry", strings.Replace(ext, `"2027-12-31T23:59:59+01:00"`, `"2027-12-31"`, 1),
			`gift_cards[g1].expires_at: invalid time "2027-12-31"`},
		{"unknown field", strings.Replace(ext, `"ref": "am1",`, `"ref": "am1", "colour": "blue",`, 1),
			`amenities[am1].colour: unknown field`},
		{"unknown gift card field", strings.Replace(ext, `"ref": "g1",`, `"ref": "g1", "balance": 1,`, 1),
			`gift_cards[g1].balance: unknown field`},
		{"unknown venue field", strings.Replace(ext, `"world": "classes",`, `"world": "classes", "name": "Renamed",`, 1),
			`venue.name: unknown field`},
		{"venue currency not importable", strings.Replace(ext, `"world": "classes",`, `"world": "classes", "currency": "EUR",`, 1),
			`venue.currency: unknown field`},
		{"bad world", strings.Replace(ext, `"world": "classes"`, `"world": "gyms"`, 1),
			`venue.world: value "gyms" is not one of classes, treatments, salon`},
		{"bad country", strings.Replace(ext, `"country": "dk"`, `"country": "DNK"`, 1),
			`venue.country: invalid country "DNK"`},
		{"bad venue email", strings.Replace(ext, `"hello@studio.example"`, `"hello at studio"`, 1),
			`venue.email: invalid email "hello at studio"`},
		{"bad website", strings.Replace(ext, `"website": "https://studio.example"`, `"website": "studio.example"`, 1),
			`venue.website: invalid URL "studio.example"`},
		{"venue wrong type", strings.Replace(ext, `"lat": 55.6699`, `"lat": "55.6699"`, 1),
			`venue.lat: want a number, got string`},
		{"brand color", strings.Replace(ext, `"secondary_color": "#FDEDEC"`, `"secondary_color": "pink"`, 1),
			`brands[b1].secondary_color: invalid color "pink"`},
		{"brand social links", strings.Replace(ext, `{"instagram": "https://instagram.com/hotyogacph"}`, `{"instagram": 7}`, 1),
			`brands[b1].social_links: want a string, got number`},
		{"photo url", strings.Replace(ext, `"url": "https://cdn.studio.example/front.jpg"`, `"url": "front.jpg"`, 1),
			`photos[ph1].url: invalid URL "front.jpg"`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			require.NotEqual(t, ext, tc.doc, "the case changes the document")
			e := newEnv(t)
			before, venueBefore := e.rowCounts(t), e.venueRow(t)
			_, err := e.importJSON(t, tc.doc, importer.Options{})
			require.Error(t, err)
			require.Contains(t, err.Error(), tc.want)
			require.Equal(t, before, e.rowCounts(t))
			require.Equal(t, venueBefore, e.venueRow(t))
		})
	}
}

func TestGiftCardCodeTakenInTheVenue(t *testing.T) {
	e := newEnv(t)
	_, err := e.importJSON(t, readExtended(t), importer.Options{})
	require.NoError(t, err)
	before := e.rowCounts(t)
	later := `{"format":"venue-import/1","gift_cards":[
		{"ref":"g9","code":"xmas-2026-aa1","initial_amount_minor":100,"currency":"DKK"}]}`
	_, err = e.importJSON(t, later, importer.Options{DryRun: true})
	require.EqualError(t, err, `gift_cards[g9].code: code "XMAS-2026-AA1" is already used by another gift card of the venue`)
	require.Equal(t, before, e.rowCounts(t))

	// A document naming opening hours of an earlier import by ref updates them.
	later = `{"format":"venue-import/1","opening_hours":[{"ref":"oh2","location":"l1","weekday":6,"opens_at":"09:00","closes_at":"13:00"}]}`
	res, err := e.importJSON(t, later, importer.Options{})
	require.NoError(t, err)
	require.Zero(t, res.Created["opening_hours"])
	oh2, err := e.client.OpeningHours.Query().Where(openinghours.ImportRef("oh2")).Only(e.ctx)
	require.NoError(t, err)
	require.Equal(t, "09:00", oh2.OpensAt)
	require.Equal(t, before, e.rowCounts(t))
}

// The example of docs/import-format-extensions.md imports.
func TestExtensionsDocumentExample(t *testing.T) {
	b, err := os.ReadFile("../../docs/import-format-extensions.md")
	require.NoError(t, err)
	_, rest, ok := strings.Cut(string(b), "```json\n")
	require.True(t, ok)
	example, _, ok := strings.Cut(rest, "```")
	require.True(t, ok)
	e := newEnv(t)
	res, err := e.importJSON(t, example, importer.Options{})
	require.NoError(t, err)
	require.True(t, res.Venue)
	require.Equal(t, 2, res.Counts["gift_cards"])
}
