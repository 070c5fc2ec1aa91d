package server_test

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/venueplatform/venue/internal/config"
	"github.com/venueplatform/venue/internal/pgtest"
	"github.com/venueplatform/venue/internal/server"
)

// startWith runs the server on a fresh database (no demo, no MCP) with the
// given settings and returns its address; the server stops with the test.
func startWith(t *testing.T, settings config.Config) string {
	t.Helper()
	demoOff := false
	ready := make(chan string, 1)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		done <- server.Run(ctx, server.Config{
			Addr: "127.0.0.1:0", DatabaseURL: pgtest.New(t), Migrate: true, Demo: &demoOff, Settings: &settings,
			Ready: func(addr string) { ready <- addr },
		}, io.Discard, slog.New(slog.DiscardHandler))
	}()
	t.Cleanup(func() {
		cancel()
		select {
		case <-done:
		case <-time.After(20 * time.Second):
			t.Error("the server did not stop")
		}
	})
	select {
	case addr := <-ready:
		return addr
	case err := <-done:
		t.Fatalf("server exited: %v", err)
	case <-time.After(60 * time.Second):
		t.Fatal("server did not start")
	}
	return ""
}

// slowBodyCut sends a login request whose body trickles in, 10 bytes every
// 2 s, on a raw connection to addr, and returns how long after the headers
// the server cut it, the status it answered (0 for none) and how many body
// bytes went out.
func slowBodyCut(t *testing.T, addr string) (cut time.Duration, status, sent int) {
	t.Helper()
	// 250 bytes: 50 s at this pace, longer than the default body timeout.
	body := `{"email":"slow@studio.example","password":"` + strings.Repeat("slow ", 40) + `"}`
	conn, err := net.Dial("tcp", addr)
	require.NoError(t, err)
	defer conn.Close()
	_, err = fmt.Fprintf(conn, "POST /api/v1/auth/login HTTP/1.1\r\nHost: %s\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n", addr, len(body))
	require.NoError(t, err)
	start := time.Now()
	answered := make(chan int, 1)
	go func() {
		res, err := http.ReadResponse(bufio.NewReader(conn), nil)
		if err != nil {
			answered <- 0
			return
		}
		_, _ = io.Copy(io.Discard, res.Body)
		// The connection is closed after the answer: the next read ends.
		if _, err := conn.Read(make([]byte, 1)); err == nil {
			answered <- -1
			return
		}
		answered <- res.StatusCode
	}()
	for sent < len(body) {
		end := min(sent+10, len(body))
		if _, err := conn.Write([]byte(body[sent:end])); err != nil {
			break
		}
		sent = end
		select {
		case status = <-answered:
			return time.Since(start), status, sent
		case <-time.After(2 * time.Second):
		}
	}
	select {
	case status = <-answered:
	case <-time.After(90 * time.Second):
		t.Fatal("the slow body was never cut")
	}
	return time.Since(start), status, sent
}

// TestSlowBodyIsCut: with a 1 s body timeout, a login body trickling in at
// 10 bytes every 2 s is answered 408 and its connection closed after about
// a second, long before the body is complete, while a normal client is
// served at the same time.
func TestSlowBodyIsCut(t *testing.T) {
	settings := config.Default()
	settings.Timeouts.Body = time.Second
	addr := startWith(t, settings)

	type result struct {
		cut          time.Duration
		status, sent int
	}
	slow := make(chan result, 1)
	go func() {
		cut, status, sent := slowBodyCut(t, addr)
		slow <- result{cut, status, sent}
	}()
	// Meanwhile a normal login is answered (401: nobody has that account).
	time.Sleep(200 * time.Millisecond)
	began := time.Now()
	res, err := http.Post("http://"+addr+"/api/v1/auth/login", "application/json",
		strings.NewReader(`{"email":"fast@studio.example","password":"correct horse battery"}`))
	require.NoError(t, err)
	var env struct {
		Error struct{ Code string } `json:"error"`
	}
	require.NoError(t, json.NewDecoder(res.Body).Decode(&env))
	res.Body.Close()
	require.Equal(t, http.StatusUnauthorized, res.StatusCode)
	require.Less(t, time.Since(began), 900*time.Millisecond, "served while the slow body waits")

	r := <-slow
	t.Logf("slow body cut after %v with status %d, %d bytes sent", r.cut, r.status, r.sent)
	require.Equal(t, http.StatusRequestTimeout, r.status)
	require.Less(t, r.cut, 3*time.Second)
	require.Less(t, r.sent, 40, "cut long before the body was complete")
}

// rawRequest sends one request line verbatim (paths net/http's client
// would not send as written) and returns the answer.
func rawRequest(t *testing.T, addr, method, target, body string) (*http.Response, []byte) {
	t.Helper()
	conn, err := net.Dial("tcp", addr)
	require.NoError(t, err)
	defer conn.Close()
	_, err = fmt.Fprintf(conn, "%s %s HTTP/1.1\r\nHost: %s\r\nContent-Type: application/json\r\nContent-Length: %d\r\nConnection: close\r\n\r\n%s",
		method, target, addr, len(body), body)
	require.NoError(t, err)
	res, err := http.ReadResponse(bufio.NewReader(conn), nil)
	require.NoError(t, err)
	b, err := io.ReadAll(res.Body)
	require.NoError(t, err)
	res.Body.Close()
	return res, b
}

