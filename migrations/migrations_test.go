package migrations_test

import (
	"bytes"
	"context"
	"database/sql"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	atlasmigrate "ariga.io/atlas/sql/migrate"
	"entgo.io/ent/dialect"
	"entgo.io/ent/dialect/sql/schema"
	"github.com/jackc/pgx/v5/stdlib"
	"github.com/stretchr/testify/require"

	"github.com/venueplatform/venue/ent/migrate"
	"github.com/venueplatform/venue/internal/db"
	"github.com/venueplatform/venue/internal/pgtest"
	"github.com/venueplatform/venue/migrations"
)

func TestMain(m *testing.M) {
	// Atlas opens databases through database/sql by URL scheme.
	sql.Register("postgres", stdlib.GetDefaultDriver())
	pgtest.Main(m)
}

// TestMigrationsMatchSchema replays the checked-in migrations (verifying
// atlas.sum) and asks for the next migration: there must be none, so a schema
// change without its migration fails here.
func TestMigrationsMatchSchema(t *testing.T) {
	tmp := t.TempDir()
	entries, err := os.ReadDir(".")
	require.NoError(t, err)
	before := 0
	for _, e := range entries {
		if e.IsDir() || !(strings.HasSuffix(e.Name(), ".sql") || e.Name() == "atlas.sum") {
			continue
		}
		b, err := os.ReadFile(e.Name())
		require.NoError(t, err)
		require.NoError(t, os.WriteFile(filepath.Join(tmp, e.Name()), b, 0o644))
		before++
	}
	dir, err := atlasmigrate.NewLocalDir(tmp)
	require.NoError(t, err)
	err = migrate.NamedDiff(context.Background(), pgtest.NewEmpty(t), "pending",
		schema.WithDir(dir),
		schema.WithMigrationMode(schema.ModeReplay),
		schema.WithDialect(dialect.Postgres),
		schema.WithDropColumn(true),
		schema.WithDropIndex(true),
		schema.WithDiffHook(migrations.KeepHandWritten),
	)
	require.NoError(t, err, "replaying migrations (is atlas.sum current? run go run ./internal/gen/migrate)")
	var after []string
	require.NoError(t, fs.WalkDir(os.DirFS(tmp), ".", func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			after = append(after, p)
		}
		return err
	}))
	if len(after) != before {
		pending, _ := os.ReadFile(filepath.Join(tmp, newest(after)))
		t.Fatalf("ent/schema and migrations/ disagree; run `go run ./internal/gen/migrate -name <change>`:\n%s", pending)
	}
}

// TestMigratedDatabaseEqualsSchema applies the migrations the way the server
// does and asks ent what it would change: nothing.
func TestMigratedDatabaseEqualsSchema(t *testing.T) {
	ctx := context.Background()
	pool, err := db.Open(ctx, pgtest.NewEmpty(t))
	require.NoError(t, err)
	defer pool.Close()
	applied, err := db.Migrate(ctx, pool)
	require.NoError(t, err)
	require.NotEmpty(t, applied)
	client := db.NewClient(pool)
	var plan bytes.Buffer
	require.NoError(t, client.Schema.WriteTo(ctx, &plan, schema.WithDiffHook(migrations.KeepHandWritten)))
	for _, line := range strings.Split(plan.String(), "\n") {
		line = strings.TrimSpace(line)
		if line == "" || line == "BEGIN;" || line == "COMMIT;" {
			continue
		}
		t.Errorf("migrated database differs from ent/schema: %s", line)
	}
}

func newest(files []string) string {
	n := ""
	for _, f := range files {
		if strings.HasSuffix(f, ".sql") && f > n {
			n = f
		}
	}
	return n
}
