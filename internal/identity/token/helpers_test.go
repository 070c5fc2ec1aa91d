package token_test

import (
	"crypto/ed25519"
	"crypto/rand"
	"encoding/base64"
	"encoding/json"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/venueplatform/venue/internal/identity/token"
)

const (
	testIssuer   = "https://api.venue.test"
	testAudience = "venue-api"
)

// t0 is the fixed "now" of the tests.
var t0 = time.Date(2026, 3, 14, 15, 9, 26, 0, time.UTC)

// testKey is a signing key and its raw private key, so tests can forge
// tokens the Service never would.
type testKey struct {
	sk   *token.SigningKey
	priv ed25519.PrivateKey
}

func newTestKey(t testing.TB) testKey {
	t.Helper()
	seed := make([]byte, ed25519.SeedSize)
	_, _ = rand.Read(seed)
	sk, err := token.ParseSigningKey(base64.RawURLEncoding.EncodeToString(seed))
	require.NoError(t, err)
	return testKey{sk: sk, priv: ed25519.NewKeyFromSeed(seed)}
}

func newService(t testing.TB, ks *token.KeySet, now *time.Time) *token.Service {
	t.Helper()
	s, err := token.New(ks, token.Config{
		Issuer: testIssuer, Audience: testAudience,
		Now: func() time.Time { return *now },
	})
	require.NoError(t, err)
	return s
}

func keySet(t testing.TB, signing *token.SigningKey, verify ...token.VerificationKey) *token.KeySet {
	t.Helper()
	ks, err := token.NewKeySet(signing, verify...)
	require.NoError(t, err)
	return ks
}

var enc = base64.RawURLEncoding

func seg(t testing.TB, v any) string {
	t.Helper()
	if s, ok := v.(string); ok {
		return enc.EncodeToString([]byte(s))
	}
	b, err := json.Marshal(v)
	require.NoError(t, err)
	return enc.EncodeToString(b)
}

// forge signs any header and claims with priv, as an attacker holding a key
// (or the test holding ours) would.
func forge(t testing.TB, priv ed25519.PrivateKey, header, claims any) string {
	t.Helper()
	input := seg(t, header) + "." + seg(t, claims)
	return input + "." + enc.EncodeToString(ed25519.Sign(priv, []byte(input)))
}

func goodHeader(kid string) map[string]any {
	return map[string]any{"alg": "EdDSA", "typ": "JWT", "kid": kid}
}

func goodClaims() map[string]any {
	return map[string]any{
		"iss": testIssuer, "aud": testAudience, "sub": "user-1", "sid": "session-1", "jti": "jti-1",
		"iat": t0.Unix(), "nbf": t0.Unix(), "exp": t0.Add(10 * time.Minute).Unix(),
	}
}

func with(m map[string]any, kv ...any) map[string]any {
	out := map[string]any{}
	for k, v := range m {
		out[k] = v
	}
	for i := 0; i < len(kv); i += 2 {
		if kv[i+1] == nil {
			delete(out, kv[i].(string))
			continue
		}
		out[kv[i].(string)] = kv[i+1]
	}
	return out
}
