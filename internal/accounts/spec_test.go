package accounts_test

import (
	"encoding/json"
	"os"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestSecretsAreNotInTheComponentSchemas: password hashes, refresh-token
// and code hashes are Sensitive fields, stripped from spec/ent.gen.json.
func TestSecretsAreNotInTheComponentSchemas(t *testing.T) {
	raw, err := os.ReadFile("../../spec/ent.gen.json")
	require.NoError(t, err)
	var doc struct {
		Components struct {
			Schemas map[string]struct {
				Properties map[string]any `json:"properties"`
			} `json:"schemas"`
		} `json:"components"`
	}
	require.NoError(t, json.Unmarshal(raw, &doc))
	for name, secret := range map[string]string{"User": "password_hash", "RefreshToken": "hash", "AuthCode": "hash"} {
		s, ok := doc.Components.Schemas[name]
		require.True(t, ok, name)
		require.NotContains(t, s.Properties, secret, name)
	}
}
