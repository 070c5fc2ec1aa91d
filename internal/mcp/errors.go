package mcp

import (
	"context"
	"errors"
	"net/http"

	"github.com/venueplatform/venue/ent"
	"github.com/venueplatform/venue/ent/privacy"
	"github.com/venueplatform/venue/internal/apperr"
	"github.com/venueplatform/venue/internal/input"
)

// violation is one way arguments break a tool's input schema or rules.
type violation struct {
	// Path is a JSON Pointer to the offending value ("" for the whole input).
	Path    string `json:"path"`
	Message string `json:"message"`
}

func errMethodNotFound(method string) *rpcError {
	return (&rpcError{Code: CodeMethodNotFound, Message: "Method not found"}).with("method", input.Echo(method))
}

func errInvalidParams(message string, vs ...violation) *rpcError {
	e := &rpcError{Code: CodeInvalidParams, Message: "Invalid params: " + message}
	if len(vs) > 0 {
		e = e.with("violations", vs)
	}
	return e
}

func errNotFound(resource string) *rpcError {
	return (&rpcError{Code: CodeNotFound, Message: "Resource not found"}).with("resource", resource)
}

func errScopes(required []string) *rpcError {
	return (&rpcError{Code: CodeForbidden, Message: "Forbidden: the API key lacks a required scope"}).
		with("required_scopes", required)
}

func errRateLimited(retryAfter int) *rpcError {
	return (&rpcError{Code: CodeRateLimited, Message: "Rate limited: too many requests for this API key"}).
		with("retry_after_seconds", retryAfter)
}

func errInternal() *rpcError {
	return &rpcError{Code: CodeInternalError, Message: "Internal error"}
}

// fromAuth maps an error of auth.Authenticate: 401 is -32001; an access
// denial (kill switch, plan, feature flag) is -32004 with its reason;
// anything else is an internal error.
func fromAuth(err error) *rpcError {
	var e *apperr.Error
	if !errors.As(err, &e) {
		return errInternal()
	}
	switch {
	case e.Status == http.StatusUnauthorized:
		return &rpcError{Code: CodeUnauthorized, Message: "Unauthorized: " + e.Message}
	case e.Code == apperr.CodeAccessDenied:
		out := &rpcError{Code: CodeAccessDenied, Message: "API access denied: " + e.Message}
		if r, ok := e.Details["reason"]; ok {
			out = out.with("reason", r)
		}
		return out
	default:
		return errInternal()
	}
}

// fromDomain maps an error of a tool or resource read: typed JSON-RPC errors
// pass through; ent not-found and privacy denials (a foreign row looks
// exactly like an unknown one) are -32005; everything else is internal.
func fromDomain(err error, resource string) (rpcErr *rpcError, internal bool) {
	var re *rpcError
	switch {
	case errors.As(err, &re):
		return re, false
	case ent.IsNotFound(err), errors.Is(err, privacy.Deny):
		return errNotFound(resource), false
	case errors.Is(err, context.Canceled), errors.Is(err, context.DeadlineExceeded):
		return errInternal(), false
	default:
		return errInternal(), true
	}
}
