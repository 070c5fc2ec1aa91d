package httpx

import (
	"net/http"
	"sort"
	"time"

	"github.com/venueplatform/venue/internal/apperr"
)

// HeaderAPIVersion pins a request to a dated version of the REST API.
const HeaderAPIVersion = "X-Api-Version"

// APIVersions are the dated versions of the REST API this build implements,
// oldest first.
var APIVersions = []string{CurrentAPIVersion}

// ResolveAPIVersion returns the version a request's X-Api-Version value pins:
// the current one when the value is empty, else the newest version released
// on or before the date. A value that is not a YYYY-MM-DD date, or a date
// before the first version, is 400 VALIDATION_ERROR naming the header.
func ResolveAPIVersion(v string) (string, error) {
	if v == "" {
		return CurrentAPIVersion, nil
	}
	d, err := time.Parse(time.DateOnly, v)
	if err != nil || d.Format(time.DateOnly) != v {
		return "", apperr.Validation(HeaderAPIVersion, HeaderAPIVersion+" must be a date (YYYY-MM-DD)").
			With("supported_versions", APIVersions)
	}
	i := sort.SearchStrings(APIVersions, v)
	if i < len(APIVersions) && APIVersions[i] == v {
		return v, nil
	}
	if i == 0 {
		return "", apperr.Validation(HeaderAPIVersion, HeaderAPIVersion+" names a date before the first version").
			With("supported_versions", APIVersions)
	}
	return APIVersions[i-1], nil
}

// APIVersion checks the X-Api-Version header of REST requests and answers
// with the version it pins in the response header (Middleware sets the
// current one for everything else).
func APIVersion(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		v, err := ResolveAPIVersion(r.Header.Get(HeaderAPIVersion))
		if err != nil {
			WriteError(w, r, apperr.From(err))
			return
		}
		w.Header().Set(HeaderAPIVersion, v)
		next.ServeHTTP(w, r)
	})
}
