package handlers_test

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/google/uuid"
	"github.com/stretchr/testify/require"
)

// TestInputGate: the values an outside fuzzer sent (a NUL in a path slug or
// code, in a query value, in a body field; raw bytes that are not UTF-8 in a
// JSON string; the year 0000; a malformed percent escape; UUIDs in braces or
// without dashes) get the contract's answer: the 404 of an unknown value in
// the path, 400 VALIDATION_ERROR naming the parameter or field elsewhere;
// never a 5xx, never the library's text, and nothing written.
func TestInputGate(t *testing.T) {
	s := newStudio(t, "copenhagen-flow")
	e := newAuthEnv(t, s)
	member := e.signup(t, "fuzz@example.com", goodPassword).AccessToken
	id := uuid.NewString()
	braces, bare := "%7B"+id+"%7D", strings.ReplaceAll(id, "-", "")
	const joinKey = "join-key-1"

	for _, tc := range []struct {
		method, path, body string
		auth               string // "", "key" or "member"
		header             map[string]string
		status             int
		code, param        string
	}{
		// A NUL in a path slug or code: the 404 of an unknown one.
		{method: "GET", path: "/venues/%00", status: 404, code: "NOT_FOUND"},
		{method: "GET", path: "/venues/copenhagen-flow/gift-cards/abc%00def/preview", status: 404, code: "NOT_FOUND"},
		{method: "GET", path: "/venues/copenhagen-flow/gift-cards/abc%00def/balance", status: 404, code: "NOT_FOUND"},
		{method: "GET", path: "/venues/copenhagen-flow/brands/%00", status: 404, code: "BRAND_NOT_FOUND"},
		{method: "GET", path: "/venues/%00/brands", status: 404, code: "NOT_FOUND"},
		{method: "GET", path: "/venues/%ff%fe/schedule", status: 404, code: "NOT_FOUND"},
		{method: "POST", path: "/venues/%00/join", auth: "member", body: `{}`,
			header: map[string]string{"Idempotency-Key": joinKey}, status: 404, code: "NOT_FOUND"},
		{method: "POST", path: "/venues/%00/inquiries", auth: "member", body: `{"service_id":"` + id + `","preferred_time":"soon"}`,
			status: 404, code: "NOT_FOUND"},
		// In a query value.
		{method: "GET", path: "/venues?search=a%00b", status: 400, code: "VALIDATION_ERROR", param: "search"},
		{method: "GET", path: "/venues?city=a%00b", status: 400, code: "VALIDATION_ERROR", param: "city"},
		{method: "GET", path: "/discovery?world=classes&date=2026-11-30&search=a%00b", status: 400, code: "VALIDATION_ERROR", param: "search"},
		// A malformed escape is refused, not dropped.
		{method: "GET", path: "/venues?search=%zz", status: 400, code: "VALIDATION_ERROR", param: "search"},
		{method: "GET", path: "/venues?page=1&city=%e", status: 400, code: "VALIDATION_ERROR", param: "city"},
		// In a body field: escaped NUL, raw bytes that are not UTF-8.
		{method: "POST", path: "/auth/signup", body: `{"email":"n1@example.com","password":"` + goodPassword + `","city":"a\u0000b"}`,
			status: 400, code: "VALIDATION_ERROR", param: "city"},
		{method: "POST", path: "/auth/signup", body: `{"email":"n2@example.com","password":"` + goodPassword + `","first_name":"\u0000"}`,
			status: 400, code: "VALIDATION_ERROR", param: "first_name"},
		{method: "POST", path: "/auth/signup", body: `{"email":"n3@example.com","password":"` + goodPassword + `","last_name":"x\u0000"}`,
			status: 400, code: "VALIDATION_ERROR", param: "last_name"},
		{method: "POST", path: "/auth/signup", body: "{\"email\":\"n4@example.com\",\"password\":\"" + goodPassword + "\",\"first_name\":\"\xed\xa0\x80\"}",
			status: 400, code: "VALIDATION_ERROR", param: "first_name"},
		{method: "PATCH", path: "/me", auth: "member", body: `{"first_name":"a\u0000"}`, status: 400, code: "VALIDATION_ERROR", param: "first_name"},
		{method: "PATCH", path: "/me", auth: "member", body: `{"city":"a","city":"b"}`, status: 400, code: "VALIDATION_ERROR", param: "city"},
		{method: "POST", path: "/me/push-token", auth: "member",
			body:   `{"token":"tok","platform":"ios","device_id":"dev-\u0000","app_variant":"member"}`,
			status: 400, code: "VALIDATION_ERROR", param: "device_id"},
		// The year 0000.
		{method: "GET", path: "/discovery?world=classes&date=0000-01-01", status: 400, code: "VALIDATION_ERROR", param: "date"},
		{method: "GET", path: "/discovery/counts?date=0000-01-01", status: 400, code: "VALIDATION_ERROR", param: "date"},
		{method: "GET", path: "/venues/copenhagen-flow/schedule?from=0000-01-01&to=0000-01-02", status: 400, code: "VALIDATION_ERROR", param: "from"},
		{method: "GET", path: "/admin/schedule?start_date=0000-01-01&end_date=0000-01-02", auth: "key", status: 400, code: "VALIDATION_ERROR", param: "start_date"},
		{method: "GET", path: "/admin/checkin?date=0000-01-01", auth: "key", status: 400, code: "VALIDATION_ERROR", param: "date"},
		{method: "GET", path: "/calendar?start=0000-01-01&end=0000-01-02", auth: "key", status: 400, code: "VALIDATION_ERROR", param: "start"},
		// UUIDs in braces or without dashes.
		{method: "GET", path: "/admin/schedule/" + braces, auth: "key", status: 404, code: "NOT_FOUND"},
		{method: "GET", path: "/admin/schedule/" + bare, auth: "key", status: 404, code: "NOT_FOUND"},
		{method: "GET", path: "/venues/copenhagen-flow/offers/" + braces, status: 404, code: "NOT_FOUND"},
		{method: "GET", path: "/venues/copenhagen-flow/schedule?location_id=" + braces, status: 400, code: "VALIDATION_ERROR", param: "location_id"},
		{method: "GET", path: "/venues/copenhagen-flow/pricing?brand_id=" + bare, status: 400, code: "VALIDATION_ERROR", param: "brand_id"},
		{method: "POST", path: "/me/active-organization", auth: "member", body: `{"organization_id":"{` + id + `}"}`,
			status: 400, code: "VALIDATION_ERROR", param: "organization_id"},
	} {
		name := tc.method + " " + tc.path
		before := rowCounts(t, s)
		var body io.Reader
		if tc.body != "" {
			body = strings.NewReader(tc.body)
		}
		req, err := http.NewRequest(tc.method, s.srv.URL+"/api/v1"+tc.path, body)
		require.NoError(t, err, name)
		if tc.body != "" {
			req.Header.Set("Content-Type", "application/json")
		}
		switch tc.auth {
		case "key":
			req.Header.Set("X-API-Key", s.key)
		case "member":
			req.Header.Set("Authorization", "Bearer "+member)
		}
		for k, v := range tc.header {
			req.Header.Set(k, v)
		}
		res, err := http.DefaultClient.Do(req)
		require.NoError(t, err, name)
		raw, err := io.ReadAll(res.Body)
		_ = res.Body.Close()
		require.NoError(t, err, name)
		var env envelope
		require.NoError(t, json.Unmarshal(raw, &env), name)
		require.Equal(t, tc.status, res.StatusCode, "%s: %s", name, raw)
		require.Equal(t, tc.code, env.Error.Code, name)
		if tc.param != "" {
			require.Equal(t, tc.param, env.Error.Details["parameter"], name)
		}
		for _, library := range []string{"parsing time", "cannot parse", "invalid UUID", "invalid URL escape", "decode", "\\u0000", "utf8"} {
			require.NotContains(t, string(raw), library, name)
		}
		require.Equal(t, before, rowCounts(t, s), "%s wrote to the database", name)
	}
}

// rowCounts counts the rows of every table of the studio's database except
// the rate limit's buckets (every request is charged, refused or not).
func rowCounts(t *testing.T, s *studio) map[string]int {
	t.Helper()
	ctx := context.Background()
	rows, err := s.pool.Query(ctx, `SELECT quote_ident(table_schema) || '.' || quote_ident(table_name)
		FROM information_schema.tables
		WHERE table_type = 'BASE TABLE' AND table_schema NOT IN ('pg_catalog', 'information_schema')
		AND table_name <> 'rate_limits'`)
	require.NoError(t, err)
	var tables []string
	for rows.Next() {
		var name string
		require.NoError(t, rows.Scan(&name))
		tables = append(tables, name)
	}
	require.NoError(t, rows.Err())
	out := make(map[string]int, len(tables))
	for _, tb := range tables {
		var n int
		require.NoError(t, s.pool.QueryRow(ctx, "SELECT count(*) FROM "+tb).Scan(&n))
		out[tb] = n
	}
	return out
}
