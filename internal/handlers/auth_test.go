package handlers_test

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	api "github.com/venueplatform/venue/internal/gen/api"
)

const goodPassword = "correct horse battery"

// TestSessionLifecycle: sign-up, login, refresh rotation with reuse
// detection, logout.
func TestSessionLifecycle(t *testing.T) {
	e := newAuthEnv(t, newStudio(t, "studio"))
	ctx := context.Background()
	anon := e.client(t, "")

	s := e.signup(t, "ana@example.com", goodPassword)
	require.Equal(t, "Bearer", s.TokenType)
	require.Equal(t, 900, s.ExpiresIn)
	require.Equal(t, "ana@example.com", s.User.Email)
	require.Equal(t, "active", s.User.AccountState)
	require.False(t, s.MfaRequired)
	header, claims := jwtParts(t, s.AccessToken)
	require.Equal(t, "EdDSA", header["alg"])
	require.Equal(t, "venue-platform", claims["iss"])
	require.Equal(t, "venue-api", claims["aud"])
	require.NotNil(t, claims["exp"])
	require.Equal(t, s.SessionID.String(), claims["sid"])

	// A second sign-up with the same email (any case) is refused.
	_, err := anon.AuthSignup(ctx, &api.SignupRequest{Email: "ANA@example.com", Password: goodPassword})
	require.Equal(t, "ACCOUNT_EXISTS", errorOf(t, err).Response.Error.Code)
	// A short password names the field.
	_, err = anon.AuthSignup(ctx, &api.SignupRequest{Email: "bo@example.com", Password: "short"})
	es := errorOf(t, err)
	require.Equal(t, http.StatusBadRequest, es.StatusCode)
	require.Equal(t, "password", es.Response.Error.Details.Parameter.Value)

	// Wrong password and unknown email: the same 401.
	for _, req := range []api.LoginRequest{
		{Email: "ana@example.com", Password: "wrong password!"},
		{Email: "nobody@example.com", Password: goodPassword},
	} {
		_, err := anon.AuthLogin(ctx, &req)
		es := errorOf(t, err)
		require.Equal(t, http.StatusUnauthorized, es.StatusCode)
		require.Equal(t, "INVALID_CREDENTIALS", es.Response.Error.Code)
	}
	login, err := anon.AuthLogin(ctx, &api.LoginRequest{Email: " Ana@Example.com", Password: goodPassword})
	require.NoError(t, err)
	require.NotEqual(t, s.SessionID, login.Data.SessionID)

	// Rotation: each refresh token works once.
	r1, err := anon.AuthRefresh(ctx, &api.RefreshRequest{RefreshToken: login.Data.RefreshToken})
	require.NoError(t, err)
	require.Equal(t, login.Data.SessionID, r1.Data.SessionID)
	require.NotEqual(t, login.Data.RefreshToken, r1.Data.RefreshToken)
	r2, err := anon.AuthRefresh(ctx, &api.RefreshRequest{RefreshToken: r1.Data.RefreshToken})
	require.NoError(t, err)
	// Reuse of a spent token revokes the session: the newest token dies too.
	_, err = anon.AuthRefresh(ctx, &api.RefreshRequest{RefreshToken: r1.Data.RefreshToken})
	require.Equal(t, http.StatusUnauthorized, errorOf(t, err).StatusCode)
	_, err = anon.AuthRefresh(ctx, &api.RefreshRequest{RefreshToken: r2.Data.RefreshToken})
	require.Equal(t, http.StatusUnauthorized, errorOf(t, err).StatusCode)
	// Garbage is the same 401.
	_, err = anon.AuthRefresh(ctx, &api.RefreshRequest{RefreshToken: "rt_nope"})
	require.Equal(t, http.StatusUnauthorized, errorOf(t, err).StatusCode)

	// Logout revokes the session; the access token stays valid until exp.
	out, err := e.client(t, s.AccessToken).AuthLogout(ctx)
	require.NoError(t, err)
	require.True(t, out.Data.Ok)
	_, err = anon.AuthRefresh(ctx, &api.RefreshRequest{RefreshToken: s.RefreshToken})
	require.Equal(t, http.StatusUnauthorized, errorOf(t, err).StatusCode)
	_, err = e.client(t, s.AccessToken).AuthLogout(ctx)
	require.NoError(t, err, "the access token outlives the session until it expires")
	// Without a token: 401.
	res, err := http.Post(e.url+"/api/v1/auth/logout", "application/json", nil)
	require.NoError(t, err)
	res.Body.Close()
	require.Equal(t, http.StatusUnauthorized, res.StatusCode)
}

// TestSessionAnswersHoldNoSecrets: the raw login answer carries no password
// hash, and the entity component schemas no secret field.
func TestSessionAnswersHoldNoSecrets(t *testing.T) {
	e := newAuthEnv(t, newStudio(t, "studio"))
	e.signup(t, "ana@example.com", goodPassword)
	res, err := http.Post(e.url+"/api/v1/auth/login", "application/json",
		strings.NewReader(`{"email":"ana@example.com","password":"`+goodPassword+`"}`))
	require.NoError(t, err)
	defer res.Body.Close()
	var raw map[string]any
	require.NoError(t, json.NewDecoder(res.Body).Decode(&raw))
	body, _ := json.Marshal(raw)
	require.NotContains(t, string(body), "argon2")
	require.NotContains(t, string(body), "password")
	require.NotContains(t, string(body), "hash")
}

// jwtParts decodes a JWT's header and claims without verifying it.
func jwtParts(t *testing.T, jwt string) (map[string]any, map[string]any) {
	t.Helper()
	parts := strings.Split(jwt, ".")
	require.Len(t, parts, 3)
	dec := func(s string) map[string]any {
		b, err := base64.RawURLEncoding.DecodeString(s)
		require.NoError(t, err)
		var m map[string]any
		require.NoError(t, json.Unmarshal(b, &m))
		return m
	}
	return dec(parts[0]), dec(parts[1])
}
