package token_test

import (
	"crypto/hmac"
	"crypto/sha256"
	"crypto/sha512"
	"encoding/json"
	"errors"
	"hash"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/venueplatform/venue/internal/identity/token"
)

func TestIssueVerifyRoundTrip(t *testing.T) {
	now := t0.Add(123 * time.Millisecond)
	k := newTestKey(t)
	s := newService(t, keySet(t, k.sk), &now)

	auth := t0.Add(-time.Hour)
	tok, issued, err := s.Issue(token.Claims{
		Subject: "user-1", SessionID: "session-1",
		AMR: []string{token.AMRPassword, token.AMROTP}, MFA: true, AuthTime: auth, StepUpAt: t0,
	})
	require.NoError(t, err)
	require.Equal(t, testIssuer, issued.Issuer)
	require.Equal(t, testAudience, issued.Audience)
	require.Equal(t, t0, issued.IssuedAt, "whole seconds")
	require.Equal(t, t0, issued.NotBefore)
	require.Equal(t, t0.Add(token.DefaultTTL), issued.ExpiresAt)
	require.NotEmpty(t, issued.ID)
	require.Less(t, len(tok), 600)

	got, err := s.Verify(tok)
	require.NoError(t, err)
	require.Equal(t, issued, got)
	require.True(t, got.HasAMR(token.AMROTP))
	require.True(t, got.SteppedUpWithin(now, 5*time.Minute))
	require.False(t, got.SteppedUpWithin(now.Add(6*time.Minute), 5*time.Minute))

	// The header is exactly what the package documents.
	h, _ := enc.DecodeString(strings.Split(tok, ".")[0])
	require.JSONEq(t, `{"alg":"EdDSA","typ":"JWT","kid":"`+k.sk.ID()+`"}`, string(h))

	// A forged token with the good shape verifies too: the table below
	// changes one thing at a time from it.
	_, err = s.Verify(forge(t, k.priv, goodHeader(k.sk.ID()), goodClaims()))
	require.NoError(t, err)
}

func TestIssueNeedsSubjectAndSession(t *testing.T) {
	now := t0
	s := newService(t, keySet(t, newTestKey(t).sk), &now)
	_, _, err := s.Issue(token.Claims{SessionID: "s"})
	require.ErrorIs(t, err, token.ErrInvalidClaims)
	_, _, err = s.Issue(token.Claims{Subject: "u"})
	require.ErrorIs(t, err, token.ErrInvalidClaims)
}

func TestStepUpNeedsMFA(t *testing.T) {
	c := token.Claims{StepUpAt: t0}
	require.False(t, c.SteppedUpWithin(t0, time.Hour), "stepup_at without mfa")
	c = token.Claims{MFA: true}
	require.False(t, c.SteppedUpWithin(t0, time.Hour), "mfa without stepup_at")
}

func hmacSign(t *testing.T, h func() hash.Hash, key []byte, header, claims any) string {
	input := seg(t, header) + "." + seg(t, claims)
	m := hmac.New(h, key)
	m.Write([]byte(input))
	return input + "." + enc.EncodeToString(m.Sum(nil))
}

