package handlers_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/google/uuid"
	"github.com/stretchr/testify/require"
)

// TestCatalogueBadInput: malformed dates, ranges over the limits, limits above
// the maximum, unknown enumeration values, malformed UUIDs and overlong
// strings are 400 VALIDATION_ERROR naming the parameter, on every catalogue
// read; an unknown venue is 404 NOT_FOUND on every venue page.
func TestCatalogueBadInput(t *testing.T) {
	s := newStudio(t, "studio")
	long := strings.Repeat("a", 101)
	for query, param := range map[string]string{
		"/discovery?world=classes&date=2026-11-30&page=0":         "page",
		"/discovery?world=classes&date=2026-11-30&page=100001":    "page",
		"/discovery?world=classes&date=2026-11-30&limit=0":        "limit",
		"/discovery?world=classes&date=2026-02-30":                "date",
		"/discovery?world=classes&date=2026-11-30&search=" + long: "search",
		"/discovery?world=Classes&date=2026-11-30":                "world",
		"/discovery/counts":                                                 "date",
		"/discovery/counts?date=2026-1-1":                                   "date",
		"/venues?search=" + long:                                            "search",
		"/venues?city=" + long:                                              "city",
		"/venues?lat=0&lng=0&radius=501":                                    "radius",
		"/venues?lat=0&lng=181":                                             "lng",
		"/venues?lat=NaN&lng=0":                                             "lat",
		"/venues?lat=0&lng=0&radius=Inf":                                    "radius",
		"/venues?page=abc":                                                  "page",
		"/venues?limit=1000":                                                "limit",
		"/venues/studio/schedule?from=2026-02-29":                           "from",
		"/venues/studio/schedule?from=2026-11-01&to=2027-01-03":             "to",
		"/venues/studio/pricing?location_id=nope":                           "location_id",
		"/venues/studio/pricing?brand_id=" + uuid.NewString()[:35]:          "brand_id",
		"/venues/studio/pricing?category=Membership":                        "category",
		"/venues/studio/offers?brand_id=1":                                  "brand_id",
		"/venues/studio/offers/not-a-uuid":                                  "offerId",
		"/venues/studio/offers/" + uuid.NewString() + "?surface=billboard":  "surface",
		"/venues/studio/brands/" + long:                                     "brandSlug",
		"/venues/" + long + "/schedule":                                     "slug",
		"/venues/studio/gift-cards/" + strings.Repeat("A", 65) + "/balance": "code",
		"/venues/studio/gift-cards/" + strings.Repeat("A", 65) + "/preview": "code",
	} {
		status, body := getRaw(t, s.srv.URL+"/api/v1"+query, "")
		require.Equal(t, http.StatusBadRequest, status, query)
		require.Equal(t, "VALIDATION_ERROR", body.Error.Code, query)
		require.Equal(t, param, body.Error.Details["parameter"], query)
		require.Nil(t, body.Data, query)
	}

	for _, path := range []string{"", "/schedule", "/pricing", "/classes", "/instructors", "/locations", "/brands",
		"/brands/hot-yoga", "/addons", "/offers", "/offers/" + uuid.NewString(),
		"/gift-cards/GIFT/balance", "/gift-cards/GIFT/preview"} {
		for _, key := range []string{"", s.key} {
			status, body := getRaw(t, s.srv.URL+"/api/v1/venues/nowhere"+path, key)
			require.Equal(t, http.StatusNotFound, status, path)
			require.Equal(t, "NOT_FOUND", body.Error.Code, path)
		}
	}
}
