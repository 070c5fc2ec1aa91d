package handlers_test

import (
	"context"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/google/uuid"
	"github.com/stretchr/testify/require"

	api "github.com/venueplatform/venue/internal/gen/api"
)

func TestVenueProfileAndCatalogue(t *testing.T) {
	s := newStudio(t, "studio")
	s.seedCatalogue(t)
	ctx := context.Background()
	c := s.apiClient(t, "")

	res, err := c.GetVenue(ctx, api.GetVenueParams{Slug: "studio"})
	require.NoError(t, err)
	v := res.Data
	require.Equal(t, "Hot yoga in Vesterbro", v.Description)
	require.Equal(t, 55.6699, v.Lat.Value)
	require.Len(t, v.Brands, 2)
	require.Equal(t, "#ff5500", v.Brands[0].Theme.PrimaryColor)
	require.Equal(t, 1, v.Brands[0].ClassTypesCount)
	require.Equal(t, "https://instagram.com/hotyoga", v.Brands[0].SocialLinks["instagram"])
	require.Len(t, v.OpeningHours, 2, "venue-wide hours only; the location's are on the location")
	require.True(t, v.OpeningHours[1].Closed)
	require.Equal(t, []string{"Free wifi"}, []string{v.Amenities[0].Name})
	require.Len(t, v.Photos, 1)
	require.Len(t, v.Locations, 1)
	loc := v.Locations[0]
	require.Equal(t, 32, loc.Capacity, "20 + 12 seats")
	require.Len(t, loc.Rooms, 2)
	require.Equal(t, "07:00", loc.OpeningHours[0].OpensAt)
	require.Equal(t, "Showers", loc.Amenities[0].Name)
	require.Len(t, loc.Photos, 1)

	locs, err := c.ListVenueLocations(ctx, api.ListVenueLocationsParams{Slug: "studio"})
	require.NoError(t, err)
	require.Equal(t, v.Locations, locs.Data)

	cts, err := c.ListVenueClassTypes(ctx, api.ListVenueClassTypesParams{Slug: "studio"})
	require.NoError(t, err)
	require.Equal(t, []string{"Spin 45", "Vinyasa Flow"}, []string{cts.Data[0].Name, cts.Data[1].Name})
	require.Equal(t, "Spin", cts.Data[0].Brand.Value.Name)

	ins, err := c.ListVenueInstructors(ctx, api.ListVenueInstructorsParams{Slug: "studio"})
	require.NoError(t, err)
	require.Equal(t, "Mette Hansen", ins.Data[0].Name)

	brand, err := c.GetVenueBrand(ctx, api.GetVenueBrandParams{Slug: "studio", BrandSlug: "hot-yoga"})
	require.NoError(t, err)
	require.Equal(t, "Sweat it out", brand.Data.Brand.Tagline)
	require.Equal(t, []string{"Vinyasa Flow"}, []string{brand.Data.ClassTypes[0].Name})
	var pts []string
	for _, pt := range brand.Data.PassTypes {
		pts = append(pts, pt.Slug)
	}
	require.Equal(t, []string{"ten", "unlimited", "flexible"}, pts, "the brand's pass types and venue-wide ones, not Spin's")
	_, err = c.GetVenueBrand(ctx, api.GetVenueBrandParams{Slug: "studio", BrandSlug: "nope"})
	es := errorOf(t, err)
	require.Equal(t, http.StatusNotFound, es.StatusCode)
	require.Equal(t, "BRAND_NOT_FOUND", es.Response.Error.Code)

	addons, err := c.ListVenueAddons(ctx, api.ListVenueAddonsParams{Slug: "studio"})
	require.NoError(t, err)
	require.Len(t, addons.Data, 2)
	require.Equal(t, 2, addons.Meta.Total, "two categories")
	require.Equal(t, "drinks", addons.Data[0].Category)
	require.Len(t, addons.Data[0].Products, 1, "inactive add-ons are hidden")
	require.Equal(t, "Towel", addons.Data[1].Products[0].Name)
	require.Equal(t, 15.0, addons.Data[1].Products[0].PriceAmount)

	// Nothing private reaches the public pages: no staff or member emails.
	for _, path := range []string{"", "/instructors", "/locations", "/brands", "/classes", "/schedule", "/pricing", "/addons"} {
		body := rawBody(t, s.srv.URL+"/api/v1/venues/studio"+path)
		require.NotContains(t, body, "private.teacher@example.com", path)
		require.NotContains(t, body, "@example.com", path)
	}
}

func rawBody(t *testing.T, url string) string {
	t.Helper()
	res, err := http.Get(url)
	require.NoError(t, err)
	defer res.Body.Close()
	require.Equal(t, http.StatusOK, res.StatusCode, url)
	b, err := io.ReadAll(res.Body)
	require.NoError(t, err)
	return string(b)
}

