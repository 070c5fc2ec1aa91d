package importer_test

import (
	"context"
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/venueplatform/venue/ent/service"
	"github.com/venueplatform/venue/internal/importer"
)

const servicesDoc = `{"format":"venue-import/1","services":[
	{"ref":"s1","name":"Deep Tissue Massage","description":"60 minutes of firm pressure.","category":"Massage",
	 "duration_minutes":60,"price_minor":65000,"currency":"DKK","accepts_inquiries":true,"sort_order":1},
	{"ref":"s2","name":"Haircut","slug":"cut","duration_minutes":30,"price_minor":35000,"currency":"DKK",
	 "listed":false,"image_url":"https://cdn.studio.example/cut.jpg"}]}`

func serviceCount(t *testing.T, e *env) int {
	t.Helper()
	var n int
	require.NoError(t, e.pool.QueryRow(context.Background(), "SELECT count(*) FROM services").Scan(&n))
	return n
}

func TestImportServices(t *testing.T) {
	e := newEnv(t)
	res, err := e.importJSON(t, servicesDoc, importer.Options{})
	require.NoError(t, err)
	require.Equal(t, 2, res.Counts["services"])
	require.Equal(t, 2, res.Created["services"])

	s1, err := e.client.Service.Get(e.ctx, uuidOf(t, res, "services", "s1"))
	require.NoError(t, err)
	require.Equal(t, "deep-tissue-massage", s1.Slug, "derived from the name")
	require.Equal(t, 60, s1.DurationMinutes)
	require.Equal(t, int64(65000), s1.PriceMinor)
	require.Equal(t, "Massage", s1.Category)
	require.True(t, s1.IsActive)
	require.True(t, s1.Listed)
	require.True(t, s1.AcceptsInquiries)
	s2, err := e.client.Service.Query().Where(service.ImportRef("s2")).Only(e.ctx)
	require.NoError(t, err)
	require.Equal(t, "cut", s2.Slug)
	require.False(t, s2.Listed)
	require.False(t, s2.AcceptsInquiries, "inquiries are opt-in")
	require.Equal(t, "https://cdn.studio.example/cut.jpg", s2.ImageURL)

	// A re-run updates in place; an absent optional field is cleared.
	again := strings.Replace(servicesDoc, `"description":"60 minutes of firm pressure.",`, "", 1)
	again = strings.Replace(again, `"accepts_inquiries":true`, `"accepts_inquiries":false`, 1)
	res2, err := e.importJSON(t, again, importer.Options{})
	require.NoError(t, err)
	require.Zero(t, res2.Created["services"])
	require.Equal(t, 2, serviceCount(t, e))
	s1, err = e.client.Service.Get(e.ctx, s1.ID)
	require.NoError(t, err)
	require.Empty(t, s1.Description)
	require.False(t, s1.AcceptsInquiries)
	require.Equal(t, "deep-tissue-massage", s1.Slug, "the slug stays its own")
}

func TestImportServicesBadInput(t *testing.T) {
	cases := []struct{ name, from, to, want string }{
		{"no duration", `"duration_minutes":60,`, ``, `services[s1].duration_minutes: missing`},
		{"long duration", `"duration_minutes":60`, `"duration_minutes":1441`, `services[s1].duration_minutes: must be 1 to 1440`},
		{"negative price", `"price_minor":65000`, `"price_minor":-1`, `services[s1].price_minor: must not be negative`},
		{"other currency", `"price_minor":65000,"currency":"DKK"`, `"price_minor":65000,"currency":"EUR"`, `services[s1].currency`},
		{"bad slug", `"slug":"cut"`, `"slug":"Cut It"`, `services[s2].slug: invalid slug`},
		{"unknown field", `"sort_order":1`, `"sort_order":1,"colour":"red"`, `colour`},
		{"no name", `"name":"Haircut",`, ``, `services[s2].name`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			doc := strings.Replace(servicesDoc, tc.from, tc.to, 1)
			require.NotEqual(t, servicesDoc, doc)
			e := newEnv(t)
			_, err := e.importJSON(t, doc, importer.Options{})
			require.Error(t, err)
			require.Contains(t, err.Error(), tc.want)
			require.Zero(t, serviceCount(t, e), "nothing written")
		})
	}

	// A slug another service of the venue holds is refused.
	e := newEnv(t)
	_, err := e.importJSON(t, servicesDoc, importer.Options{})
	require.NoError(t, err)
	taken := `{"format":"venue-import/1","services":[{"ref":"s9","name":"Trim","slug":"cut","duration_minutes":15,"price_minor":0,"currency":"DKK"}]}`
	_, err = e.importJSON(t, taken, importer.Options{})
	require.EqualError(t, err, `services[s9].slug: slug "cut" is already used by another service of the venue`)
	require.Equal(t, 2, serviceCount(t, e))
}

// The services example of docs/import-format-extensions.md imports.
func TestServicesDocumentExample(t *testing.T) {
	b, err := os.ReadFile("../../docs/import-format-extensions.md")
	require.NoError(t, err)
	_, rest, ok := strings.Cut(string(b), "## Services extension")
	require.True(t, ok)
	_, rest, ok = strings.Cut(rest, "```json\n")
	require.True(t, ok)
	example, _, ok := strings.Cut(rest, "```")
	require.True(t, ok)
	e := newEnv(t)
	res, err := e.importJSON(t, example, importer.Options{})
	require.NoError(t, err)
	require.Equal(t, 2, res.Counts["services"])
}
