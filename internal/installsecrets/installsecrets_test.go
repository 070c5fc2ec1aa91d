package installsecrets_test

import (
	"context"
	"encoding/base64"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/venueplatform/venue/internal/entdb"
	"github.com/venueplatform/venue/internal/identity/token"
	"github.com/venueplatform/venue/internal/installsecrets"
	"github.com/venueplatform/venue/internal/pgtest"
)

func TestMain(m *testing.M) { pgtest.Main(m) }

// env is a process environment of its own for one "instance".
type env map[string]string

func (e env) get(k string) string { return e[k] }
func (e env) set(k, v string) error {
	e[k] = v
	return nil
}

// TestExportIsStableAcrossStarts: the first start generates every secret the
// environment leaves unset; a later start (another instance, a restart) gets
// the same values; a variable the environment sets wins and is not stored.
func TestExportIsStableAcrossStarts(t *testing.T) {
	ctx := context.Background()
	client := entdb.NewClient(pgtest.NewPool(t))

	first := env{"VENUE_CURSOR_SECRET": "set-by-the-operator-0123456789abcdef"}
	set, err := installsecrets.Export(ctx, client, installsecrets.Defaults, first.get, first.set)
	require.NoError(t, err)
	require.ElementsMatch(t, []string{"VENUE_JWT_SIGNING_KEY", "VENUE_CODE_PEPPER", "VENUE_WEBHOOK_SECRET_KEY"}, set)
	require.Equal(t, "set-by-the-operator-0123456789abcdef", first["VENUE_CURSOR_SECRET"])
	for _, name := range set {
		raw, err := base64.StdEncoding.DecodeString(first[name])
		require.NoError(t, err, name)
		require.Len(t, raw, 32, name)
	}
	_, err = token.ParseSigningKey(first["VENUE_JWT_SIGNING_KEY"])
	require.NoError(t, err, "the generated signing key is a valid seed")

	second := env{}
	set, err = installsecrets.Export(ctx, client, installsecrets.Defaults, second.get, second.set)
	require.NoError(t, err)
	require.Len(t, set, 4)
	for _, name := range []string{"VENUE_JWT_SIGNING_KEY", "VENUE_CODE_PEPPER", "VENUE_WEBHOOK_SECRET_KEY"} {
		require.Equal(t, first[name], second[name], "%s is the same on every start", name)
	}
	require.NotEqual(t, first["VENUE_CURSOR_SECRET"], second["VENUE_CURSOR_SECRET"],
		"the operator's value was not stored; the database has one of its own")
	raw, err := base64.StdEncoding.DecodeString(second["VENUE_CURSOR_SECRET"])
	require.NoError(t, err)
	require.Len(t, raw, 48)
}

// TestConcurrentFirstStartsAgree: instances starting at once end up with
// one value.
func TestConcurrentFirstStartsAgree(t *testing.T) {
	ctx := context.Background()
	client := entdb.NewClient(pgtest.NewPool(t))
	spec := installsecrets.Spec{Env: "VENUE_TEST_SECRET", Bytes: 32}
	values := make([]string, 16)
	var wg sync.WaitGroup
	for i := range values {
		wg.Add(1)
		go func() {
			defer wg.Done()
			v, err := installsecrets.Ensure(ctx, client, spec)
			require.NoError(t, err)
			values[i] = v
		}()
	}
	wg.Wait()
	for _, v := range values {
		require.Equal(t, values[0], v)
	}
	require.NotEmpty(t, values[0])
}