// TestVerifyRejects is the attack table: one change at a time from a valid
// token, each refused with ErrInvalidToken and the expected reason.
func TestVerifyRejects(t *testing.T) {
	now := t0.Add(time.Minute)
	k := newTestKey(t)
	other := newTestKey(t)
	s := newService(t, keySet(t, k.sk), &now)
	kid := k.sk.ID()
	pub := k.sk.Public().Key
	good := forge(t, k.priv, goodHeader(kid), goodClaims())
	parts := strings.Split(good, ".")
	hdr := map[string]any{"typ": "JWT", "kid": kid}

	flip := func(s string, i int) string {
		b := []byte(s)
		if b[i] == 'A' {
			b[i] = 'B'
		} else {
			b[i] = 'A'
		}
		return string(b)
	}

	for _, tc := range []struct {
		name   string
		token  string
		reason token.Reason
	}{
		{"empty", "", token.ReasonMalformed},
		{"one segment", parts[0], token.ReasonMalformed},
		{"two segments", parts[0] + "." + parts[1], token.ReasonMalformed},
		{"extra segment", good + "." + parts[2], token.ReasonMalformed},
		{"five segments (JWE shape)", good + ".AAAA.AAAA", token.ReasonMalformed},
		{"trailing dot", good + ".", token.ReasonMalformed},
		{"empty header", "." + parts[1] + "." + parts[2], token.ReasonMalformed},
		{"empty payload", parts[0] + ".." + parts[2], token.ReasonMalformed},
		{"empty signature", parts[0] + "." + parts[1] + ".", token.ReasonMalformed},
		{"padding", parts[0] + "=." + parts[1] + "." + parts[2], token.ReasonMalformed},
		{"standard base64", parts[0] + "." + parts[1] + "." + strings.NewReplacer("-", "+", "_", "/").Replace(parts[2]) + "+", token.ReasonMalformed},
		{"line break", parts[0] + "." + parts[1][:10] + "\n" + parts[1][10:] + "." + parts[2], token.ReasonMalformed},
		{"space", " " + good, token.ReasonMalformed},
		{"bearer prefix", "Bearer " + good, token.ReasonMalformed},
		{"huge", good + strings.Repeat("A", 5000), token.ReasonMalformed},
		{"header not json", seg(t, "not json") + "." + parts[1] + "." + parts[2], token.ReasonHeader},
		{"header array", seg(t, `["EdDSA"]`) + "." + parts[1] + "." + parts[2], token.ReasonHeader},
		{"header trailing data", seg(t, `{"alg":"EdDSA","typ":"JWT","kid":"`+kid+`"}{}`) + "." + parts[1] + "." + parts[2], token.ReasonHeader},

		{"alg none", seg(t, with(hdr, "alg", "none")) + "." + parts[1] + ".", token.ReasonAlgorithm},
		{"alg none with signature", seg(t, with(hdr, "alg", "none")) + "." + parts[1] + "." + parts[2], token.ReasonAlgorithm},
		{"alg None", seg(t, with(hdr, "alg", "None")) + "." + parts[1] + ".", token.ReasonAlgorithm},
		{"alg missing", forge(t, k.priv, hdr, goodClaims()), token.ReasonAlgorithm},
		{"alg eddsa lower case", forge(t, k.priv, with(hdr, "alg", "eddsa"), goodClaims()), token.ReasonAlgorithm},
		{"alg Ed25519", forge(t, k.priv, with(hdr, "alg", "Ed25519"), goodClaims()), token.ReasonAlgorithm},
		{"HS256 keyed with the public key", hmacSign(t, sha256.New, pub, with(hdr, "alg", "HS256"), goodClaims()), token.ReasonAlgorithm},
		{"HS256 keyed with the base64 public key", hmacSign(t, sha256.New, []byte(k.sk.Public().JWK().X), with(hdr, "alg", "HS256"), goodClaims()), token.ReasonAlgorithm},
		{"HS384 keyed with the public key", hmacSign(t, sha512.New384, pub, with(hdr, "alg", "HS384"), goodClaims()), token.ReasonAlgorithm},
		{"HS512 keyed with the public key", hmacSign(t, sha512.New, pub, with(hdr, "alg", "HS512"), goodClaims()), token.ReasonAlgorithm},
		{"RS256", seg(t, with(hdr, "alg", "RS256")) + "." + parts[1] + "." + enc.EncodeToString(make([]byte, 256)), token.ReasonAlgorithm},
		{"PS256", seg(t, with(hdr, "alg", "PS256")) + "." + parts[1] + "." + parts[2], token.ReasonAlgorithm},
		{"ES256", seg(t, with(hdr, "alg", "ES256")) + "." + parts[1] + "." + enc.EncodeToString(make([]byte, 64)), token.ReasonAlgorithm},
		{"alg EdDSA signed by HMAC", hmacSign(t, sha512.New, pub, goodHeader(kid), goodClaims()), token.ReasonSignature},

		{"typ missing", forge(t, k.priv, with(goodHeader(kid), "typ", nil), goodClaims()), token.ReasonHeader},
		{"typ JWE", forge(t, k.priv, with(goodHeader(kid), "typ", "JWE"), goodClaims()), token.ReasonHeader},
		{"kid missing", forge(t, k.priv, with(goodHeader(kid), "kid", nil), goodClaims()), token.ReasonHeader},
		{"crit header", forge(t, k.priv, with(goodHeader(kid), "crit", []string{"exp"}), goodClaims()), token.ReasonHeader},
		{"embedded jwk", forge(t, other.priv, with(goodHeader(kid), "jwk", other.sk.Public().JWK()), goodClaims()), token.ReasonHeader},
		{"jku header", forge(t, k.priv, with(goodHeader(kid), "jku", "https://evil.test/jwks"), goodClaims()), token.ReasonHeader},
		{"kid as number", forge(t, k.priv, with(goodHeader(kid), "kid", 1), goodClaims()), token.ReasonHeader},

		{"wrong kid", forge(t, other.priv, goodHeader(other.sk.ID()), goodClaims()), token.ReasonUnknownKey},
		{"kid path traversal", forge(t, k.priv, goodHeader("../../dev/null"), goodClaims()), token.ReasonUnknownKey},
		{"other key claiming our kid", forge(t, other.priv, goodHeader(kid), goodClaims()), token.ReasonSignature},
		{"tampered payload", parts[0] + "." + seg(t, with(goodClaims(), "sub", "admin")) + "." + parts[2], token.ReasonSignature},
		{"tampered header", seg(t, `{"kid":"`+kid+`","alg":"EdDSA","typ":"JWT"}`) + "." + parts[1] + "." + parts[2], token.ReasonSignature},
		{"tampered signature", parts[0] + "." + parts[1] + "." + flip(parts[2], 5), token.ReasonSignature},
		{"zero signature", parts[0] + "." + parts[1] + "." + enc.EncodeToString(make([]byte, 64)), token.ReasonSignature},
		{"short signature", parts[0] + "." + parts[1] + "." + parts[2][:40], token.ReasonMalformed},
		{"long signature", parts[0] + "." + parts[1] + "." + parts[2] + "AAAA", token.ReasonMalformed},

		{"payload not json", forge(t, k.priv, goodHeader(kid), "not json"), token.ReasonMalformed},
		{"payload array", forge(t, k.priv, goodHeader(kid), []any{goodClaims()}), token.ReasonMalformed},
		{"exp as string", forge(t, k.priv, goodHeader(kid), with(goodClaims(), "exp", "9999999999")), token.ReasonMalformed},
		{"exp fractional", forge(t, k.priv, goodHeader(kid), with(goodClaims(), "exp", 1.5e9+0.5)), token.ReasonMalformed},
		{"aud array", forge(t, k.priv, goodHeader(kid), with(goodClaims(), "aud", []string{testAudience})), token.ReasonMalformed},
		{"wrong iss", forge(t, k.priv, goodHeader(kid), with(goodClaims(), "iss", "https://evil.test")), token.ReasonIssuer},
		{"missing iss", forge(t, k.priv, goodHeader(kid), with(goodClaims(), "iss", nil)), token.ReasonIssuer},
		{"wrong aud", forge(t, k.priv, goodHeader(kid), with(goodClaims(), "aud", "venue-mcp")), token.ReasonAudience},
		{"missing aud", forge(t, k.priv, goodHeader(kid), with(goodClaims(), "aud", nil)), token.ReasonAudience},
		{"missing exp", forge(t, k.priv, goodHeader(kid), with(goodClaims(), "exp", nil)), token.ReasonMissingClaim},
		{"exp null", forge(t, k.priv, goodHeader(kid), with(goodClaims(), "exp", json.RawMessage("null"))), token.ReasonMissingClaim},
		{"exp array", forge(t, k.priv, goodHeader(kid), with(goodClaims(), "exp", []int64{t0.Unix()})), token.ReasonMalformed},
		{"payload null", forge(t, k.priv, goodHeader(kid), json.RawMessage("null")), token.ReasonIssuer},
		{"missing iat", forge(t, k.priv, goodHeader(kid), with(goodClaims(), "iat", nil)), token.ReasonMissingClaim},
		{"missing sub", forge(t, k.priv, goodHeader(kid), with(goodClaims(), "sub", nil)), token.ReasonMissingClaim},
		{"missing sid", forge(t, k.priv, goodHeader(kid), with(goodClaims(), "sid", nil)), token.ReasonMissingClaim},
		{"missing jti", forge(t, k.priv, goodHeader(kid), with(goodClaims(), "jti", nil)), token.ReasonMissingClaim},
		{"expired", forge(t, k.priv, goodHeader(kid), with(goodClaims(), "exp", now.Add(-31*time.Second).Unix())), token.ReasonExpired},
		{"expired long ago", forge(t, k.priv, goodHeader(kid), with(goodClaims(), "exp", int64(1))), token.ReasonExpired},
		{"exp zero", forge(t, k.priv, goodHeader(kid), with(goodClaims(), "exp", 0)), token.ReasonExpired},
		{"exp negative", forge(t, k.priv, goodHeader(kid), with(goodClaims(), "exp", -1)), token.ReasonExpired},
		{"nbf in future", forge(t, k.priv, goodHeader(kid), with(goodClaims(), "nbf", now.Add(31*time.Second).Unix())), token.ReasonNotYetValid},
		{"iat in future", forge(t, k.priv, goodHeader(kid), with(goodClaims(), "iat", now.Add(31*time.Second).Unix(), "nbf", nil)), token.ReasonIssuedInFuture},
		{"exp beyond ttl", forge(t, k.priv, goodHeader(kid), with(goodClaims(), "exp", now.Add(token.DefaultTTL+31*time.Second).Unix())), token.ReasonLifetime},
		{"exp in year 9999", forge(t, k.priv, goodHeader(kid), with(goodClaims(), "exp", int64(253402300799))), token.ReasonLifetime},
	} {
		t.Run(tc.name, func(t *testing.T) {
			claims, err := s.Verify(tc.token)
			require.ErrorIs(t, err, token.ErrInvalidToken)
			require.Equal(t, tc.reason, token.ReasonOf(err), "%v", err)
			require.Equal(t, token.Claims{}, claims)
			var ve *token.VerifyError
			require.True(t, errors.As(err, &ve))
			if len(tc.token) > 20 {
				require.NotContains(t, err.Error(), tc.token, "errors never echo the token")
			}
		})
	}
}

