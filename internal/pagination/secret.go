package pagination

import (
	"crypto/rand"
	"fmt"
	"strings"
)

// SecretEnv names the environment variable holding the cursor secret.
const SecretEnv = "VENUE_CURSOR_SECRET"

// LoadSecret returns the cursor secret from getenv(SecretEnv): its bytes, at
// least MinSecretLen of them (e.g. `openssl rand -base64 48`). When the
// variable is unset it returns a fresh random secret with generated true: the
// caller should log that cursors will not survive a restart or work across
// instances.
func LoadSecret(getenv func(string) string) (secret []byte, generated bool, err error) {
	if v := strings.TrimSpace(getenv(SecretEnv)); v != "" {
		if len(v) < MinSecretLen {
			return nil, false, fmt.Errorf("pagination: %s has %d bytes, want at least %d", SecretEnv, len(v), MinSecretLen)
		}
		return []byte(v), false, nil
	}
	secret = make([]byte, MinSecretLen)
	if _, err := rand.Read(secret); err != nil {
		return nil, false, fmt.Errorf("pagination: generate cursor secret: %w", err)
	}
	return secret, true, nil
}
