package handlers_test

import (
	"encoding/json"
	"net/http"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// TestCatalogueEnvelope: every catalogue answer is the envelope {data, error}
// with error null, and every list adds meta.
func TestCatalogueEnvelope(t *testing.T) {
	s := newStudio(t, "studio")
	cat := s.seedCatalogue(t)
	date := s.today.AddDate(0, 0, 2).Format(time.DateOnly)
	lists := []string{
		"/discovery?world=classes&date=" + date, "/venues",
		"/venues/studio/schedule", "/venues/studio/classes", "/venues/studio/instructors",
		"/venues/studio/locations", "/venues/studio/brands", "/venues/studio/addons",
		"/venues/studio/offers?surface=pricing_page",
	}
	objects := []string{
		"/discovery/counts?date=" + date, "/geo", "/venues/studio", "/venues/studio/pricing",
		"/venues/studio/brands/hot-yoga", "/venues/studio/gift-cards/GIFT-100/balance",
		"/venues/studio/gift-cards/GIFT-100/preview", "/venues/studio/offers/" + cat.liveSale.String(),
	}
	get := func(path string) map[string]json.RawMessage {
		t.Helper()
		res, err := http.Get(s.srv.URL + "/api/v1" + path)
		require.NoError(t, err)
		defer res.Body.Close()
		require.Equal(t, http.StatusOK, res.StatusCode, path)
		var env map[string]json.RawMessage
		require.NoError(t, json.NewDecoder(res.Body).Decode(&env), path)
		require.Equal(t, "null", string(env["error"]), path)
		require.NotEqual(t, "null", string(env["data"]), path)
		return env
	}
	for _, path := range lists {
		env := get(path)
		require.Equal(t, byte('['), env["data"][0], path)
		var meta map[string]any
		require.NoError(t, json.Unmarshal(env["meta"], &meta), path)
		require.Contains(t, meta, "total", path)
	}
	for _, path := range objects {
		env := get(path)
		require.Equal(t, byte('{'), env["data"][0], path)
	}
}
