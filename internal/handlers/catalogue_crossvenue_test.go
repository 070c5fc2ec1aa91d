package handlers_test

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/stretchr/testify/require"

	"github.com/venueplatform/venue/ent/flashsale"
	"github.com/venueplatform/venue/ent/organization"
	"github.com/venueplatform/venue/ent/passtype"
	api "github.com/venueplatform/venue/internal/gen/api"
	"github.com/venueplatform/venue/internal/model"
)

// rival holds the ids of another venue's catalogue rows, every name of which
// starts with "Rival".
type rival struct {
	brand, location, classType, instructor, passType, sale uuid.UUID
	giftCode                                               string
}

// seedRival adds a listed venue "rival" with one of every catalogue row.
func (s *studio) seedRival(t *testing.T) rival {
	t.Helper()
	op := s.addVenue(t, "rival", "Rival Studio", "København", 55.68, 12.56, organization.WorldClasses)
	c := s.client
	var r rival
	b := c.Brand.Create().SetName("Rival Brand").SetSlug("rival-brand").SaveX(op)
	// The same brand slug as the studio's: slugs are unique per venue only.
	c.Brand.Create().SetName("Rival Hot").SetSlug("hot-yoga").SaveX(op)
	loc := c.Location.Create().SetName("Rival Location").SaveX(op)
	c.Room.Create().SetName("Rival Room").SetCapacity(5).SetLocationID(loc.ID).ExecX(op)
	ct := c.ClassType.Create().SetName("Rival Class").SetBrandID(b.ID).SaveX(op)
	in := c.Instructor.Create().SetFirstName("Rival").SetLastName("Teacher").SaveX(op)
	start := s.today.AddDate(0, 0, 1).Add(10 * time.Hour)
	c.ClassInstance.Create().SetClassTypeID(ct.ID).SetInstructorID(in.ID).SetLocationID(loc.ID).SetStartTime(start).
		SetEndTime(start.Add(time.Hour)).SetCapacity(5).ExecX(op)
	pt := c.PassType.Create().SetName("Rival Pass").SetSlug("rival-pass").SetCategory(passtype.CategoryClipCard).
		SetPriceMinor(1000).SetCurrency("DKK").SaveX(op)
	c.AddonProduct.Create().SetName("Rival Towel").SetCategory("rentals").SetPriceMinor(100).SetCurrency("DKK").ExecX(op)
	c.OpeningHours.Create().SetWeekday(2).SetOpensAt("05:00").SetClosesAt("06:00").ExecX(op)
	c.Amenity.Create().SetName("Rival Sauna").ExecX(op)
	c.Photo.Create().SetURL("https://img.example/rival.jpg").SetCaption("Rival Photo").ExecX(op)
	c.GiftCard.Create().SetCode("RIVAL-GIFT").SetInitialAmountMinor(100).SetRemainingAmountMinor(100).SetCurrency("DKK").ExecX(op)
	now := time.Now().UTC()
	sale := c.FlashSale.Create().SetName("Rival Sale").SetProductFamily(flashsale.ProductFamilyRecurring).
		SetCommercialRule(model.CommercialRule{Version: 2, Kind: "introductory_price", Currency: "DKK", VatMode: "included",
			Pricing: model.RulePricing{Mode: "shared", Price: 1}, Duration: model.RuleDuration{Mode: "until_date", EndsAt: "2027-01-31"},
			FollowingPrice: model.RuleFollow{Mode: "pass_price"}, WaiveRegistrationFeePassTypeIDs: []string{}}).
		SetPresentation(model.Presentation{Style: "clean"}).
		SetStartsAt(now.Add(-time.Hour)).SetEndsAt(now.Add(time.Hour)).
		SetPlacements([]string{"pricing_page", "global_app", "public_link"}).AddApplicablePassTypeIDs(pt.ID).SaveX(op)
	r.brand, r.location, r.classType, r.instructor, r.passType, r.sale = b.ID, loc.ID, ct.ID, in.ID, pt.ID, sale.ID
	r.giftCode = "RIVAL-GIFT"
	return r
}

