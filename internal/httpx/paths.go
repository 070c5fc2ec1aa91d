package httpx

import (
	"net/http"
	"net/url"
	"strings"

	"github.com/venueplatform/venue/internal/apperr"
)

// CanonicalPath answers 404 NOT_FOUND, in the error envelope, for a request
// whose path is not canonical (CanonicalURL), before any router sees it.
// net/http's ServeMux would otherwise clean such a path and answer a 307
// redirect that keeps the method and body (POST
// /api/v1/bookings/../admin/schedule to /api/v1/admin/schedule): a request
// is served at the path it names or not at all, never redirected.
func CanonicalPath(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !CanonicalURL(r.URL) {
			WriteError(w, r, apperr.NotFound("route"))
			return
		}
		next.ServeHTTP(w, r)
	})
}

// CanonicalURL reports whether u's path is in the one form a route is
// served at: it starts with "/", has no "." or ".." segment (encoded or
// not), no empty segment ("//"; a trailing "/" is allowed), and no encoded
// separator (%2F, %5C) or backslash.
func CanonicalURL(u *url.URL) bool {
	raw := u.EscapedPath()
	if !strings.HasPrefix(raw, "/") || strings.ContainsRune(u.Path, '\\') || strings.ContainsRune(raw, '\\') {
		return false
	}
	lower := strings.ToLower(raw)
	if strings.Contains(lower, "%2f") || strings.Contains(lower, "%5c") {
		return false
	}
	// With encoded separators refused, the decoded path has the raw path's
	// segments: "%2e%2e" is caught here as "..".
	segs := strings.Split(u.Path[1:], "/")
	for i, s := range segs {
		switch s {
		case ".", "..":
			return false
		case "":
			if i != len(segs)-1 {
				return false
			}
		}
	}
	return true
}
