package handlers_test

import (
	"context"
	"crypto/ed25519"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"net/http"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/venueplatform/venue/internal/identity/token"
)

// TestBearerTokenAttacks: every forged or stale token is 401 UNAUTHORIZED.
func TestBearerTokenAttacks(t *testing.T) {
	e := newAuthEnv(t, newStudio(t, "studio"))
	s := e.signup(t, "ana@example.com", goodPassword)
	_, claims := jwtParts(t, s.AccessToken)
	seed, err := base64.RawURLEncoding.DecodeString(e.key.EncodeSeed())
	if err != nil {
		seed, err = base64.StdEncoding.DecodeString(e.key.EncodeSeed())
	}
	require.NoError(t, err)
	priv := ed25519.NewKeyFromSeed(seed)
	enc := func(v any) string {
		b, err := json.Marshal(v)
		require.NoError(t, err)
		return base64.RawURLEncoding.EncodeToString(b)
	}
	with := func(change func(map[string]any)) map[string]any {
		c := map[string]any{}
		for k, v := range claims {
			c[k] = v
		}
		change(c)
		return c
	}
	edHeader := map[string]any{"alg": "EdDSA", "typ": "JWT", "kid": e.key.ID()}
	signEd := func(c map[string]any) string {
		in := enc(edHeader) + "." + enc(c)
		return in + "." + base64.RawURLEncoding.EncodeToString(ed25519.Sign(priv, []byte(in)))
	}
	now := time.Now().Unix()
	hs := func() string {
		in := enc(map[string]any{"alg": "HS256", "typ": "JWT", "kid": e.key.ID()}) + "." + enc(claims)
		m := hmac.New(sha256.New, priv.Public().(ed25519.PublicKey))
		m.Write([]byte(in))
		return in + "." + base64.RawURLEncoding.EncodeToString(m.Sum(nil))
	}
	cases := map[string]string{
		"alg none":       enc(map[string]any{"alg": "none", "typ": "JWT"}) + "." + enc(claims) + ".",
		"HMAC algorithm": hs(),
		"wrong issuer":   signEd(with(func(c map[string]any) { c["iss"] = "evil" })),
		"wrong audience": signEd(with(func(c map[string]any) { c["aud"] = "other-api" })),
		"no expiry":      signEd(with(func(c map[string]any) { delete(c, "exp") })),
		"expired": signEd(with(func(c map[string]any) {
			c["iat"], c["nbf"], c["exp"] = now-3600, now-3600, now-2700
		})),
		"other key": func() string {
			other, err := token.GenerateSigningKey()
			require.NoError(t, err)
			ks, err := token.NewKeySet(other)
			require.NoError(t, err)
			svc, err := token.New(ks, token.Config{Issuer: "venue-platform", Audience: "venue-api"})
			require.NoError(t, err)
			tok, _, err := svc.Issue(token.Claims{Subject: s.User.ID.String(), SessionID: s.SessionID.String()})
			require.NoError(t, err)
			return tok
		}(),
		"garbage":       "not.a.jwt",
		"tampered body": signEd(claims)[:10] + "x" + signEd(claims)[11:],
	}
	// The honest token, re-signed by the test, is accepted: the table tests
	// the claims, not the test's signing.
	_, err = e.client(t, signEd(claims)).AuthPasswordChangeCode(context.Background())
	require.NoError(t, err)
	for name, tok := range cases {
		_, err := e.client(t, tok).AuthPasswordChangeCode(context.Background())
		es := errorOf(t, err)
		require.Equal(t, http.StatusUnauthorized, es.StatusCode, name)
		require.Equal(t, "UNAUTHORIZED", es.Response.Error.Code, name)
	}
}