func TestVerifyLeeway(t *testing.T) {
	now := t0
	k := newTestKey(t)
	s := newService(t, keySet(t, k.sk), &now)
	for name, claims := range map[string]map[string]any{
		"expired 29 s ago":        with(goodClaims(), "exp", now.Add(-29*time.Second).Unix()),
		"nbf 29 s ahead":          with(goodClaims(), "nbf", now.Add(29*time.Second).Unix()),
		"iat 29 s ahead":          with(goodClaims(), "iat", now.Add(29*time.Second).Unix()),
		"exp at ttl plus leeway":  with(goodClaims(), "exp", now.Add(token.DefaultTTL+30*time.Second).Unix()),
		"no nbf":                  with(goodClaims(), "nbf", nil),
		"unknown claim tolerated": with(goodClaims(), "scope", "anything"),
	} {
		_, err := s.Verify(forge(t, k.priv, goodHeader(k.sk.ID()), claims))
		require.NoError(t, err, name)
	}
	_, err := s.Verify(forge(t, k.priv, goodHeader(k.sk.ID()), with(goodClaims(), "exp", now.Add(-30*time.Second).Unix())))
	require.Equal(t, token.ReasonExpired, token.ReasonOf(err), "exp is exclusive: at exp+leeway the token is dead")
}

