package httpx_test

import (
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/venueplatform/venue/internal/apperr"
	"github.com/venueplatform/venue/internal/httpx"
)

func TestResolveAPIVersion(t *testing.T) {
	for in, want := range map[string]string{
		"": httpx.CurrentAPIVersion, "2026-04-11": "2026-04-11", "2026-04-12": "2026-04-11", "2099-12-31": "2026-04-11",
	} {
		got, err := httpx.ResolveAPIVersion(in)
		if err != nil || got != want {
			t.Errorf("ResolveAPIVersion(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
	for _, in := range []string{"2026-04-10", "1999-01-01", "2026-4-11", "2026-04-31", "20260411", "latest", " 2026-04-11"} {
		_, err := httpx.ResolveAPIVersion(in)
		e := apperr.From(err)
		if err == nil || e.Status != http.StatusBadRequest || e.Details["parameter"] != httpx.HeaderAPIVersion {
			t.Errorf("ResolveAPIVersion(%q): %v, want 400 naming the header", in, err)
		}
	}
}

func TestAPIVersionMiddleware(t *testing.T) {
	called := false
	h := httpx.APIVersion(http.HandlerFunc(func(http.ResponseWriter, *http.Request) { called = true }))
	req := httptest.NewRequest(http.MethodGet, "/api/v1/venues", nil)
	req.Header.Set(httpx.HeaderAPIVersion, "2030-01-01")
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	if !called || rec.Header().Get(httpx.HeaderAPIVersion) != "2026-04-11" {
		t.Fatalf("served %v with version %q", called, rec.Header().Get(httpx.HeaderAPIVersion))
	}
	called = false
	req.Header.Set(httpx.HeaderAPIVersion, "v2")
	rec = httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	if called || rec.Code != http.StatusBadRequest {
		t.Fatalf("a malformed version reached the handler (%v) or answered %d", called, rec.Code)
	}
}
