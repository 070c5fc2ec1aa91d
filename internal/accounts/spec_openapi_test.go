package accounts_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/venueplatform/venue/internal/gen/openapi"
)

// TestPublishedSchemasHoldNoStoredSecrets: no component schema of the
// published document has a stored secret's field (a password hash, a code
// or token hash, a sealed factor); the only *_hash property is the mobile
// sign-in's token_hash, which the client sends in a request.
func TestPublishedSchemasHoldNoStoredSecrets(t *testing.T) {
	var doc struct {
		Components struct {
			Schemas map[string]struct {
				Properties map[string]any `json:"properties"`
			} `json:"schemas"`
		} `json:"components"`
	}
	require.NoError(t, json.Unmarshal(openapi.JSON, &doc))
	require.NotEmpty(t, doc.Components.Schemas)
	for name, s := range doc.Components.Schemas {
		for prop := range s.Properties {
			if name == "OtpExchangeRequest" && prop == "token_hash" {
				continue
			}
			if prop == "preview_hash" { // the contract's digest of a reminder-policy preview, not a stored secret
				continue
			}
			require.False(t, strings.HasSuffix(prop, "_hash") || prop == "hash", "%s.%s", name, prop)
			require.NotContains(t, []string{"password_hash", "secret_hash", "sealed_secret", "pepper"}, prop, name)
		}
	}
	for _, name := range []string{"Session", "SessionUser", "Me"} {
		s, ok := doc.Components.Schemas[name]
		require.True(t, ok, name)
		for prop := range s.Properties {
			require.NotContains(t, prop, "password", "%s.%s", name, prop)
			require.NotContains(t, prop, "secret", "%s.%s", name, prop)
		}
	}
}
