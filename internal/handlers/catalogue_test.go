package handlers_test

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/stretchr/testify/require"

	api "github.com/venueplatform/venue/internal/gen/api"
)

func scheduleIDs(rows []api.ScheduleRow) []uuid.UUID {
	ids := make([]uuid.UUID, len(rows))
	for i, r := range rows {
		ids[i] = r.ID
	}
	return ids
}

func TestScheduleDefaultsAndAvailability(t *testing.T) {
	s := newStudio(t, "studio")
	res, err := s.apiClient(t, "").GetVenueSchedule(context.Background(), api.GetVenueScheduleParams{Slug: "studio"})
	require.NoError(t, err)

	// Default window: venue-local today .. today+7; unlisted and later classes are not shown.
	require.Equal(t, []uuid.UUID{s.fullClass, s.onlineClass, s.cancelledClass}, scheduleIDs(res.Data))
	require.Equal(t, s.today.Format(time.DateOnly), res.Meta.From.Format(time.DateOnly))
	require.Equal(t, s.today.AddDate(0, 0, 7).Format(time.DateOnly), res.Meta.To.Format(time.DateOnly))
	require.Equal(t, "Europe/Copenhagen", res.Meta.Timezone)
	require.Equal(t, 3, res.Meta.Total)

	full, online, cancelled := res.Data[0], res.Data[1], res.Data[2]
	require.Equal(t, 2, full.BookedCount, "confirmed and checked-in hold seats; cancelled does not")
	require.Equal(t, 1, full.WaitlistCount)
	require.Equal(t, 0, full.AvailableSpots)
	require.False(t, full.IsBookable, "a full class is not bookable")
	require.Equal(t, "Vinyasa Flow", full.ClassType.Name)
	require.Equal(t, "Mette Hansen", full.Instructor.Value.Name)
	require.Equal(t, "Studio 1", full.Room.Value.Name)
	require.Equal(t, time.UTC, full.StartTime.Location())

	require.True(t, online.IsBookable)
	require.Equal(t, 9, online.AvailableSpots)
	require.True(t, online.Online)
	require.True(t, online.Instructor.Null)

	require.Equal(t, api.ClassStatusCancelled, cancelled.Status)
	require.False(t, cancelled.IsBookable)
	require.True(t, cancelled.WorkshopEntryTarget.Null)
	require.False(t, cancelled.RequiresWorkshopEntry)
}

func TestScheduleFilters(t *testing.T) {
	s := newStudio(t, "studio")
	c := s.apiClient(t, "")
	ctx := context.Background()
	get := func(p api.GetVenueScheduleParams) []uuid.UUID {
		p.Slug = "studio"
		res, err := c.GetVenueSchedule(ctx, p)
		require.NoError(t, err)
		return scheduleIDs(res.Data)
	}
	require.Equal(t, []uuid.UUID{s.fullClass, s.cancelledClass}, get(api.GetVenueScheduleParams{LocationID: api.NewOptUUID(s.location)}))
	require.Equal(t, []uuid.UUID{s.fullClass, s.cancelledClass}, get(api.GetVenueScheduleParams{ClassTypeID: api.NewOptUUID(s.classType)}))
	require.Equal(t, []uuid.UUID{s.fullClass}, get(api.GetVenueScheduleParams{InstructorID: api.NewOptUUID(s.instructor)}))
	require.Equal(t, []uuid.UUID{s.onlineClass}, get(api.GetVenueScheduleParams{BrandID: api.NewOptUUID(s.otherBrand)}))
	require.Equal(t, []uuid.UUID{s.onlineClass}, get(api.GetVenueScheduleParams{OnlineOnly: api.NewOptBool(true)}))
	// An explicit range reaches the class a month out; the end date is inclusive.
	day30 := s.today.AddDate(0, 0, 30)
	from := time.Date(day30.Year(), day30.Month(), day30.Day(), 0, 0, 0, 0, time.UTC)
	require.Equal(t, []uuid.UUID{s.far}, get(api.GetVenueScheduleParams{From: api.NewOptDate(from), To: api.NewOptDate(from)}))
}

// errorOf returns the error envelope of a failed generated-client call.
func errorOf(t *testing.T, err error) *api.ErrorStatusCode {
	t.Helper()
	var es *api.ErrorStatusCode
	require.True(t, errors.As(err, &es), "expected an error envelope, got %v", err)
	require.NotEmpty(t, es.Response.Error.Details.RequestID)
	return es
}

