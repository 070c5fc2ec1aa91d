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
// strings in the query are 400 VALIDATION_ERROR naming the parameter, on
// every catalogue read; a path parameter that cannot name anything and an
// unknown venue are 404 on every venue page.
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
		"/discovery/counts":                                                "date",
		"/discovery/counts?date=2026-1-1":                                  "date",
		"/venues?search=" + long:                                           "search",
		"/venues?city=" + long:                                             "city",
		"/venues?lat=0&lng=0&radius=501":                                   "radius",
		"/venues?lat=0&lng=181":                                            "lng",
		"/venues?lat=NaN&lng=0":                                            "lat",
		"/venues?lat=0&lng=0&radius=Inf":                                   "radius",
		"/venues?page=abc":                                                 "page",
		"/venues?limit=1000":                                               "limit",
		"/venues/studio/schedule?from=2026-02-29":                          "from",
		"/venues/studio/schedule?from=2026-11-01&to=2027-01-03":            "to",
		"/venues/studio/pricing?location_id=nope":                          "location_id",
		"/venues/studio/pricing?brand_id=" + uuid.NewString()[:35]:         "brand_id",
		"/venues/studio/pricing?category=Membership":                       "category",
		"/venues/studio/offers?brand_id=1":                                 "brand_id",
		"/venues/studio/offers/" + uuid.NewString() + "?surface=billboard": "surface",
	} {
		status, body := getRaw(t, s.srv.URL+"/api/v1"+query, "")
		require.Equal(t, http.StatusBadRequest, status, query)
		require.Equal(t, "VALIDATION_ERROR", body.Error.Code, query)
		require.Equal(t, param, body.Error.Details["parameter"], query)
		require.Nil(t, body.Data, query)
	}

	// A path parameter that cannot name anything (a malformed id, an
	// overlong slug or code) is the 404 of an unknown one, not a 400: the
	// contract's 404 for unknown, foreign or malformed ids, and the one
	// generic 404 of gift-card lookups.
	for query, code := range map[string]string{
		"/venues/studio/offers/not-a-uuid":                                  "NOT_FOUND",
		"/venues/studio/brands/" + long:                                     "BRAND_NOT_FOUND",
		"/venues/" + long + "/schedule":                                     "NOT_FOUND",
		"/venues/" + long:                                                   "NOT_FOUND",
		"/venues/studio/gift-cards/" + strings.Repeat("A", 65) + "/balance": "NOT_FOUND",
		"/venues/studio/gift-cards/" + strings.Repeat("A", 65) + "/preview": "NOT_FOUND",
	} {
		status, body := getRaw(t, s.srv.URL+"/api/v1"+query, "")
		require.Equal(t, http.StatusNotFound, status, query)
		require.Equal(t, code, body.Error.Code, query)
		require.Nil(t, body.Data, query)
	}
	_, unknown := getRaw(t, s.srv.URL+"/api/v1/venues/studio/gift-cards/NOPE/balance", "")
	_, overlong := getRaw(t, s.srv.URL+"/api/v1/venues/studio/gift-cards/"+strings.Repeat("A", 65)+"/balance", "")
	require.Equal(t, unknown.Error.Message, overlong.Error.Message, "one generic 404 for gift cards")

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
