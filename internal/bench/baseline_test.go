package bench

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/venueplatform/venue/internal/db"
	"github.com/venueplatform/venue/internal/pgtest"
	"github.com/venueplatform/venue/internal/seed"
	"github.com/venueplatform/venue/internal/server"
)

// TestBaselineIssuesServiceSQL runs schedule reads through the whole service
// and through the baseline, each on a traced pool, and requires the same
// statements in the same order and the same JSON. When the service's read
// changes (a filter, an edge, a column), this fails and the baseline's
// statements in baseline_sql.go must follow.
func TestBaselineIssuesServiceSQL(t *testing.T) {
	ctx := context.Background()
	url := pgtest.New(t)
	var svcSQL, baseSQL statements
	svcPool := tracedPool(t, url, &svcSQL)
	basePool := tracedPool(t, url, &baseSQL)
	res, err := seed.Run(ctx, svcPool, seed.Params{Venues: 1, Members: 60, Days: 3, Seed: 7})
	require.NoError(t, err)
	slug := res.Venues[0]

	h, err := server.New(server.Deps{Pool: svcPool, Client: db.NewClient(svcPool), Log: serviceLog()})
	require.NoError(t, err)
	svc := httptest.NewServer(h)
	defer svc.Close()
	base := httptest.NewServer(NewBaseline(basePool))
	defer base.Close()

	// Dates are the venue's: between its midnight and UTC's, a UTC date
	// names a day the seed has no classes on.
	loc, err := time.LoadLocation(seed.VenueZone)
	require.NoError(t, err)
	now := time.Now().In(loc)
	today := now.Format(time.DateOnly)
	far := now.AddDate(1, 0, 0).Format(time.DateOnly)
	for _, tc := range []struct {
		name, path string
		status     int
		rows       bool
	}{
		{"default window", "/api/v1/venues/" + slug + "/schedule", 200, true},
		{"explicit window", "/api/v1/venues/" + slug + "/schedule?from=" + today + "&to=" + today, 200, true},
		{"no classes", "/api/v1/venues/" + slug + "/schedule?from=" + far + "&to=" + far, 200, false},
		{"unknown venue", "/api/v1/venues/nowhere/schedule", 404, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			svcSQL.take()
			svcStatus, svcBody := fetch(t, svc.URL+tc.path)
			wantSQL, platform := readStatements(svcSQL.take())
			baseSQL.take()
			baseStatus, baseBody := fetch(t, base.URL+tc.path)
			gotSQL := baseSQL.take()

			require.Equal(t, tc.status, svcStatus, string(svcBody))
			require.Equal(t, tc.status, baseStatus, string(baseBody))
			require.NotEmpty(t, wantSQL)
			require.Equal(t, wantSQL, gotSQL, "the baseline issues the service's statements")
			require.LessOrEqual(t, len(platform), 1, "at most one rate-limit statement per request: %v", platform)
			if tc.status != 200 {
				return
			}
			var want, got map[string]any
			require.NoError(t, json.Unmarshal(svcBody, &want))
			require.NoError(t, json.Unmarshal(baseBody, &got))
			require.Equal(t, want, got, "the baseline answers like the service")
			require.Equal(t, tc.rows, len(got["data"].([]any)) > 0)
			if tc.rows {
				require.NoError(t, checkNonEmptyData(baseBody))
				require.NoError(t, checkNonEmptyData(svcBody))
			}
		})
	}

	status, _ := fetch(t, base.URL+"/api/v1/venues/"+slug+"/schedule?location_id=x")
	require.Equal(t, http.StatusBadRequest, status, "the baseline refuses what it does not implement")
	status, _ = fetch(t, base.URL+"/api/v1/venues/"+slug+"/schedule?from="+far+"&to="+today)
	require.Equal(t, http.StatusBadRequest, status)
}

// readStatements splits the service's statements into those of the read and
// those of the platform layers (platformStatements).
func readStatements(all []string) (read, platform []string) {
	for _, s := range all {
		if slices.ContainsFunc(platformStatements, func(p string) bool { return strings.HasPrefix(s, p) }) {
			platform = append(platform, s)
			continue
		}
		read = append(read, s)
	}
	return read, platform
}

func fetch(t *testing.T, url string) (int, []byte) {
	t.Helper()
	res, err := http.Get(url)
	require.NoError(t, err)
	defer res.Body.Close()
	body, err := io.ReadAll(res.Body)
	require.NoError(t, err)
	return res.StatusCode, body
}
