package pgtest

import (
	"context"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/venueplatform/venue/internal/db"
)

func TestMain(m *testing.M) { Main(m) }

func count(t *testing.T, u, sql string) int {
	t.Helper()
	ctx := context.Background()
	conn, err := pgx.Connect(ctx, u)
	require.NoError(t, err)
	defer conn.Close(ctx)
	var n int
	require.NoError(t, conn.QueryRow(ctx, sql).Scan(&n))
	return n
}

func TestNewDatabasesAreMigratedAndIsolated(t *testing.T) {
	t.Parallel()
	a, b := NewPool(t), NewPool(t)
	ctx := context.Background()

	for _, pool := range []*pgxpool.Pool{a, b} {
		pending, err := db.Pending(ctx, pool)
		require.NoError(t, err)
		assert.Empty(t, pending, "the template has every migration applied")
	}
	_, err := a.Exec(ctx, "CREATE TABLE only_in_a (n int); INSERT INTO only_in_a VALUES (1)")
	require.NoError(t, err)
	var exists bool
	require.NoError(t, b.QueryRow(ctx, "SELECT to_regclass('only_in_a') IS NOT NULL").Scan(&exists))
	assert.False(t, exists, "a table created in one test database is not in another")

	var nameA, nameB string
	require.NoError(t, a.QueryRow(ctx, "SELECT current_database()").Scan(&nameA))
	require.NoError(t, b.QueryRow(ctx, "SELECT current_database()").Scan(&nameB))
	assert.NotEqual(t, nameA, nameB)
	assert.Contains(t, nameA, "testnewdatabasesaremigrated")
}

func TestParallelNew(t *testing.T) {
	t.Parallel()
	for i := 0; i < 4; i++ {
		t.Run("db", func(t *testing.T) {
			t.Parallel()
			u := New(t)
			assert.Equal(t, 1, count(t, u, "SELECT count(*) FROM pg_extension WHERE extname = 'pg_trgm'"))
		})
	}
}

func TestNewEmpty(t *testing.T) {
	t.Parallel()
	u := NewEmpty(t)
	assert.Equal(t, 0, count(t, u, "SELECT count(*) FROM pg_class WHERE relname = 'venue_schema_migrations'"))
}

func TestServerURL(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	admin, err := pgx.Connect(ctx, ServerURL("postgres"))
	require.NoError(t, err)
	defer admin.Close(ctx)
	_, err = admin.Exec(ctx, "CREATE DATABASE server_url_test")
	require.NoError(t, err)
	defer func() {
		_, err := admin.Exec(ctx, "DROP DATABASE server_url_test WITH (FORCE)")
		assert.NoError(t, err)
	}()
	assert.Equal(t, 1, count(t, ServerURL("server_url_test"), "SELECT 1"))
}

func TestURLFor(t *testing.T) {
	cases := []struct{ base, want string }{
		{"postgres://venue@/postgres?host=/tmp/x&port=5432&sslmode=disable", "postgres://venue@/other?host=/tmp/x&port=5432&sslmode=disable"},
		{"postgresql://u:p%40ss@localhost:5433/app?sslmode=disable", "postgresql://u:p%40ss@localhost:5433/other?sslmode=disable"},
		{"postgres://u@localhost", "postgres://u@localhost/other"},
		{"host=localhost dbname=app user=u", "host=localhost dbname='other' user=u"},
		{"host=localhost user=u", "host=localhost user=u dbname='other'"},
	}
	for _, c := range cases {
		assert.Equal(t, c.want, urlFor(c.base, "other"), c.base)
	}
}

func TestNewName(t *testing.T) {
	n := newName("TestSomething/with sub-test #01 and a very long name that goes on and on")
	assert.LessOrEqual(t, len(n), 63)
	assert.Regexp(t, `^pgtest_\d+_[0-9a-f]{8}_testsomething_with_sub_test__01`, n)
	assert.Regexp(t, staleNameRE, n)
}
