package httpx

import (
	"mime"
	"net/http"
	"strings"

	"github.com/venueplatform/venue/internal/apperr"
)

// UTF8Only refuses, before the body is read, a request whose Content-Type
// names a charset other than UTF-8 (`application/json; charset=utf-16`),
// or that does not parse: 400 VALIDATION_ERROR naming Content-Type. JSON is
// UTF-8 (RFC 8259); decoding such a body as UTF-8 would be silent leniency,
// and the generated server compares the media type only. A missing charset
// is UTF-8; the media type itself is the generated server's check.
func UTF8Only(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if ct := r.Header.Get("Content-Type"); ct != "" {
			_, params, err := mime.ParseMediaType(ct)
			if err != nil {
				WriteError(w, r, apperr.Validation("Content-Type", "the Content-Type header is malformed"))
				return
			}
			if cs, ok := params["charset"]; ok && !strings.EqualFold(cs, "utf-8") {
				WriteError(w, r, apperr.Validation("Content-Type", "the request body must be UTF-8 (charset=utf-8 or none)"))
				return
			}
		}
		next.ServeHTTP(w, r)
	})
}
