package token_test

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/venueplatform/venue/internal/identity/token"
)

// RFC 8037 appendix A.1 (key) and A.3 (its RFC 7638 thumbprint).
const (
	rfcSeed       = "nWGxne_9WmC6hEr0kuwsxERJxWl7MmkZcDusAxyuf2A"
	rfcX          = "11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo"
	rfcThumbprint = "kPrK_qmxVWaYVA9wwBF6Iuo3vVzz7TxHCTwXBygrS4k"
)

// A throwaway key written by `openssl genpkey -algorithm ed25519` and its
// public half (`openssl pkey -pubout`).
const (
	opensslPrivate = `-----BEGIN PRIVATE KEY-----
MC4CAQAwBQYDK2VwBCIEIJikBD6qh7kDrS7f2xdvNTJzvkY1BwsflpbEnJlrrjaM
-----END PRIVATE KEY-----
`
	opensslPublic = `-----BEGIN PUBLIC KEY-----
MCowBQYDK2VwAyEADQJ+xSyIoKZfoyjyZWb3+4FCVFR9VCN3fjPPbguaULI=
-----END PUBLIC KEY-----
`
	opensslP256 = `-----BEGIN PRIVATE KEY-----
MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQgzOTjvPl9KKt/fHVt
YgS2G+B+uRCa/FxJR5bs/FEhyOihRANCAAT8OUI4DhV1QkpztUTaeQWZbARo0zWs
/odMNtWy2M6fViRXZpXRjLYEDmOgrCjHOXtCC0+npoa1y+C3PwSJrIg8
-----END PRIVATE KEY-----
`
)

func TestRFC8037Key(t *testing.T) {
	sk, err := token.ParseSigningKey(rfcSeed)
	require.NoError(t, err)
	require.Equal(t, rfcThumbprint, sk.ID())
	require.Equal(t, rfcX, sk.Public().JWK().X)
	require.Equal(t, rfcSeed, sk.EncodeSeed())

	vk, err := token.ParseVerificationKey(rfcX)
	require.NoError(t, err)
	require.Equal(t, rfcThumbprint, vk.ID)
}

func TestParseSigningKeyForms(t *testing.T) {
	seed, err := base64.RawURLEncoding.DecodeString(rfcSeed)
	require.NoError(t, err)
	for name, s := range map[string]string{
		"base64url raw":    rfcSeed,
		"base64url padded": base64.URLEncoding.EncodeToString(seed),
		"base64 std":       base64.StdEncoding.EncodeToString(seed),
		"base64 std raw":   base64.RawStdEncoding.EncodeToString(seed),
		"surrounding ws":   "\n  " + rfcSeed + "\n",
	} {
		sk, err := token.ParseSigningKey(s)
		require.NoError(t, err, name)
		require.Equal(t, rfcThumbprint, sk.ID(), name)
	}

	sk, err := token.ParseSigningKey(opensslPrivate)
	require.NoError(t, err)
	vk, err := token.ParseVerificationKey(opensslPublic)
	require.NoError(t, err)
	require.Equal(t, sk.Public(), vk)
	again, err := token.ParseSigningKey(sk.EncodeSeed())
	require.NoError(t, err)
	require.Equal(t, sk.ID(), again.ID())
}

func TestParseKeyRejects(t *testing.T) {
	for name, s := range map[string]string{
		"empty":            "",
		"short seed":       rfcSeed[:40],
		"long seed":        rfcSeed + "AAAA",
		"mixed alphabets":  "+" + rfcSeed[1:],
		"not base64":       "this is not a key at all, not even close!!",
		"p256 pem":         opensslP256,
		"public pem":       opensslPublic,
		"pem with garbage": opensslPrivate + "garbage",
		"broken pem":       strings.Replace(opensslPrivate, "MC4C", "MC4D", 1),
		"two pem blocks":   opensslPrivate + opensslPrivate,
	} {
		_, err := token.ParseSigningKey(s)
		require.ErrorIs(t, err, token.ErrInvalidKey, name)
	}
	for name, s := range map[string]string{
		"empty":       "",
		"short":       rfcX[:40],
		"private pem": opensslPrivate,
	} {
		_, err := token.ParseVerificationKey(s)
		require.ErrorIs(t, err, token.ErrInvalidKey, name)
	}
}

func TestSigningKeyDoesNotPrintSecret(t *testing.T) {
	sk, err := token.ParseSigningKey(rfcSeed)
	require.NoError(t, err)
	for _, format := range []string{"%v", "%+v", "%s", "%#v"} {
		out := fmt.Sprintf(format, sk)
		require.Contains(t, out, rfcThumbprint, format)
		require.NotContains(t, out, rfcSeed, format)
		require.NotContains(t, out, "157", format) // the first byte of the seed, 0x9d, in decimal
	}
}

func TestKeySet(t *testing.T) {
	a, b := newTestKey(t), newTestKey(t)
	ks := keySet(t, a.sk, b.sk.Public(), a.sk.Public(), b.sk.Public())
	require.Equal(t, a.sk.ID(), ks.SigningKeyID())
	ids := []string{}
	for _, k := range ks.VerificationKeys() {
		ids = append(ids, k.ID)
	}
	require.Equal(t, []string{a.sk.ID(), b.sk.ID()}, ids, "signing key first, duplicates merged")

	_, err := token.NewKeySet(nil)
	require.ErrorIs(t, err, token.ErrInvalidKey, "empty set")
	_, err = token.NewKeySet(a.sk, token.VerificationKey{ID: "chosen", Key: b.sk.Public().Key})
	require.ErrorIs(t, err, token.ErrInvalidKey, "kid must be the thumbprint")
	_, err = token.NewKeySet(a.sk, token.VerificationKey{ID: "x", Key: []byte{1, 2, 3}})
	require.ErrorIs(t, err, token.ErrInvalidKey)
	require.Empty(t, keySet(t, nil, b.sk.Public()).SigningKeyID())
}

func TestJWKS(t *testing.T) {
	sk, err := token.ParseSigningKey(rfcSeed)
	require.NoError(t, err)
	other := newTestKey(t)
	doc, err := keySet(t, sk, other.sk.Public()).JWKS()
	require.NoError(t, err)

	var got struct {
		Keys []map[string]string `json:"keys"`
	}
	require.NoError(t, json.Unmarshal(doc, &got))
	require.Len(t, got.Keys, 2)
	require.Equal(t, map[string]string{
		"kty": "OKP", "crv": "Ed25519", "x": rfcX, "kid": rfcThumbprint, "use": "sig", "alg": "EdDSA",
	}, got.Keys[0])
	require.NotContains(t, string(doc), `"d"`, "no private part")
	require.NotContains(t, string(doc), rfcSeed)

	// A JWK's x parses back to the same verification key.
	vk, err := token.ParseVerificationKey(got.Keys[1]["x"])
	require.NoError(t, err)
	require.Equal(t, other.sk.Public(), vk)
}
