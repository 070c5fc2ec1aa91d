package bench

import (
	"bytes"
	"context"
	"io"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/stretchr/testify/require"

	"github.com/venueplatform/venue/internal/db"
	"github.com/venueplatform/venue/internal/pgtest"
)

// TestExecuteEndToEnd runs every op briefly on tiny data sets: seeding, the
// in-process service and baseline, API keys, the geo sets in databases of
// their own, the report; then again, reusing the data.
func TestExecuteEndToEnd(t *testing.T) {
	ctx := context.Background()
	url := pgtest.New(t)
	conn, err := pgx.Connect(ctx, url)
	require.NoError(t, err)
	var dbname string
	require.NoError(t, conn.QueryRow(ctx, "SELECT current_database()").Scan(&dbname))
	conn.Close(ctx)
	t.Cleanup(func() {
		// The geo sets' databases sit next to the test's; drop them.
		admin, err := pgx.Connect(ctx, pgtest.ServerURL("postgres"))
		require.NoError(t, err)
		defer admin.Close(ctx)
		for _, s := range []string{"_bench_geo_3", "_bench_geo_12"} {
			_, err := admin.Exec(ctx, "DROP DATABASE IF EXISTS "+pgx.Identifier{dbname + s}.Sanitize()+" WITH (FORCE)")
			require.NoError(t, err)
		}
	})

	cfg := Config{
		DatabaseURL: url,
		Venues:      2, Members: 40, Days: 9, Seed: 5,
		GeoVenues: []int{3, 12}, GeoMembers: 0,
		Ops:         []string{"schedule", "schedule-baseline", "schedule-key", "venues-geo"},
		Concurrency: []int{1, 3},
		Warmup:      50 * time.Millisecond, Duration: 250 * time.Millisecond,
		Timeout: 10 * time.Second,
	}
	var progress bytes.Buffer
	rep, err := Execute(ctx, cfg, NewDisplay(&progress, false))
	require.NoError(t, err)

	require.Len(t, rep.Sets, 3)
	require.Equal(t, SetReport{Name: "main", Venues: 2, Members: 80, Classes: rep.Sets[0].Classes, Days: 9, Seed: 5,
		Seeded: true, SeedTime: rep.Sets[0].SeedTime}, rep.Sets[0])
	require.Positive(t, rep.Sets[0].Classes)
	require.Equal(t, "geo-3", rep.Sets[1].Name)
	require.Equal(t, 12, rep.Sets[2].Venues)

	require.Len(t, rep.Steps, 2*(3+2))
	for _, s := range rep.Steps {
		require.Positive(t, s.Requests, "%s %s c=%d", s.Op, s.Set, s.Concurrency)
		require.Zero(t, s.Errors, "%s %s c=%d: %v", s.Op, s.Set, s.Concurrency, s.ErrorSample)
		require.Positive(t, s.P50)
	}
	require.Len(t, rep.Baseline, 2)
	require.Len(t, rep.Scale, 2)
	require.Equal(t, "geo-3", rep.Scale[0].Small)
	require.Equal(t, "geo-12", rep.Scale[0].Large)
	require.Len(t, rep.Goals, 2, "the schedule goal at 16 is not measured here; the geo goal at both levels")
	require.Contains(t, progress.String(), "data set main: 2 venues")
	require.Contains(t, progress.String(), "schedule-baseline main c=3:")

	// The same seed again reuses every venue.
	cfg.Ops, cfg.Concurrency = []string{"schedule", "venues-geo"}, []int{2}
	rep, err = Execute(ctx, cfg, NewDisplay(&progress, false))
	require.NoError(t, err)
	for _, s := range rep.Sets {
		require.False(t, s.Seeded, s.Name)
	}
	require.Len(t, rep.Steps, 3)
}

func TestConfigValidate(t *testing.T) {
	ok := Config{Ops: []string{"schedule"}, Concurrency: []int{1}, Duration: time.Second}
	_, err := ok.Validate()
	require.NoError(t, err)
	for name, mut := range map[string]func(*Config){
		"unknown op":      func(c *Config) { c.Ops = []string{"x"} },
		"no levels":       func(c *Config) { c.Concurrency = nil },
		"zero level":      func(c *Config) { c.Concurrency = []int{0} },
		"no duration":     func(c *Config) { c.Duration = 0 },
		"target alone":    func(c *Config) { c.Target = "http://127.0.0.1:1" },
		"target not URL":  func(c *Config) { c.Target, c.DatabaseURL = "127.0.0.1:1", "postgres://x" },
		"geo scale zero":  func(c *Config) { c.GeoVenues = []int{0} },
		"negative warmup": func(c *Config) { c.Warmup = -time.Second },
	} {
		c := ok
		mut(&c)
		_, err := c.Validate()
		require.Error(t, err, name)
	}
}

func TestWithDatabase(t *testing.T) {
	require.Equal(t, "postgres://u:p@h:5432/other?sslmode=disable",
		withDatabase("postgres://u:p@h:5432/venue?sslmode=disable", "other"))
	require.Equal(t, "postgres://venue@/other?host=%2Ftmp%2Fs&port=5432",
		withDatabase("postgres://venue@/venue?host=%2Ftmp%2Fs&port=5432", "other"))
	require.Equal(t, "host=h dbname=venue dbname=other", withDatabase("host=h dbname=venue", "other"))
}

// TestExecuteAgainstTarget measures a service that runs elsewhere: the data
// is seeded into its database, the geo op runs on the main set.
func TestExecuteAgainstTarget(t *testing.T) {
	url := pgtest.New(t)
	target, err := db.Open(context.Background(), url)
	require.NoError(t, err)
	defer target.Close()
	h, err := serviceHandler(target)
	require.NoError(t, err)
	srv := httptest.NewServer(h)
	defer srv.Close()

	rep, err := Execute(context.Background(), Config{
		DatabaseURL: url, Target: srv.URL + "/",
		Venues: 1, Members: 20, Days: 2, Seed: 9,
		Ops: []string{"schedule", "venues-geo"}, Concurrency: []int{2},
		Duration: 200 * time.Millisecond, Timeout: 10 * time.Second,
	}, NewDisplay(io.Discard, false))
	require.NoError(t, err)
	require.Equal(t, srv.URL, rep.Environment.Target)
	require.Len(t, rep.Sets, 1)
	require.Len(t, rep.Steps, 2)
	for _, s := range rep.Steps {
		require.Equal(t, "main", s.Set)
		require.Positive(t, s.Requests, s.Op)
		require.Zero(t, s.Errors, "%s: %v", s.Op, s.ErrorSample)
		require.Nil(t, s.DBCPU, "the database is not the tool's own")
	}
	require.Empty(t, rep.Scale)
}
