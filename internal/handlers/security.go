package handlers

import (
	"context"
	"log/slog"

	"github.com/google/uuid"
	"github.com/ogen-go/ogen/ogenerrors"

	"github.com/venueplatform/venue/internal/accounts"
	"github.com/venueplatform/venue/internal/apperr"
	"github.com/venueplatform/venue/internal/auth"
	api "github.com/venueplatform/venue/internal/gen/api"
	"github.com/venueplatform/venue/internal/identity/token"
	"github.com/venueplatform/venue/internal/limits"
	"github.com/venueplatform/venue/internal/me"
	"github.com/venueplatform/venue/internal/scope"
	"github.com/venueplatform/venue/internal/system"
	"github.com/venueplatform/venue/internal/viewer"
)

// Security implements api.SecurityHandler: it authenticates the key, applies
// the access gates, tells the rate limit who calls (limits.Authenticated:
// the limiter decides and charges the bucket), checks the operation's scopes
// (from the OpenAPI security requirement) and puts the key's viewer in the
// context.
//
// Credential rules (package auth): an operation marked JWT-only
// (`x-jwt-only: true` or auth.RegisterJWTOnly) refuses API keys with 403
// ACCESS_DENIED, reason jwt_only, before the key is looked up; a request
// carrying both a bearer token and an API key is refused by
// auth.CredentialGuard (401, reason mixed_credentials), and, where the
// operation accepts either scheme, already here by whichever handler runs
// second.
type Security struct {
	auth *auth.Authenticator
	acct *accounts.Service
	log  *slog.Logger
}

var _ api.SecurityHandler = (*Security)(nil)

// HandleApiKeyAuth implements api.SecurityHandler.
func (s *Security) HandleApiKeyAuth(ctx context.Context, op api.OperationName, t api.ApiKeyAuth) (context.Context, error) {
	if _, ok := viewer.UserFromContext(ctx); ok {
		return nil, auth.MixedCredentials()
	}
	if auth.JWTOnly(op) {
		return nil, apperr.JWTOnly()
	}
	res, err := s.auth.Authenticate(ctx, t.APIKey)
	if err != nil {
		return nil, err
	}
	// The caller is known: the rate limit charges it now (its window is
	// shared with MCP), so a refusal below is charged and follows a 429.
	if err := limits.Authenticated(ctx, res.Viewer); err != nil {
		return nil, err
	}
	if missing := scope.Missing(res.Viewer.Scopes, t.Roles); len(missing) > 0 {
		return nil, apperr.MissingScopes(t.Roles)
	}
	return system.Identify(ctx, "api.api_key", res.Viewer), nil
}

// HandleBearerAuth implements api.SecurityHandler: it verifies a session's
// access token (EdDSA only, issuer, audience, expiry; package token), tells
// the rate limit who calls (limits.Authenticated) and puts a viewer.User in the context, with the
// session's active organization, role and staff permissions read from the
// database (me.LoadWorkspace). Every refusal is one 401; the reason goes to
// the log only. GET /me/minimal treats a refused token as no token.
func (s *Security) HandleBearerAuth(ctx context.Context, op api.OperationName, t api.BearerAuth) (context.Context, error) {
	if _, ok := viewer.FromContext(ctx).(viewer.APIKey); ok {
		return nil, auth.MixedCredentials()
	}
	claims, err := s.acct.Tokens().Verify(t.Token)
	if err != nil {
		if s.log != nil {
			s.log.DebugContext(ctx, "bearer token refused", "reason", string(token.ReasonOf(err)))
		}
		if op == api.GetMeMinimalOperation {
			// The embed check answers "logged out" instead of 401.
			return nil, ogenerrors.ErrSkipServerSecurity
		}
		return nil, apperr.Unauthorized("invalid or expired access token")
	}
	uid, err1 := uuid.Parse(claims.Subject)
	sid, err2 := uuid.Parse(claims.SessionID)
	if err1 != nil || err2 != nil {
		return nil, apperr.Unauthorized("invalid or expired access token")
	}
	// The caller is known: the rate limit charges the user now, before the
	// workspace and second-factor checks below may refuse it.
	if err := limits.Authenticated(ctx, viewer.User{UserID: uid, SessionID: sid}); err != nil {
		return nil, err
	}
	// The workspace is read per request, so permission changes apply at once.
	ws, err := me.LoadWorkspace(ctx, s.acct.Client(), uid, sid)
	if err != nil {
		return nil, err
	}
	// Staff powers need the second factor once the user has one: a
	// password-only session of such a user is refused staff operations with
	// 403 MFA_REQUIRED (its member operations go on).
	if !claims.MFA && (ws.Role == "staff" || ws.Role == "owner") && auth.StaffOperation(string(op)) {
		enabled, err := s.acct.MFAEnabled(ctx, uid)
		if err != nil {
			return nil, err
		}
		if enabled {
			return nil, accounts.ErrMFARequired
		}
	}
	u := viewer.User{UserID: uid, SessionID: sid, MFA: claims.MFA, StepUpAt: claims.StepUpAt,
		Org: ws.Org, Role: ws.Role, Permissions: ws.Permissions}
	return system.Identify(ctx, "api.bearer", u), nil
}