func TestScheduleBadInput(t *testing.T) {
	s := newStudio(t, "studio")
	ctx := context.Background()
	c := s.apiClient(t, "")
	d := func(day int) api.OptDate { return api.NewOptDate(time.Date(2026, 12, day, 0, 0, 0, 0, time.UTC)) }

	_, err := c.GetVenueSchedule(ctx, api.GetVenueScheduleParams{Slug: "studio", From: d(10), To: d(9)})
	es := errorOf(t, err)
	require.Equal(t, http.StatusBadRequest, es.StatusCode)
	require.Equal(t, "VALIDATION_ERROR", es.Response.Error.Code)
	require.Equal(t, "to", es.Response.Error.Details.Parameter.Value)

	_, err = c.GetVenueSchedule(ctx, api.GetVenueScheduleParams{Slug: "studio", From: d(1), To: api.NewOptDate(time.Date(2027, 2, 2, 0, 0, 0, 0, time.UTC))})
	es = errorOf(t, err)
	require.Equal(t, http.StatusBadRequest, es.StatusCode)
	require.Equal(t, "to", es.Response.Error.Details.Parameter.Value)

	_, err = c.GetVenueSchedule(ctx, api.GetVenueScheduleParams{Slug: "nowhere"})
	es = errorOf(t, err)
	require.Equal(t, http.StatusNotFound, es.StatusCode)
	require.Equal(t, "NOT_FOUND", es.Response.Error.Code)

	// Malformed values never reach the handler: 400 naming the parameter.
	for query, param := range map[string]string{
		"from=2026-13-45":         "from",
		"to=tomorrow":             "to",
		"location_id=not-a-uuid":  "location_id",
		"online_only=perhaps":     "online_only",
		"class_type_id=123":       "class_type_id",
		"instructor_id=%27%3B--":  "instructor_id",
		"brand_id=00000000-0000-": "brand_id",
	} {
		status, body := getRaw(t, s.srv.URL+"/api/v1/venues/studio/schedule?"+query, "")
		require.Equal(t, http.StatusBadRequest, status, query)
		require.Equal(t, "VALIDATION_ERROR", body.Error.Code, query)
		require.Equal(t, param, body.Error.Details["parameter"], query)
		require.NotEmpty(t, body.Error.Details["request_id"], query)
		require.Nil(t, body.Data)
	}
}

type envelope struct {
	Data  json.RawMessage `json:"data"`
	Error struct {
		Code    string         `json:"code"`
		Message string         `json:"message"`
		Details map[string]any `json:"details"`
	} `json:"error"`
}

func getRaw(t *testing.T, url, key string) (int, envelope) {
	t.Helper()
	req, err := http.NewRequest(http.MethodGet, url, nil)
	require.NoError(t, err)
	if key != "" {
		req.Header.Set("X-API-Key", key)
	}
	res, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	defer res.Body.Close()
	var env envelope
	require.NoError(t, json.NewDecoder(res.Body).Decode(&env))
	require.Equal(t, "application/json", res.Header.Get("Content-Type")[:16])
	require.Equal(t, "2026-04-11", res.Header.Get("X-Api-Version"))
	require.NotEmpty(t, res.Header.Get("X-Request-Id"))
	if string(env.Data) == "null" {
		env.Data = nil
	}
	return res.StatusCode, env
}

func TestPricing(t *testing.T) {
	s := newStudio(t, "studio")
	ctx := context.Background()
	c := s.apiClient(t, "")
	res, err := c.GetVenuePricing(ctx, api.GetVenuePricingParams{Slug: "studio"})
	require.NoError(t, err)
	require.Equal(t, api.PricingOrg{Slug: "studio", Name: "Studio studio", Currency: "DKK", Timezone: "Europe/Copenhagen",
		VatExemptAgeThreshold: api.NilInt{Null: true}}, res.Data.Org)
	var slugs []string
	for _, pt := range res.Data.PassTypes {
		slugs = append(slugs, pt.Slug)
	}
	require.Equal(t, []string{"ten", "unlimited", "flexible", "spin-only"}, slugs, "active, listed, in display order")

	ten, unlimited, flexible := res.Data.PassTypes[0], res.Data.PassTypes[1], res.Data.PassTypes[2]
	require.Equal(t, 1200.0, ten.PriceAmount)
	require.Equal(t, int64(120000), ten.PriceMinor)
	require.True(t, ten.BillingInterval.Null)
	require.Equal(t, 10, ten.Clips.Value)
	require.True(t, ten.FlexiblePricingConfig.Null)
	require.Equal(t, api.PricedPassTypeBillingIntervalMonth, unlimited.BillingInterval.Value)
	require.Equal(t, 1, unlimited.BillingIntervalCount.Value)
	require.True(t, unlimited.IsRecurring)
	require.Equal(t, api.PricedPassTypePricingModeFlexibleQuantity, flexible.PricingMode)
	cfg := flexible.FlexiblePricingConfig.Value
	require.Equal(t, 4, cfg.MinimumQuantity)
	require.Equal(t, []int{1, 2}, cfg.ChangePolicy.AllowedCycleOffsets)
	require.Equal(t, 90.0, cfg.Tiers[1].PricePerClass)

	// Brand filter: the brand's pass types plus venue-wide ones.
	res, err = c.GetVenuePricing(ctx, api.GetVenuePricingParams{Slug: "studio", BrandID: api.NewOptUUID(s.otherBrand)})
	require.NoError(t, err)
	slugs = nil
	for _, pt := range res.Data.PassTypes {
		slugs = append(slugs, pt.Slug)
	}
	require.Equal(t, []string{"ten", "flexible", "spin-only"}, slugs)

	res, err = c.GetVenuePricing(ctx, api.GetVenuePricingParams{Slug: "studio", Category: api.NewOptPassCategory(api.PassCategoryMembership)})
	require.NoError(t, err)
	require.Len(t, res.Data.PassTypes, 2)

	_, err = c.GetVenuePricing(ctx, api.GetVenuePricingParams{Slug: "studio", LocationID: api.NewOptUUID(uuid.New())})
	require.Equal(t, http.StatusNotFound, errorOf(t, err).StatusCode)

	status, body := getRaw(t, s.srv.URL+"/api/v1/venues/studio/pricing?category=gold", "")
	require.Equal(t, http.StatusBadRequest, status)
	require.Equal(t, "category", body.Error.Details["parameter"])
}
