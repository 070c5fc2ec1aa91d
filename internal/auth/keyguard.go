package auth

import (
	"net/http"
	"slices"

	"github.com/ogen-go/ogen/middleware"

	"github.com/venueplatform/venue/internal/apperr"
	"github.com/venueplatform/venue/internal/httpx"
)

// KeyGuard is the ogen middleware that checks an X-API-Key sent to an
// operation whose security names no scheme (the public catalogue reads such
// as /venues, /venues/{slug}, /discovery, gift-card lookups): the key is
// authenticated like anywhere else, so an unknown or revoked key is 401 and
// the platform kill switch, the venue's plan and its API flag refuse it with
// 403 ACCESS_DENIED (reason kill_switch, plan, feature_flag): every API-key
// request is refused while the kill switch is on. A key that passes is not
// used further: the operation answers its public view. Install it after
// CredentialGuard and before the rate limit and idempotency hooks.
func (a *Authenticator) KeyGuard() middleware.Middleware {
	return func(req middleware.Request, next middleware.Next) (middleware.Response, error) {
		if Authenticates(req.OperationID) {
			return next(req) // the operation's security handler checks the key
		}
		if vals := req.Raw.Header.Values(HeaderAPIKey); len(vals) > 0 {
			if _, err := a.Authenticate(req.Context, vals[0]); err != nil {
				return middleware.Response{}, err
			}
		}
		return next(req)
	}
}

// JWTOnlyGate refuses, before the operation's security runs, an API key sent
// without a bearer token to a JWT-only operation: 403 ACCESS_DENIED, reason
// jwt_only (apperr.JWTOnly), also where the operation's security names only
// BearerAuth and would otherwise answer 401 as for a missing credential.
// route names the operation of a request.
//
// An API key sent alone to an operation that takes only a bearer token (its
// security names BearerAuth and not ApiKeyAuth) is 401 UNAUTHORIZED with
// details.reason bearer_required, so the caller learns the key is not the
// credential this operation takes rather than that it is a bad key.
func JWTOnlyGate(route func(*http.Request) (string, bool), next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if len(r.Header.Values(HeaderAPIKey)) > 0 && len(r.Header.Values(HeaderAuthorization)) == 0 {
			if op, ok := route(r); ok {
				switch {
				case JWTOnly(op):
					httpx.WriteError(w, r, apperr.JWTOnly())
					return
				case takesOnlyBearer(op):
					httpx.WriteError(w, r, BearerRequired())
					return
				}
			}
		}
		next.ServeHTTP(w, r)
	})
}

// ReasonBearerRequired: an API key sent to an operation that takes only a
// user's bearer token (401).
const ReasonBearerRequired = "bearer_required"

// BearerRequired is the 401 of an API key sent alone to an operation that
// takes only a bearer token.
func BearerRequired() *apperr.Error {
	return apperr.Unauthorized("this operation takes a user's bearer token, not an API key").
		With("reason", ReasonBearerRequired)
}

// takesOnlyBearer reports whether the operation's security names BearerAuth
// and not ApiKeyAuth.
func takesOnlyBearer(operationID string) bool {
	_ = ops.load()
	names := ops.schemes[opKey(operationID)]
	return slices.Contains(names, SchemeBearer) && !slices.Contains(names, SchemeAPIKey)
}