func TestExpiryFollowsTheClock(t *testing.T) {
	now := t0
	k := newTestKey(t)
	s := newService(t, keySet(t, k.sk), &now)
	tok, c, err := s.Issue(token.Claims{Subject: "u", SessionID: "s"})
	require.NoError(t, err)
	now = c.ExpiresAt.Add(29 * time.Second)
	_, err = s.Verify(tok)
	require.NoError(t, err)
	now = c.ExpiresAt.Add(30 * time.Second)
	_, err = s.Verify(tok)
	require.Equal(t, token.ReasonExpired, token.ReasonOf(err))
}

func TestKeyRotation(t *testing.T) {
	now := t0
	oldKey, newKey := newTestKey(t), newTestKey(t)

	// Phase 0: old key signs.
	s0 := newService(t, keySet(t, oldKey.sk), &now)
	oldTok, _, err := s0.Issue(token.Claims{Subject: "u", SessionID: "s"})
	require.NoError(t, err)

	// Phase 1: new public key announced; old key still signs.
	s1 := newService(t, keySet(t, oldKey.sk, newKey.sk.Public()), &now)
	// Phase 2: new key signs; old public key still verifies.
	s2 := newService(t, keySet(t, newKey.sk, oldKey.sk.Public()), &now)
	newTok, _, err := s2.Issue(token.Claims{Subject: "u", SessionID: "s"})
	require.NoError(t, err)

	for _, s := range []*token.Service{s1, s2} {
		_, err = s.Verify(oldTok)
		require.NoError(t, err)
		_, err = s.Verify(newTok)
		require.NoError(t, err, "an instance still in phase 1 accepts tokens of phase-2 instances")
	}

	// Phase 3: old key gone.
	s3 := newService(t, keySet(t, newKey.sk), &now)
	_, err = s3.Verify(newTok)
	require.NoError(t, err)
	_, err = s3.Verify(oldTok)
	require.Equal(t, token.ReasonUnknownKey, token.ReasonOf(err))

	// A verify-only instance accepts but cannot issue.
	ro := newService(t, keySet(t, nil, newKey.sk.Public()), &now)
	_, err = ro.Verify(newTok)
	require.NoError(t, err)
	_, _, err = ro.Issue(token.Claims{Subject: "u", SessionID: "s"})
	require.ErrorIs(t, err, token.ErrNoSigningKey)
}

