package platform_test

import (
	"context"
	"encoding/base64"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/venueplatform/venue/ent"
	"github.com/venueplatform/venue/internal/config"
	"github.com/venueplatform/venue/internal/db"
	"github.com/venueplatform/venue/internal/identity/token"
	"github.com/venueplatform/venue/internal/pgtest"
	"github.com/venueplatform/venue/internal/platform"
)

// start fills c's installation secrets the way the server does at start.
func start(t *testing.T, client *ent.Client, c *config.Config) []string {
	t.Helper()
	filled, err := c.FillSecrets(func(s config.Setting) (string, error) {
		return platform.EnsureSecret(context.Background(), client, platform.SecretSpec{Env: s.Env, Bytes: s.InstallBytes})
	})
	require.NoError(t, err)
	return filled
}

// TestSecretsAreStableAcrossStarts: the first start generates every secret
// the configuration leaves unset; a later start (another instance, a
// restart) gets the same values; a value the operator sets wins and is not
// stored.
func TestSecretsAreStableAcrossStarts(t *testing.T) {
	client := db.NewClient(pgtest.NewPool(t))
	first := config.Default()
	first.Cursors.Secret = "set-by-the-operator-0123456789abcdef"
	set := start(t, client, &first)
	require.ElementsMatch(t, []string{"VENUE_JWT_SIGNING_KEY", "VENUE_CODE_PEPPER", "VENUE_WEBHOOK_SECRET_KEY"}, set)
	require.Equal(t, "set-by-the-operator-0123456789abcdef", first.Cursors.Secret)
	for _, v := range []string{first.Tokens.SigningKey, first.Tokens.Pepper, first.Webhooks.SecretKey} {
		raw, err := base64.StdEncoding.DecodeString(v)
		require.NoError(t, err)
		require.Len(t, raw, 32)
	}
	_, err := token.ParseSigningKey(first.Tokens.SigningKey)
	require.NoError(t, err, "the generated signing key is a valid seed")

	second := config.Default()
	require.Len(t, start(t, client, &second), 4)
	require.Equal(t, first.Tokens.SigningKey, second.Tokens.SigningKey)
	require.Equal(t, first.Tokens.Pepper, second.Tokens.Pepper)
	require.Equal(t, first.Webhooks.SecretKey, second.Webhooks.SecretKey)
	require.NotEqual(t, first.Cursors.Secret, second.Cursors.Secret,
		"the operator's value was not stored; the database has one of its own")
	raw, err := base64.StdEncoding.DecodeString(second.Cursors.Secret)
	require.NoError(t, err)
	require.Len(t, raw, 48)
}

// TestConcurrentFirstStartsAgree: instances starting at once end up with
// one value.
func TestConcurrentFirstStartsAgree(t *testing.T) {
	ctx := context.Background()
	client := db.NewClient(pgtest.NewPool(t))
	spec := platform.SecretSpec{Env: "VENUE_TEST_SECRET", Bytes: 32}
	values := make([]string, 16)
	var wg sync.WaitGroup
	for i := range values {
		wg.Add(1)
		go func() {
			defer wg.Done()
			v, err := platform.EnsureSecret(ctx, client, spec)
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
