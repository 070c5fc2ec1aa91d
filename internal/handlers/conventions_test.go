package handlers_test

import (
	"bytes"
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// post sends body to a REST path with a content type and decodes the envelope.
func post(t *testing.T, url, contentType, body string) (int, envelope) {
	t.Helper()
	res, err := http.Post(url, contentType, bytes.NewBufferString(body))
	require.NoError(t, err)
	defer res.Body.Close()
	var env envelope
	require.NoError(t, json.NewDecoder(res.Body).Decode(&env))
	require.NotEmpty(t, env.Error.Details["request_id"])
	return res.StatusCode, env
}

// TestRequestBodyConventions: a body over the 1 MiB cap is 413
// PAYLOAD_TOO_LARGE; a wrong content type, a missing or malformed body and a
// body breaking the schema are 400 VALIDATION_ERROR naming what is wrong;
// none is a server error.
func TestRequestBodyConventions(t *testing.T) {
	s := newStudio(t, "studio")
	url := s.srv.URL + "/api/v1/auth/login"

	status, env := post(t, url, "application/json", `{"email":"a@b.c","password":"`+strings.Repeat("x", 2<<20)+`"}`)
	require.Equal(t, http.StatusRequestEntityTooLarge, status)
	require.Equal(t, "PAYLOAD_TOO_LARGE", env.Error.Code)
	require.Equal(t, float64(1<<20), env.Error.Details["max_body_bytes"])

	for _, c := range []struct{ contentType, body, param string }{
		{"text/plain", `{"email":"a@b.c","password":"x"}`, "Content-Type"},
		{"application/json", ``, "body"},
		{"application/json", `{`, "body"},
		{"application/json", `{"email":1,"password":"x"}`, "email"},
		{"application/json", `{"email":"a@b.c"}`, "password"},
		{"application/json", `{"email":"a@b.c","password":"` + strings.Repeat("x", 1025) + `"}`, "password"},
		{"application/json", `{"email":"` + strings.Repeat("e", 321) + `","password":"x"}`, "email"},
	} {
		status, env := post(t, url, c.contentType, c.body)
		require.Equal(t, http.StatusBadRequest, status, c.body)
		require.Equal(t, "VALIDATION_ERROR", env.Error.Code, c.body)
		require.Equal(t, c.param, env.Error.Details["parameter"], c.body)
	}
}

// TestAPIVersionHeader: X-Api-Version is optional (the current version), a
// later date pins the newest version released by then, and a malformed value
// or a date before the first version is 400 naming the header. Every answer
// names the version it was served in.
func TestAPIVersionHeader(t *testing.T) {
	s := newStudio(t, "studio")
	get := func(version string) (int, string, envelope) {
		t.Helper()
		req, err := http.NewRequest(http.MethodGet, s.srv.URL+"/api/v1/venues/studio", nil)
		require.NoError(t, err)
		if version != "" {
			req.Header.Set("X-Api-Version", version)
		}
		res, err := http.DefaultClient.Do(req)
		require.NoError(t, err)
		defer res.Body.Close()
		var env envelope
		require.NoError(t, json.NewDecoder(res.Body).Decode(&env))
		return res.StatusCode, res.Header.Get("X-Api-Version"), env
	}
	for _, v := range []string{"", "2026-04-11", "2027-01-01"} {
		status, served, _ := get(v)
		require.Equal(t, http.StatusOK, status, v)
		require.Equal(t, "2026-04-11", served, v)
	}
	for _, v := range []string{"latest", "2026-4-11", "2026-02-30", "2025-12-31"} {
		status, served, env := get(v)
		require.Equal(t, http.StatusBadRequest, status, v)
		require.Equal(t, "2026-04-11", served, v)
		require.Equal(t, "VALIDATION_ERROR", env.Error.Code, v)
		require.Equal(t, "X-Api-Version", env.Error.Details["parameter"], v)
		require.Equal(t, []any{"2026-04-11"}, env.Error.Details["supported_versions"], v)
	}
}
