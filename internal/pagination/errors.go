package pagination

import (
	"fmt"

	"github.com/venueplatform/venue/internal/apperr"
)

// OutOfRange is the 400 VALIDATION_ERROR of an integer parameter outside
// [lo, hi], naming it, with details.minimum and details.maximum.
func OutOfRange(name string, lo, hi int) *apperr.Error {
	return apperr.Validation(name, fmt.Sprintf("%s must be between %d and %d", name, lo, hi)).
		With("minimum", lo).With("maximum", hi)
}

// BadCursor is the 400 VALIDATION_ERROR of a cursor that does not verify.
func BadCursor(parameter string) *apperr.Error {
	return apperr.Validation(parameter, "invalid pagination cursor").With("reason", "invalid_cursor")
}
