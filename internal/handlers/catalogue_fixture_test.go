package handlers_test

import (
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/stretchr/testify/require"

	"github.com/venueplatform/venue/ent"
	"github.com/venueplatform/venue/ent/flashsale"
	"github.com/venueplatform/venue/ent/giftcard"
	"github.com/venueplatform/venue/ent/passtype"
	"github.com/venueplatform/venue/internal/model"
)

// catalogue holds the ids of the public catalogue rows seedCatalogue adds.
type catalogue struct {
	liveSale, scheduledSale, soldOut, ended, cancelled, spinSale uuid.UUID
}

// seedCatalogue adds a venue profile, hours, amenities, photos, add-ons, gift
// cards and flash sales to the studio.
func (s *studio) seedCatalogue(t *testing.T) catalogue {
	t.Helper()
	c, op := s.client, s.op
	lat, lng := 55.6699, 12.5533
	require.NoError(t, c.Organization.UpdateOneID(s.venue.ID).SetDescription("Hot yoga in Vesterbro").
		SetCity("København").SetAddress("Istedgade 1").SetLat(lat).SetLng(lng).SetEmail("hello@studio.example").Exec(op))
	c.Brand.UpdateOneID(s.brand).SetColor("#ff5500").SetSecondaryColor("#222222").SetTagline("Sweat it out").
		SetSocialLinks(map[string]string{"instagram": "https://instagram.com/hotyoga"}).ExecX(op)
	c.OpeningHours.Create().SetWeekday(1).SetOpensAt("06:00").SetClosesAt("21:00").ExecX(op)
	c.OpeningHours.Create().SetWeekday(7).SetClosed(true).ExecX(op)
	c.OpeningHours.Create().SetWeekday(1).SetOpensAt("07:00").SetClosesAt("20:00").SetLocationID(s.location).ExecX(op)
	c.Amenity.Create().SetName("Showers").SetLocationID(s.location).ExecX(op)
	c.Amenity.Create().SetName("Free wifi").ExecX(op)
	c.Photo.Create().SetURL("https://img.example/front.jpg").SetCaption("Front").ExecX(op)
	c.Photo.Create().SetURL("https://img.example/room.jpg").SetLocationID(s.location).ExecX(op)
	c.Room.Create().SetName("Studio 2").SetCapacity(12).SetLocationID(s.location).ExecX(op)
	c.Instructor.Create().SetFirstName("Private").SetLastName("Person").SetEmail("private.teacher@example.com").ExecX(op)

	c.AddonProduct.Create().SetName("Mat rental").SetCategory("rentals").SetPriceMinor(2000).SetCurrency("DKK").ExecX(op)
	c.AddonProduct.Create().SetName("Towel").SetCategory("rentals").SetPriceMinor(1500).SetCurrency("DKK").SetSortOrder(-1).ExecX(op)
	c.AddonProduct.Create().SetName("Protein shake").SetCategory("drinks").SetPriceMinor(4500).SetCurrency("DKK").ExecX(op)
	c.AddonProduct.Create().SetName("Retired").SetCategory("drinks").SetPriceMinor(100).SetCurrency("DKK").SetActive(false).ExecX(op)

	ten, err := c.PassType.Query().Where(passtype.Slug("ten")).Only(op)
	require.NoError(t, err)
	spin, err := c.PassType.Query().Where(passtype.Slug("spin-only")).Only(op)
	require.NoError(t, err)
	c.GiftCard.Create().SetCode("GIFT-100").SetInitialAmountMinor(50000).SetRemainingAmountMinor(32050).SetCurrency("DKK").
		SetSenderName("Mor").SetGiftDescription("Happy birthday").ExecX(op)
	c.GiftCard.Create().SetCode("GIFT-PASS").SetGiftType(giftcard.GiftTypePass).SetPassTypeID(ten.ID).
		SetInitialAmountMinor(120000).SetRemainingAmountMinor(120000).SetCurrency("DKK").ExecX(op)
	c.GiftCard.Create().SetCode("GIFT-GONE").SetStatus(giftcard.StatusCancelled).SetInitialAmountMinor(100).
		SetRemainingAmountMinor(100).SetCurrency("DKK").ExecX(op)
	past := time.Now().Add(-time.Hour)
	c.GiftCard.Create().SetCode("GIFT-OLD").SetExpiresAt(past).SetInitialAmountMinor(100).
		SetRemainingAmountMinor(100).SetCurrency("DKK").ExecX(op)

	now := time.Now().UTC()
	sale := func(name string, start, end time.Time, pt uuid.UUID, placements ...string) *ent.FlashSaleCreate {
		return c.FlashSale.Create().SetName(name).SetProductFamily(flashsale.ProductFamilyRecurring).
			SetCommercialRule(model.CommercialRule{Version: 2, Kind: "introductory_price", Currency: "DKK", VatMode: "included",
				Pricing: model.RulePricing{Mode: "shared", Price: 199}, Duration: model.RuleDuration{Mode: "until_date", EndsAt: "2027-01-31"},
				FollowingPrice: model.RuleFollow{Mode: "pass_price"}, WaiveRegistrationFeePassTypeIDs: []string{}}).
			SetPresentation(model.Presentation{Style: "venue", ShowRemainingCapacity: true, ShowTimeToEnd: true}).
			SetStartsAt(start).SetEndsAt(end).SetPlacements(placements).AddApplicablePassTypeIDs(pt)
	}
	var cat catalogue
	cat.liveSale = sale("Live", now.Add(-time.Hour), now.Add(48*time.Hour), ten.ID, "pricing_page", "public_link").SaveX(op).ID
	cat.scheduledSale = sale("Soon", now.Add(24*time.Hour), now.Add(72*time.Hour), ten.ID, "global_app").
		SetCapacityMax(50).SetClaimedCount(10).SaveX(op).ID
	cat.soldOut = sale("Gone", now.Add(-time.Hour), now.Add(time.Hour), ten.ID, "pricing_page").
		SetCapacityMax(5).SetClaimedCount(5).SaveX(op).ID
	cat.ended = sale("Ended", now.Add(-48*time.Hour), now.Add(-time.Hour), ten.ID, "pricing_page").SaveX(op).ID
	cat.cancelled = sale("Cancelled", now.Add(-time.Hour), now.Add(time.Hour), ten.ID, "pricing_page").SetCancelledAt(now).SaveX(op).ID
	cat.spinSale = sale("Spin", now.Add(-30*time.Minute), now.Add(2*time.Hour), spin.ID, "pricing_page").SaveX(op).ID
	return cat
}