// TestNoRedirects: a path with a dot segment, an empty segment or an encoded
// separator is 404 NOT_FOUND in the error envelope for every method, never a
// redirect (net/http's ServeMux would answer 307 keeping method and body);
// /api/v1 without its slash, OPTIONS * and unknown routes are enveloped
// too.
func TestNoRedirects(t *testing.T) {
	addr := startWith(t, config.Default())
	targets := []string{
		"/api/v1/bookings/../admin/schedule", "/api/v1/./admin/schedule", "/api/v1/venues/..",
		"/api/v1/%2e%2e/admin/schedule", "//api/v1/admin/schedule", "/api/v1//admin/schedule",
		"/api/v1/venues/a%2Fb/schedule", "/api/v1/venues/a%5Cb/schedule", `/api/v1\admin\schedule`,
		"/healthz/../api/v1/admin/schedule", "/api/mcp/../v1/venues", "/api/v1", "/api/v1/nowhere", "/nowhere",
		"/api/mcp/", "/healthz/",
	}
	for _, target := range targets {
		for _, method := range []string{http.MethodGet, http.MethodPost, http.MethodPut, http.MethodPatch, http.MethodDelete} {
			res, body := rawRequest(t, addr, method, target, `{"x":1}`)
			require.Equal(t, http.StatusNotFound, res.StatusCode, "%s %s: %s", method, target, body)
			require.Empty(t, res.Header.Get("Location"), "%s %s", method, target)
			require.Contains(t, string(body), `"code":"NOT_FOUND"`, "%s %s", method, target)
			require.Equal(t, "application/json", res.Header.Get("Content-Type"))
		}
	}
	res, body := rawRequest(t, addr, http.MethodOptions, "*", "")
	require.Equal(t, http.StatusNotFound, res.StatusCode, "%s", body)
	require.Contains(t, string(body), `"code":"NOT_FOUND"`)

	// A known path with an unknown method is the generated router's 405, in
	// the envelope.
	res, body = rawRequest(t, addr, http.MethodDelete, "/api/v1/venues", "")
	require.Equal(t, http.StatusMethodNotAllowed, res.StatusCode, "%s", body)
	require.Contains(t, string(body), `"code":"METHOD_NOT_ALLOWED"`)
	// Without MCP, its path is an unknown route.
	res, body = rawRequest(t, addr, http.MethodGet, "/api/mcp", "")
	require.Equal(t, http.StatusNotFound, res.StatusCode, "%s", body)
	require.Contains(t, string(body), `"code":"NOT_FOUND"`)
}

// TestMCPWrongMethod: a method other than POST on /api/mcp is 405 with
// Allow: POST and a JSON-RPC error body (operations.md), never net/http's
// plain text.
func TestMCPWrongMethod(t *testing.T) {
	base, _, _, stop := start(t)
	defer func() { require.NoError(t, stop()) }()
	addr := strings.TrimPrefix(base, "http://")
	for _, method := range []string{http.MethodGet, http.MethodDelete, http.MethodPut, http.MethodPatch} {
		res, body := rawRequest(t, addr, method, "/api/mcp", "")
		require.Equal(t, http.StatusMethodNotAllowed, res.StatusCode, method)
		require.Equal(t, http.MethodPost, res.Header.Get("Allow"), method)
		require.Equal(t, "application/json", res.Header.Get("Content-Type"), method)
		var rpc struct {
			JSONRPC string `json:"jsonrpc"`
			Error   struct {
				Code int `json:"code"`
			} `json:"error"`
		}
		require.NoError(t, json.Unmarshal(body, &rpc), "%s", body)
		require.Equal(t, "2.0", rpc.JSONRPC)
		require.NotZero(t, rpc.Error.Code)
	}
}

// TestCharsetRefused: a JSON body declared in another charset than UTF-8 is
// 400 VALIDATION_ERROR naming Content-Type, before it is read.
func TestCharsetRefused(t *testing.T) {
	addr := startWith(t, config.Default())
	for _, ct := range []string{"application/json; charset=utf-16", "application/json; charset=UTF-16BE", "application/json; charset=latin1"} {
		req, err := http.NewRequest(http.MethodPost, "http://"+addr+"/api/v1/auth/login",
			strings.NewReader(`{"email":"a@studio.example","password":"correct horse battery"}`))
		require.NoError(t, err)
		req.Header.Set("Content-Type", ct)
		res, err := http.DefaultClient.Do(req)
		require.NoError(t, err)
		var env struct {
			Error struct {
				Code    string         `json:"code"`
				Details map[string]any `json:"details"`
			} `json:"error"`
		}
		require.NoError(t, json.NewDecoder(res.Body).Decode(&env))
		res.Body.Close()
		require.Equal(t, http.StatusBadRequest, res.StatusCode, ct)
		require.Equal(t, "VALIDATION_ERROR", env.Error.Code, ct)
		require.Equal(t, "Content-Type", env.Error.Details["parameter"], ct)
	}
}
