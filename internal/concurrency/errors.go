package concurrency

import (
	"net/http"
	"time"

	"github.com/venueplatform/venue/internal/apperr"
)

// CodeStale is the 409 of a write whose token no longer matches.
const CodeStale = "STALE_TARGET"

// Missing is the 400 VALIDATION_ERROR of a write sent without its token.
func Missing(name string) *apperr.Error {
	return apperr.Validation(name, name+" is required: send the updated_at of your last read").With("reason", "missing")
}

// Stale is the 409 STALE_TARGET of a write whose token no longer matches,
// with details.current_updated_at when the row's current token is known.
func Stale(current time.Time) *apperr.Error {
	e := &apperr.Error{Status: http.StatusConflict, Code: CodeStale, Message: "the target changed since it was read; read it again"}
	if !current.IsZero() {
		e = e.With("current_updated_at", Format(current))
	}
	return e
}
