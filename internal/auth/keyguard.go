package auth

import (
	"github.com/ogen-go/ogen/middleware"
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