// TestCatalogueCrossVenue: another venue's rows never show on a venue's
// catalogue pages, and its ids and codes there are 404 exactly like unknown
// ones (or, as schedule filters, match nothing like unknown ones), for the
// anonymous caller and for the venue's own key alike.
func TestCatalogueCrossVenue(t *testing.T) {
	s := newStudio(t, "studio")
	s.seedCatalogue(t)
	r := s.seedRival(t)
	ctx := context.Background()

	// Every catalogue page of the studio, raw: nothing of the rival's.
	for _, path := range []string{"", "/schedule", "/pricing", "/classes", "/instructors", "/locations", "/brands",
		"/brands/hot-yoga", "/addons", "/offers?surface=pricing_page", "/offers?surface=global_app"} {
		body := rawBody(t, s.srv.URL+"/api/v1/venues/studio"+path)
		require.NotContains(t, body, "Rival", path)
		require.NotContains(t, body, "rival", path)
		// Quoted, so a timestamp at five o'clock (…T05:00:59Z) is not mistaken for the rival's opening hours.
		require.NotContains(t, body, `"05:00"`, path)
	}
	// The rival's own pages show its rows (the fixture is visible at all).
	require.Contains(t, rawBody(t, s.srv.URL+"/api/v1/venues/rival/brands/hot-yoga"), "Rival Hot")
	require.Contains(t, rawBody(t, s.srv.URL+"/api/v1/venues/rival"), "Rival Sauna")
	require.Contains(t, rawBody(t, s.srv.URL+"/api/v1/venues/rival"), `"05:00"`)

	for _, key := range []string{"", s.key} {
		c := s.apiClient(t, key)

		// Schedule filters naming the rival's rows match nothing, as unknown ids do.
		for name, p := range map[string]api.GetVenueScheduleParams{
			"location":   {LocationID: api.NewOptUUID(r.location)},
			"brand":      {BrandID: api.NewOptUUID(r.brand)},
			"class type": {ClassTypeID: api.NewOptUUID(r.classType)},
			"instructor": {InstructorID: api.NewOptUUID(r.instructor)},
			"unknown":    {LocationID: api.NewOptUUID(uuid.New())},
		} {
			p.Slug = "studio"
			res, err := c.GetVenueSchedule(ctx, p)
			require.NoError(t, err, name)
			require.Empty(t, res.Data, name)
		}

		notFound := func(what, code string, err error) {
			t.Helper()
			es := errorOf(t, err)
			require.Equal(t, http.StatusNotFound, es.StatusCode, what)
			require.Equal(t, code, es.Response.Error.Code, what)
		}
		_, err := c.GetVenuePricing(ctx, api.GetVenuePricingParams{Slug: "studio", LocationID: api.NewOptUUID(r.location)})
		notFound("pricing location", "NOT_FOUND", err)
		_, err = c.GetVenuePricing(ctx, api.GetVenuePricingParams{Slug: "studio", BrandID: api.NewOptUUID(r.brand)})
		notFound("pricing brand", "NOT_FOUND", err)
		_, err = c.GetVenueBrand(ctx, api.GetVenueBrandParams{Slug: "studio", BrandSlug: "rival-brand"})
		notFound("brand", "BRAND_NOT_FOUND", err)

		// Offers: the rival's live offer is not the studio's, on any surface.
		for _, surface := range []api.GetVenueOfferSurface{api.GetVenueOfferSurfacePublicLink, api.GetVenueOfferSurfacePricingPage} {
			_, err = c.GetVenueOffer(ctx, api.GetVenueOfferParams{Slug: "studio", OfferId: r.sale,
				Surface: api.NewOptGetVenueOfferSurface(surface)})
			notFound("offer", "NOT_FOUND", err)
		}
		offers, err := c.ListVenueOffers(ctx, api.ListVenueOffersParams{Slug: "studio",
			Surface: api.NewOptString("pricing_page"), BrandID: api.NewOptUUID(r.brand)})
		require.NoError(t, err)
		for _, o := range offers.Data {
			require.NotEqual(t, r.sale, o.ID)
		}
	}

	// Gift cards: the rival's code at the studio is the same generic 404 as an
	// unknown code (public only, and charged to the per-IP allowance).
	c := s.apiClient(t, "")
	_, err := c.GetGiftCardBalance(ctx, api.GetGiftCardBalanceParams{Slug: "studio", Code: r.giftCode})
	foreign := errorOf(t, err)
	_, err = c.GetGiftCardBalance(ctx, api.GetGiftCardBalanceParams{Slug: "studio", Code: "NO-SUCH-CARD"})
	unknown := errorOf(t, err)
	require.Equal(t, http.StatusNotFound, foreign.StatusCode)
	require.Equal(t, unknown.Response.Error.Code+unknown.Response.Error.Message, foreign.Response.Error.Code+foreign.Response.Error.Message)
	_, err = c.GetGiftCardPreview(ctx, api.GetGiftCardPreviewParams{Slug: "studio", Code: strings.ToLower(r.giftCode)})
	require.Equal(t, http.StatusNotFound, errorOf(t, err).StatusCode)
	bal, err := c.GetGiftCardBalance(ctx, api.GetGiftCardBalanceParams{Slug: "rival", Code: r.giftCode})
	require.NoError(t, err, "the card is the rival's")
	require.Equal(t, "RIVAL-GIFT", bal.Data.Code)

	// The studio's key reads nothing of the rival's: 404 on every read it may make.
	for name, read := range catalogueReads(s.apiClient(t, s.key), "rival") {
		es := errorOf(t, read.call(ctx))
		require.Equal(t, http.StatusNotFound, es.StatusCode, name)
		require.Equal(t, "NOT_FOUND", es.Response.Error.Code, name)
	}
}