func TestGiftCards(t *testing.T) {
	s := newStudio(t, "studio")
	s.seedCatalogue(t)
	ctx := context.Background()
	c := s.apiClient(t, "")

	bal, err := c.GetGiftCardBalance(ctx, api.GetGiftCardBalanceParams{Slug: "studio", Code: "gift-100"})
	require.NoError(t, err)
	require.Equal(t, 320.5, bal.Data.RemainingAmount)
	require.Equal(t, int64(32050), bal.Data.RemainingAmountMinor)
	require.Equal(t, api.GiftCardBalanceResponseDataStatusActive, bal.Data.Status)
	require.True(t, bal.Data.ExpiresAt.Null)

	pre, err := c.GetGiftCardPreview(ctx, api.GetGiftCardPreviewParams{Slug: "studio", Code: "GIFT-PASS"})
	require.NoError(t, err)
	require.Equal(t, "10-clip card", pre.Data.PassName.Value)
	require.Equal(t, api.GiftCardPreviewResponseDataGiftTypePass, pre.Data.GiftType)

	old, err := c.GetGiftCardBalance(ctx, api.GetGiftCardBalanceParams{Slug: "studio", Code: "GIFT-OLD"})
	require.NoError(t, err)
	require.Equal(t, api.GiftCardBalanceResponseDataStatusExpired, old.Data.Status)

	// Unknown code, cancelled card, unknown venue: one generic 404.
	var messages []string
	for _, p := range []api.GetGiftCardBalanceParams{
		{Slug: "studio", Code: "NOPE"}, {Slug: "studio", Code: "GIFT-GONE"}, {Slug: "elsewhere", Code: "GIFT-100"},
	} {
		_, err := c.GetGiftCardBalance(ctx, p)
		es := errorOf(t, err)
		require.Equal(t, http.StatusNotFound, es.StatusCode)
		messages = append(messages, es.Response.Error.Code+" "+es.Response.Error.Message)
	}
	require.Equal(t, messages[0], messages[1])
	require.Equal(t, messages[0], messages[2])
}

func TestOffers(t *testing.T) {
	s := newStudio(t, "studio")
	cat := s.seedCatalogue(t)
	ctx := context.Background()
	c := s.apiClient(t, "")
	list := func(surface string, brand *uuid.UUID) []uuid.UUID {
		p := api.ListVenueOffersParams{Slug: "studio"}
		if surface != "" {
			p.Surface = api.NewOptString(surface)
		}
		if brand != nil {
			p.BrandID = api.NewOptUUID(*brand)
		}
		res, err := c.ListVenueOffers(ctx, p)
		require.NoError(t, err)
		var ids []uuid.UUID
		for _, o := range res.Data {
			ids = append(ids, o.ID)
		}
		return ids
	}
	require.Equal(t, []uuid.UUID{cat.liveSale, cat.spinSale}, list("pricing_page", nil), "ended, cancelled and sold-out offers are hidden")
	require.Equal(t, []uuid.UUID{cat.liveSale, cat.spinSale}, list("branded_app", nil))
	require.Equal(t, []uuid.UUID{cat.scheduledSale}, list("global_app", nil))
	require.Empty(t, list("", nil))
	require.Empty(t, list("billboard", nil))
	require.Equal(t, []uuid.UUID{cat.liveSale}, list("pricing_page", &s.brand), "the ten-clip card is venue-wide; Spin's is not the brand's")

	res, err := c.ListVenueOffers(ctx, api.ListVenueOffersParams{Slug: "studio", Surface: api.NewOptString("global_app")})
	require.NoError(t, err)
	soon := res.Data[0]
	require.Equal(t, api.OfferStatusScheduled, soon.Status)
	require.Equal(t, 50, soon.Capacity.Maximum.Value)
	require.Equal(t, 40, soon.Capacity.Remaining.Value)
	require.Equal(t, "until_date", soon.CommercialRule.Duration.Mode)

	one, err := c.GetVenueOffer(ctx, api.GetVenueOfferParams{Slug: "studio", OfferId: cat.liveSale})
	require.NoError(t, err, "public_link is the default surface")
	require.Equal(t, api.OfferStatusLive, one.Data.Status)
	require.True(t, one.Data.Capacity.Maximum.Null)
	require.True(t, one.Data.Capacity.Remaining.Null)
	for _, p := range []api.GetVenueOfferParams{
		{Slug: "studio", OfferId: cat.scheduledSale},
		{Slug: "studio", OfferId: cat.soldOut, Surface: api.NewOptGetVenueOfferSurface(api.GetVenueOfferSurfacePricingPage)},
		{Slug: "studio", OfferId: cat.ended, Surface: api.NewOptGetVenueOfferSurface(api.GetVenueOfferSurfacePricingPage)},
		{Slug: "studio", OfferId: cat.cancelled, Surface: api.NewOptGetVenueOfferSurface(api.GetVenueOfferSurfacePricingPage)},
		{Slug: "studio", OfferId: uuid.New()},
	} {
		_, err := c.GetVenueOffer(ctx, p)
		require.Equal(t, http.StatusNotFound, errorOf(t, err).StatusCode, p.OfferId)
	}
}

func TestGeo(t *testing.T) {
	s := newStudio(t, "studio")
	get := func(country, city string) (int, string, string) {
		req, _ := http.NewRequest(http.MethodGet, s.srv.URL+"/api/v1/geo", nil)
		if country != "" {
			req.Header.Set("CF-IPCountry", country)
		}
		if city != "" {
			req.Header.Set("X-Geo-City", city)
		}
		res, err := http.DefaultClient.Do(req)
		require.NoError(t, err)
		defer res.Body.Close()
		b, _ := io.ReadAll(res.Body)
		return res.StatusCode, res.Header.Get("Cache-Control"), string(b)
	}
	status, cache, body := get("dk", "Copenhagen")
	require.Equal(t, http.StatusOK, status)
	require.Equal(t, "no-store", cache)
	require.Contains(t, body, `"country":"DK"`)
	require.Contains(t, body, `"city":"Copenhagen"`)
	_, _, body = get("XX", "")
	require.Contains(t, body, `"country":null`)
	require.Contains(t, body, `"city":null`)
	_, _, body = get("Denmark", "")
	require.True(t, strings.Contains(body, `"country":null`), body)
	// Providers percent-encode names outside ASCII: answered decoded.
	_, _, body = get("DK", "K%C3%B8benhavn")
	require.Contains(t, body, `"city":"København"`)
	_, _, body = get("DK", "50%")
	require.Contains(t, body, `"city":"50%"`, "not an escape: kept as sent")
}
