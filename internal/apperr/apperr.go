// Package apperr is the one place errors become client answers: a typed
// error with an HTTP status, a contract code, a safe message and details, and
// From, which maps every other error (ent, privacy, context) to one of them.
// Internal error text never reaches a client.
package apperr

import (
	"context"
	"errors"
	"fmt"
	"net/http"

	"github.com/venueplatform/venue/ent"
	"github.com/venueplatform/venue/ent/privacy"
)

// The contract's error codes used across packages.
const (
	CodeValidation   = "VALIDATION_ERROR"
	CodeUnauthorized = "UNAUTHORIZED"
	CodeAccessDenied = "ACCESS_DENIED"
	CodeNotFound     = "NOT_FOUND"
	CodeConflict     = "CONFLICT"
	CodeRateLimited  = "RATE_LIMITED"
	CodeInternal     = "INTERNAL_ERROR"
	CodeUnavailable  = "UNAVAILABLE"
)

// Reasons of ACCESS_DENIED.
const (
	ReasonPlan        = "plan"
	ReasonFeatureFlag = "feature_flag"
	ReasonKillSwitch  = "kill_switch"
	ReasonScope       = "scope"
	// ReasonJWTOnly: an API key on an operation only a staff session's bearer
	// token may perform (403, JWTOnly).
	ReasonJWTOnly = "jwt_only"
)

// Error is an error a client may see.
type Error struct {
	Status  int
	Code    string
	Message string
	Details map[string]any
	// Cause is logged, never shown.
	Cause error
}

// Error implements error.
func (e *Error) Error() string {
	if e.Cause != nil {
		return fmt.Sprintf("%s: %s: %v", e.Code, e.Message, e.Cause)
	}
	return e.Code + ": " + e.Message
}

// Unwrap returns the cause.
func (e *Error) Unwrap() error { return e.Cause }

// With returns a copy of e with one more detail.
func (e *Error) With(key string, value any) *Error {
	c := *e
	c.Details = make(map[string]any, len(e.Details)+1)
	for k, v := range e.Details {
		c.Details[k] = v
	}
	c.Details[key] = value
	return &c
}

// Validation is a 400 VALIDATION_ERROR naming the offending parameter.
func Validation(parameter, message string) *Error {
	e := &Error{Status: http.StatusBadRequest, Code: CodeValidation, Message: message}
	if parameter != "" {
		e = e.With("parameter", parameter)
	}
	return e
}

// NotFound is a 404 NOT_FOUND; unknown, foreign and malformed ids look alike.
func NotFound(what string) *Error {
	return &Error{Status: http.StatusNotFound, Code: CodeNotFound, Message: what + " not found"}
}

// Unauthorized is a 401 for a missing, malformed, unknown or revoked credential.
func Unauthorized(message string) *Error {
	return &Error{Status: http.StatusUnauthorized, Code: CodeUnauthorized, Message: message}
}

// AccessDenied is a 403 ACCESS_DENIED with details.reason.
func AccessDenied(reason, message string) *Error {
	return (&Error{Status: http.StatusForbidden, Code: CodeAccessDenied, Message: message}).With("reason", reason)
}

// JWTOnly is the 403 of an API key presented to an operation only a staff
// session may perform. It lives here, not with the credential rules of the
// faces, because domain checks refuse keys the same way (a key may read the
// front desk but never write it).
func JWTOnly() *Error {
	return AccessDenied(ReasonJWTOnly, "this operation accepts only a staff session's bearer token, not an API key")
}

// MissingScopes is a 403 ACCESS_DENIED for a key without the scopes an
// operation needs.
func MissingScopes(required []string) *Error {
	return AccessDenied(ReasonScope, "the API key lacks a required scope").With("required_scopes", required)
}

// Internal is a 500 whose cause is logged and never shown.
func Internal(cause error) *Error {
	return &Error{Status: http.StatusInternalServerError, Code: CodeInternal, Message: "internal error", Cause: cause}
}

// From maps any error to an Error: typed errors pass through; ent not-found
// and privacy denials are 404 (the venue wall hides foreign rows); ent
// validation is 400; constraint violations are 409; a cancelled request is
// 503; everything else is a 500 with a generic message.
func From(err error) *Error {
	var e *Error
	switch {
	case err == nil:
		return nil
	case errors.As(err, &e):
		return e
	case ent.IsNotFound(err), errors.Is(err, privacy.Deny):
		return &Error{Status: http.StatusNotFound, Code: CodeNotFound, Message: "not found", Cause: err}
	case ent.IsValidationError(err):
		return &Error{Status: http.StatusBadRequest, Code: CodeValidation, Message: "invalid value", Cause: err}
	case ent.IsConstraintError(err):
		return &Error{Status: http.StatusConflict, Code: CodeConflict, Message: "conflicts with existing data", Cause: err}
	case errors.Is(err, context.Canceled), errors.Is(err, context.DeadlineExceeded):
		return &Error{Status: http.StatusServiceUnavailable, Code: CodeUnavailable, Message: "request cancelled or timed out", Cause: err}
	default:
		return Internal(err)
	}
}
