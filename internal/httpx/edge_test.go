package httpx_test

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/venueplatform/venue/internal/apperr"
	"github.com/venueplatform/venue/internal/httpx"
)

// TestCanonicalURL: only the one form of a path passes; dot segments (also
// encoded), empty segments, encoded separators and backslashes do not.
func TestCanonicalURL(t *testing.T) {
	for raw, want := range map[string]bool{
		"/": true, "/api/v1/venues": true, "/api/v1/venues/": true, "/api/v1/venues/yoga%20loft/schedule": true,
		"/api/v1/bookings/../admin/schedule": false, "/api/v1/./venues": false, "/api/v1/venues/..": false,
		"/api/v1/%2e%2e/admin": false, "/api/v1/%2E/venues": false, "//api/v1/venues": false,
		"/api/v1//venues": false, "/api/v1/venues/a%2Fb/schedule": false, "/api/v1/venues/a%2fb": false,
		"/api/v1/venues/a%5Cb": false, "/api/v1/venues/a%5cb": false, `/api/v1\venues`: false,
	} {
		u, err := url.ParseRequestURI(raw)
		require.NoError(t, err, raw)
		require.Equal(t, want, httpx.CanonicalURL(u), raw)
	}
	require.False(t, httpx.CanonicalURL(&url.URL{Path: "*"}))
	require.False(t, httpx.CanonicalURL(&url.URL{Opaque: "example.com:443"}))
}

// envelope reads an error envelope.
func envelope(t *testing.T, body io.Reader) httpx.ErrorBody {
	t.Helper()
	var env httpx.Envelope
	require.NoError(t, json.NewDecoder(body).Decode(&env))
	require.Nil(t, env.Data)
	return env.Error
}

// TestPanicIsEnvelope: a panic below Middleware is a 500 INTERNAL_ERROR in
// the envelope, with the request id; the panic's text stays in the log.
func TestPanicIsEnvelope(t *testing.T) {
	h := httpx.Middleware(slog.New(slog.NewTextHandler(io.Discard, nil)), http.HandlerFunc(func(http.ResponseWriter, *http.Request) {
		panic("secret internal detail")
	}))
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/api/v1/venues", nil))
	require.Equal(t, http.StatusInternalServerError, rec.Code)
	require.NotContains(t, rec.Body.String(), "secret")
	e := envelope(t, rec.Body)
	require.Equal(t, apperr.CodeInternal, e.Code)
	require.Equal(t, rec.Header().Get("X-Request-Id"), e.Details["request_id"])
}

// TestUTF8Only: a charset other than UTF-8 (any case), or a Content-Type
// that does not parse, is 400 VALIDATION_ERROR naming Content-Type before
// the body is read; UTF-8 in any case, or no charset, passes.
func TestUTF8Only(t *testing.T) {
	read := false
	h := httpx.UTF8Only(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.ReadAll(r.Body)
		read = true
		w.WriteHeader(http.StatusNoContent)
	}))
	for ct, ok := range map[string]bool{
		"application/json": true, "application/json; charset=utf-8": true, "application/json;charset=UTF-8": true,
		`application/json; charset="utf-8"`: true, "": true,
		"application/json; charset=utf-16": false, "application/json; charset=UTF-16LE": false,
		"application/json; charset=iso-8859-1": false, "application/json; charset=utf8": false,
		"application/json; charset=utf-8; charset=utf-16": false, "application/json; charset": false,
	} {
		read = false
		req := httptest.NewRequest(http.MethodPost, "/api/v1/auth/login", strings.NewReader(`{}`))
		if ct != "" {
			req.Header.Set("Content-Type", ct)
		}
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		if ok {
			require.Equal(t, http.StatusNoContent, rec.Code, ct)
			continue
		}
		require.Equal(t, http.StatusBadRequest, rec.Code, ct)
		require.False(t, read, "the body is not read: %s", ct)
		e := envelope(t, rec.Body)
		require.Equal(t, apperr.CodeValidation, e.Code, ct)
		require.Equal(t, "Content-Type", e.Details["parameter"], ct)
	}
}

// TestBodyDeadline: a body that does not arrive within the limit fails the
// read with 408 REQUEST_TIMEOUT and the connection closes; a body that
// arrives in time lifts the deadline, so the answer may take longer than
// the limit and the context stays alive.
func TestBodyDeadline(t *testing.T) {
	const limit = 300 * time.Millisecond
	h := httpx.BodyDeadline(limit, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, err := io.ReadAll(r.Body)
		var e *apperr.Error
		if errors.As(err, &e) {
			httpx.WriteError(w, r, e)
			return
		}
		require.NoError(t, err)
		time.Sleep(2 * limit) // a slow answer after a quick body
		if r.Context().Err() != nil {
			w.WriteHeader(http.StatusServiceUnavailable)
			return
		}
		_, _ = w.Write(body)
	}))
	srv := httptest.NewServer(h)
	defer srv.Close()

	res, err := http.Post(srv.URL, "application/json", strings.NewReader(`{"a":1}`))
	require.NoError(t, err)
	got, _ := io.ReadAll(res.Body)
	res.Body.Close()
	require.Equal(t, http.StatusOK, res.StatusCode)
	require.Equal(t, `{"a":1}`, string(got))

	conn, err := net.Dial("tcp", srv.Listener.Addr().String())
	require.NoError(t, err)
	defer conn.Close()
	start := time.Now()
	_, err = fmt.Fprintf(conn, "POST / HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{\"a\"")
	require.NoError(t, err)
	res, err = http.ReadResponse(bufio.NewReader(conn), nil)
	require.NoError(t, err)
	require.Equal(t, http.StatusRequestTimeout, res.StatusCode)
	require.True(t, res.Close, "the connection is closed after the answer")
	e := envelope(t, res.Body)
	require.Equal(t, httpx.CodeRequestTimeout, e.Code)
	require.Less(t, time.Since(start), 5*limit)
}

// TestStreamWrites: behind StreamWrites an answer may run longer than the
// server's WriteTimeout as long as each write is quick.
func TestStreamWrites(t *testing.T) {
	const limit = 300 * time.Millisecond
	slow := http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		for i := 0; i < 4; i++ {
			_, _ = fmt.Fprintf(w, "part %d\n", i)
			_ = http.NewResponseController(w).Flush()
			time.Sleep(limit / 2)
		}
	})
	mux := http.NewServeMux()
	mux.Handle("/plain", slow)
	mux.Handle("/stream", httpx.StreamWrites(limit, slow))
	srv := httptest.NewUnstartedServer(httpx.Middleware(slog.New(slog.NewTextHandler(io.Discard, nil)), mux))
	srv.Config.WriteTimeout = limit
	srv.Start()
	defer srv.Close()

	res, err := http.Get(srv.URL + "/stream")
	require.NoError(t, err)
	body, err := io.ReadAll(res.Body)
	res.Body.Close()
	require.NoError(t, err)
	require.Equal(t, "part 0\npart 1\npart 2\npart 3\n", string(body))

	// Without it the server's WriteTimeout cuts the same answer.
	res, err = http.Get(srv.URL + "/plain")
	if err == nil {
		body, err = io.ReadAll(res.Body)
		res.Body.Close()
	}
	require.True(t, err != nil || string(body) != "part 0\npart 1\npart 2\npart 3\n", "cut: %q", body)
}
