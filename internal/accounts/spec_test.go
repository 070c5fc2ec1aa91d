package accounts_test

import (
	"encoding/json"
	"os"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestSecretsAreNotInTheComponentSchemas: password hashes, refresh-token
// and code hashes, TOTP secrets, device and hand-off codes are Sensitive
// fields, stripped from spec/ent.gen.json. spec/ent.gen.json publishes only
// the entities the API answers with, so an identity entity may be absent;
// when one is published, its secrets must not be.
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
	require.NotEmpty(t, doc.Components.Schemas, "spec/ent.gen.json holds no component: is generation broken?")
	for name, secrets := range map[string][]string{
		"User": {"password_hash"}, "RefreshToken": {"hash"}, "AuthCode": {"hash"},
		"MFAFactor": {"secret"}, "MFABackupCode": {"hash"},
		"DeviceAuthorization": {"device_code_hash", "user_code"},
		"HandoffCode":         {"code_hash"},
		"OTPRequest":          {"code_hash", "token_hash", "code_challenge"},
	} {
		s, ok := doc.Components.Schemas[name]
		if !ok {
			continue
		}
		for _, secret := range secrets {
			require.NotContains(t, s.Properties, secret, name)
		}
	}
}
