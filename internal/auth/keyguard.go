package auth

import (
	"net/http"

	"github.com/ogen-go/ogen/middleware"

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
// jwt_only (JWTOnlyRefused), also where the operation's security names only
// BearerAuth and would otherwise answer 401 as for a missing credential.
// route names the operation of a request.
func JWTOnlyGate(route func(*http.Request) (string, bool), next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if len(r.Header.Values(HeaderAPIKey)) > 0 && len(r.Header.Values(HeaderAuthorization)) == 0 {
			if op, ok := route(r); ok && JWTOnly(op) {
				httpx.WriteError(w, r, JWTOnlyRefused())
				return
			}
		}
		next.ServeHTTP(w, r)
	})
}
