package idempotency

import (
	"net/http"

	"github.com/venueplatform/venue/internal/apperr"
)

// The error codes of this package.
const (
	// CodeInvalidKey: a required key is missing, or a key is malformed (400).
	CodeInvalidKey = "INVALID_IDEMPOTENCY_KEY"
	// CodeKeyInvalid: the contract's 400 of a key that must be a UUID and
	// is not, for the operations whose policy names it (WithInvalidCode).
	CodeKeyInvalid = "IDEMPOTENCY_KEY_INVALID"
	// CodeMismatch: the key was first used with another request (409).
	CodeMismatch = "IDEMPOTENCY_KEY_REUSE_MISMATCH"
	// CodeInUse: the first request with the key is still running (409).
	CodeInUse = "IDEMPOTENCY_KEY_IN_USE"
)

// MissingKey is the 400 of a request without a required key.
func MissingKey() *apperr.Error {
	return (&apperr.Error{Status: http.StatusBadRequest, Code: CodeInvalidKey, Message: Header + " header is required"}).
		With("parameter", Header).With("reason", "missing")
}

// MalformedKey is the 400 of a key not in format f.
func MalformedKey(f Format) *apperr.Error {
	if f == (Format{}) {
		f = Default
	}
	return (&apperr.Error{Status: http.StatusBadRequest, Code: CodeInvalidKey, Message: Header + " must be " + f.describe()}).
		With("parameter", Header).With("reason", "format").With("format", f.Name)
}

// KeyMismatch is the 409 of a key reused with another request.
func KeyMismatch() *apperr.Error {
	return &apperr.Error{Status: http.StatusConflict, Code: CodeMismatch,
		Message: "this " + Header + " was used with a different request; use a new key"}
}

// KeyInUse is the 409 of a key whose first request is still running.
func KeyInUse() *apperr.Error {
	return (&apperr.Error{Status: http.StatusConflict, Code: CodeInUse,
		Message: "a request with this " + Header + " is in progress; retry shortly"}).With("retry_after_seconds", 1)
}