func TestOtherIssuerOrAudienceService(t *testing.T) {
	now := t0
	k := newTestKey(t)
	ks := keySet(t, k.sk)
	s := newService(t, ks, &now)
	tok, _, err := s.Issue(token.Claims{Subject: "u", SessionID: "s"})
	require.NoError(t, err)

	mcp, err := token.New(ks, token.Config{Issuer: testIssuer, Audience: "venue-mcp", Now: func() time.Time { return now }})
	require.NoError(t, err)
	_, err = mcp.Verify(tok)
	require.Equal(t, token.ReasonAudience, token.ReasonOf(err))
}

func TestConfig(t *testing.T) {
	ks := keySet(t, newTestKey(t).sk)
	for name, cfg := range map[string]token.Config{
		"no issuer":      {Audience: "a"},
		"no audience":    {Issuer: "i"},
		"ttl too long":   {Issuer: "i", Audience: "a", TTL: 2 * time.Hour},
		"negative ttl":   {Issuer: "i", Audience: "a", TTL: -time.Second},
		"leeway too big": {Issuer: "i", Audience: "a", Leeway: time.Hour},
		"negative lee":   {Issuer: "i", Audience: "a", Leeway: -time.Second},
	} {
		_, err := token.New(ks, cfg)
		require.Error(t, err, name)
	}
	_, err := token.New(nil, token.Config{Issuer: "i", Audience: "a"})
	require.Error(t, err)
	s, err := token.New(ks, token.Config{Issuer: "i", Audience: "a"})
	require.NoError(t, err)
	require.Equal(t, token.DefaultTTL, s.TTL())
}

func BenchmarkIssue(b *testing.B) {
	now := t0
	s := newService(b, keySet(b, newTestKey(b).sk), &now)
	for b.Loop() {
		if _, _, err := s.Issue(token.Claims{Subject: "u", SessionID: "s"}); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkVerify(b *testing.B) {
	now := t0
	s := newService(b, keySet(b, newTestKey(b).sk), &now)
	tok, _, err := s.Issue(token.Claims{Subject: "u", SessionID: "s"})
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if _, err := s.Verify(tok); err != nil {
			b.Fatal(err)
		}
	}
}
